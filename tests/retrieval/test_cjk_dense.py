"""The dense judge on Chinese: wordllama knows no Chinese or Japanese words, says so in
one line, and the hybrid falls back to BM25 with that line."""

from __future__ import annotations

import numpy as np

from lab.retrieval.bm25_variants import Bm25Retriever
from lab.retrieval.dense import DenseRetriever
from lab.retrieval.embedders import load_embedder, reading_note, wordllama_model
from lab.retrieval.fusion import HybridRetriever

CHINESE = [
    "所有权是 Rust 最独特的功能，它让 Rust 无需垃圾回收即可保障内存安全。",
    "切片允许你引用集合中一段连续的元素序列，而不用引用整个集合。",
    "结构体是一个自定义数据类型，允许你包装和命名多个相关的值。",
    "枚举允许你通过列举可能的成员来定义一个类型。",
]
QUESTION = "Rust 如何不用垃圾回收也能保障内存安全？"
ENGLISH = ["the refund window is 30 days", "audit logs are kept for 400 days"]
TOY = "tests.retrieval.toy_embedder:embed"


def test_wordllama_splits_chinese_into_single_characters_and_bytes():
    # -- the evidence the rule rests on: Llama 2's vocabulary has no Chinese word
    pieces = wordllama_model().tokenizer.encode(QUESTION, add_special_tokens=False).tokens
    chinese = [p for p in pieces if p.strip("▁") and not p.strip("▁").isascii()]
    assert all(len(p.strip("▁")) == 1 for p in chinese)
    assert any(p.startswith("<0x") for p in pieces)  # characters it does not hold at all
    vectors = wordllama_model().embed([CHINESE[1], CHINESE[2]], norm=True)
    assert float(vectors[0] @ vectors[1]) > 0.3  # unrelated topics, alike by their bytes


def test_the_dense_judge_says_in_one_line_it_cannot_read_chinese():
    got = DenseRetriever(load_embedder("wordllama")).score(CHINESE, QUESTION)
    assert got.note.startswith("dense (wordllama) cannot read Chinese")
    assert "\n" not in got.note
    assert len(got.ranks) == len(CHINESE)  # the cosines are still given, marked


def test_the_hybrid_falls_back_to_bm25_with_that_line():
    hybrid = HybridRetriever(Bm25Retriever(), DenseRetriever(load_embedder("wordllama")))
    judged = hybrid.index(CHINESE).judge(QUESTION)
    assert judged.hybrid.ranks == judged.bm25.ranks
    assert judged.hybrid.ranks[0] == 1  # BM25 (bigrams) finds the answer
    assert judged.hybrid.note == judged.dense.note != ""
    assert hybrid.score(CHINESE, QUESTION).note == judged.dense.note
    many = hybrid.index(CHINESE).score_all([QUESTION, "切片"])
    assert all(r.note == judged.dense.note for r in many)


def test_english_and_a_users_own_model_carry_no_line():
    wordllama = load_embedder("wordllama")
    assert reading_note(wordllama, "how long are audit logs kept", ENGLISH) == ""
    assert DenseRetriever(wordllama).score(ENGLISH, "audit logs").note == ""
    # -- a document with a few Chinese names in it is still English
    assert reading_note(wordllama, "who wrote it", ["written by 李明 and friends " * 5]) == ""
    assert reading_note(wordllama, "who", CHINESE) != ""
    # -- a user's own model is taken at its word: it may well be multilingual
    assert reading_note(load_embedder(TOY), QUESTION, CHINESE) == ""
    hybrid = HybridRetriever(Bm25Retriever(), DenseRetriever(load_embedder(TOY)))
    judged = hybrid.index(CHINESE).judge(QUESTION)
    assert judged.hybrid.note == ""
    assert np.all(np.asarray(judged.hybrid.scores) > 1 / 61)  # both judges fused


def test_the_gates_hybrid_falls_back_to_bm25_on_chinese_too():
    from lab.retrieval.corpus import corpus_index
    from tests.support import make_chunk

    chunks = [make_chunk(i, t) for i, t in enumerate(CHINESE)]
    hybrid = HybridRetriever(Bm25Retriever(), DenseRetriever(load_embedder("wordllama")))
    fused = corpus_index(hybrid, chunks)
    bm25 = corpus_index(Bm25Retriever(), chunks)
    assert fused.note(QUESTION).startswith("dense (wordllama) cannot read")
    assert fused.scores(QUESTION).ranks().tolist() == bm25.scores(QUESTION).ranks().tolist()
