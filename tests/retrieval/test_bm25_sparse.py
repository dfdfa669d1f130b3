"""The gate's sparse BM25 ranks exactly as rank-bm25 does (same tokenizer, k1, b, ties)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from chunkers import Chunk, ChunkOptions, chunk_with
from lab.retrieval.bm25 import DEFAULT_EPSILON, DEFAULT_PARAMS, Bm25Params, ChunkIndex, idf_table
from lab.retrieval.bm25_sparse import SparseIndex, chunk_index
from tests.support import SAMPLES, corpus_files

EXTRA_QUESTIONS = (
    "the the the",  # a term repeated: rank-bm25 adds it once per occurrence
    "zzzz-not-a-word at all",  # unknown terms
    "what is it?",
    "revenue FY24 Mumbai",
    "how do I configure a timeout for the client",
)


def _sample_chunks() -> tuple[list[Chunk], list[str]]:
    chunks: list[Chunk] = []
    questions = list(EXTRA_QUESTIONS)
    for doc in sorted(SAMPLES.glob("*.md")):
        chunks += chunk_with(doc.read_text(encoding="utf-8"), "structural", ChunkOptions())
        gold = doc.with_name(doc.stem + ".gold.jsonl")
        if gold.is_file():
            lines = gold.read_text(encoding="utf-8").splitlines()
            questions += [json.loads(x)["question"] for x in lines if x.strip()]
    return chunks, questions


def _assert_same_ranks(
    chunks: list[Chunk], questions: list[str], params: Bm25Params = DEFAULT_PARAMS
) -> None:
    teaching, sparse = ChunkIndex(chunks, params), chunk_index(chunks, params)
    for q in questions:
        want = teaching.score(q)
        got = sparse.scores(q)
        assert np.array_equal(got.scores, [s.score for s in want]), q  # bit for bit
        assert got.ranks().tolist() == [s.rank for s in want], q
        order = sorted(range(len(want)), key=lambda i: want[i].rank)
        assert got.top(10) == order[:10], q
        for i in (0, len(want) // 2, len(want) - 1):
            assert got.rank(i) == want[i].rank


@pytest.mark.parametrize("variant", ["lucene", "okapi"])
def test_ranks_equal_rank_bm25_on_every_sample_document_together(variant: str) -> None:
    chunks, questions = _sample_chunks()
    _assert_same_ranks(chunks, questions, Bm25Params(variant))


@pytest.mark.parametrize("variant", ["lucene", "okapi"])
def test_the_idf_table_is_the_one_rank_bm25_scores_with(variant: str) -> None:
    chunks, _ = _sample_chunks()
    index = ChunkIndex(chunks, Bm25Params(variant))
    holding: dict[str, int] = {}  # first-seen order, as rank-bm25 builds its table
    for doc in index.docs:
        for token in dict.fromkeys(doc):
            holding[token] = holding.get(token, 0) + 1
    table = idf_table(len(chunks), holding.values(), variant, DEFAULT_EPSILON)
    assert table == [index.idf(t) for t in holding]  # bit for bit


def test_the_default_is_lucene_and_okapi_differs_from_it() -> None:
    chunks, _ = _sample_chunks()
    assert chunk_index(chunks).variant == "lucene" == ChunkIndex(chunks).variant
    lucene = chunk_index(chunks).scores("revenue FY24 Mumbai").scores
    okapi = chunk_index(chunks, Bm25Params("okapi")).scores("revenue FY24 Mumbai").scores
    assert not np.array_equal(lucene, okapi)
    assert (lucene >= 0).all()


def test_a_short_document_scores_nothing_below_zero_by_default() -> None:
    # two chunks sharing every word: okapi's IDF is negative for all of them
    docs = [["paid", "vacation", "days"], ["paid", "vacation", "days", "vacation"]]
    assert (SparseIndex(docs, [0, 1]).scores("paid vacation").scores > 0).all()
    assert (SparseIndex(docs, [0, 1], Bm25Params("okapi")).scores("paid vacation").scores < 0).all()


def test_fts5_is_not_a_sparse_variant() -> None:
    with pytest.raises(ValueError, match="BM25 variant must be one of lucene, okapi, got 'fts5'"):
        SparseIndex([["a"]], [0], Bm25Params("fts5"))


@pytest.mark.parametrize("doc", sorted(p.name for p in SAMPLES.glob("*.md")))
def test_ranks_equal_rank_bm25_on_each_sample_document(doc: str) -> None:
    chunks = chunk_with(
        (SAMPLES / doc).read_text(encoding="utf-8"),
        "fixed",
        ChunkOptions(size=40, overlap=5, unit="words"),
    )
    _assert_same_ranks(chunks, list(EXTRA_QUESTIONS))


@pytest.mark.parametrize("k1,b", [(0.0, 0.75), (1.2, 1.0), (2.0, 0.0)])
def test_ranks_equal_rank_bm25_at_the_edges_of_k1_and_b(k1: float, b: float) -> None:
    # k1 = 0 makes rank-bm25 divide 0 by 0 for every chunk lacking a term
    chunks, questions = _sample_chunks()
    _assert_same_ranks(chunks[:25], questions[:6], Bm25Params(k1=k1, b=b))
    _assert_same_ranks(chunks[:25], questions[:6], Bm25Params("okapi", k1, b))


@pytest.mark.corpus
def test_ranks_equal_rank_bm25_on_the_corpus() -> None:
    files = corpus_files()[::4]
    chunks: list[Chunk] = []
    questions = list(EXTRA_QUESTIONS)
    for f in files:
        text = f.read_text(encoding="utf-8", errors="replace")
        chunks += chunk_with(text, "structural", ChunkOptions())
        heading = next((line for line in text.splitlines() if line.startswith("# ")), "")
        if heading.strip("# "):
            questions.append(heading.strip("# "))
    _assert_same_ranks(chunks, questions[:60])


def test_ties_go_to_the_lower_chunk_index_then_the_earlier_position() -> None:
    # the same words everywhere: every chunk scores the same
    docs = [["alpha", "beta"]] * 4
    index = SparseIndex(docs, [1, 0, 1, 0])  # two documents of two chunks each
    scores = index.scores("alpha")
    assert len(set(scores.scores.tolist())) == 1
    # chunk 0 of each document first (positions 1, 3), then chunk 1 (positions 0, 2)
    assert scores.ranks().tolist() == [3, 1, 4, 2]
    assert scores.top(4) == [1, 3, 0, 2]
    assert scores.best([0, 2]) == (0, 3)


def test_a_higher_score_beats_the_tie_order() -> None:
    index = SparseIndex([["alpha"], ["beta"], ["beta", "gamma"]], [0, 1, 2])
    assert index.scores("gamma").top(1) == [2]


def test_a_wordless_question_is_refused() -> None:
    with pytest.raises(ValueError, match="no searchable words"):
        SparseIndex([["a"]], [0]).scores("?!")


def test_an_index_of_empty_chunks_scores_zero() -> None:
    scores = SparseIndex([[], []], [0, 1]).scores("anything")
    assert scores.scores.tolist() == [0.0, 0.0] and scores.ranks().tolist() == [1, 2]
