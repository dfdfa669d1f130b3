"""BM25 reads Chinese, Japanese and Korean: runs of those scripts become overlapping
character bigrams, and the three BM25 variants index the same tokens."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lab.retrieval.bm25 import ChunkIndex
from lab.retrieval.bm25_sparse import chunk_index
from lab.retrieval.bm25_variants import BM25_VARIANTS, Bm25Params, chunk_scores
from lab.retrieval.fts5 import fts5_scores
from lab.retrieval.tokenize import has_cjk, tokenize, words_unicode61
from tests.support import make_chunk as make
from tests.support import rank_of


def test_a_mixed_chinese_english_sentence_is_bigrams_and_words():
    assert tokenize("Rust的所有权系统让内存安全 without a GC。") == [
        "rust",
        "的所",
        "所有",
        "有权",
        "权系",
        "系统",
        "统让",
        "让内",
        "内存",
        "存安",
        "安全",
        "without",
        "a",
        "gc",
    ]


def test_a_lone_character_is_itself_and_punctuation_breaks_a_run():
    assert tokenize("值，即 3个") == ["值", "即", "3", "个"]


def test_japanese_kana_and_kanji_and_korean_hangul_are_bigrams():
    assert tokenize("所有権とは") == ["所有", "有権", "権と", "とは"]
    assert tokenize("「ムーブ」") == ["ムー", "ーブ"]
    assert tokenize("한국어 텍스트") == ["한국", "국어", "텍스", "스트"]


@pytest.mark.parametrize(
    "text",
    [
        "What was Mumbai's FY24 revenue? | Mumbai | FY24 | 18,412 | 4.2% |",
        "Déjà vu: RÉSUMÉ naïve café, Straße and İstanbul; ÆØÅ",
        "Москва ПРИВЕТ, Ελλάδα, x² Ⅲ ﬁne",
    ],
)
def test_text_without_cjk_splits_as_unicode61_does(text):
    assert not has_cjk(text)
    assert tokenize(text) == words_unicode61(text)


def test_fts5_indexes_exactly_the_labs_tokens():
    text = "Rust的所有权 Déjà vu，東京タワー 한국어"
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='ascii')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    conn.execute("INSERT INTO t VALUES (?)", (" ".join(tokenize(text)),))
    got = [row[0] for row in conn.execute("SELECT term FROM v ORDER BY offset")]
    conn.close()
    assert got == tokenize(text)


# -- four chunks of a Chinese guide; the question shares no space-separated word with
# -- any of them, only two-character words
CHINESE = [
    make(0, "Rust 的变量默认是不可变的。使用 mut 关键字可以让变量可变。", ("变量与可变性",)),
    make(1, "所有权是 Rust 最独特的功能，它让 Rust 无需垃圾回收即可保障内存安全。", ("所有权",)),
    make(2, "切片允许你引用集合中一段连续的元素序列，而不用引用整个集合。", ("切片",)),
    make(3, "结构体是一个自定义数据类型，允许你包装和命名多个相关的值。", ("结构体",)),
    make(4, "枚举允许你通过列举可能的成员来定义一个类型。", ("枚举",)),
]
QUESTION = "Rust 如何不用垃圾回收也能保障内存安全？"


@pytest.mark.parametrize("variant", BM25_VARIANTS)
def test_every_variant_ranks_the_chinese_answer_first(variant):
    scores = chunk_scores(CHINESE, QUESTION, Bm25Params(variant=variant))
    assert rank_of(scores, 1) == 1


def test_the_three_variants_agree_on_a_chinese_question():
    ranks = {
        v: [s.rank for s in chunk_scores(CHINESE, QUESTION, Bm25Params(variant=v))]
        for v in BM25_VARIANTS
    }
    assert ranks["lucene"] == ranks["okapi"] == ranks["fts5"]
    # -- FTS5 on its own columns too, and the sparse index, each put the answer first
    assert rank_of(fts5_scores(CHINESE, QUESTION), 1) == 1
    sparse = chunk_index(CHINESE).scores(QUESTION)
    assert sparse.top(1) == [1]


def test_length_normalisation_counts_bigrams():
    # -- the runt lesson's |D|: a Chinese chunk's length is its bigrams, not one token
    index = ChunkIndex([make(0, "内存安全"), make(1, "垃圾回收器")])
    got = index.score("内存")
    assert [s.indexed_tokens for s in got] == [3, 4]


def test_every_cjk_block_is_seen_and_emoji_are_not():
    assert has_cjk("𠀀") and has_cjk("𛀁") and has_cjk("한") and has_cjk("ｶ")
    assert not has_cjk("🌐 emoji, “quotes” — and dashes")
    assert tokenize("𠀀𠀁 🌐") == ["𠀀𠀁"]


def _by_regex(text: str) -> list[str]:
    """The rule read plainly: unicode61's words, each CJK run in them as bigrams."""
    import re

    from lab.retrieval.tokenize import CJK_RUN, bigrams

    out: list[str] = []
    for word in words_unicode61(text):
        at = 0
        for m in CJK_RUN.finditer(word):
            if m.start() > at:
                out.append(word[at : m.start()])
            out.extend(bigrams(m.group()))
            at = m.end()
        if at < len(word):
            out.append(word[at:])
    return [t for t in out if not re.fullmatch(r"\s*", t)]


_MIXED = st.text(
    alphabet=st.sampled_from(list("ab3 ,。、「」・゛ー的所有权カタかな한국𠀀É\u0301\x01")),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(_MIXED)
def test_tokenize_is_the_rule_read_plainly(text):
    assert tokenize(text) == _by_regex(text)
