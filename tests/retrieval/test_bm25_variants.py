from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkers import chunk, indexed_text
from lab.retrieval.bm25 import score_chunks
from lab.retrieval.bm25_variants import (
    BM25_VARIANTS,
    DEFAULT_VARIANT,
    Bm25Retriever,
    chunk_scores,
    lucene_idf,
)
from lab.retrieval.interface import Retrieval
from tests.support import SAMPLES

# -- three texts, hand-countable: avgdl = (3 + 2 + 4) / 3 = 3
TEXTS = ["apple banana apple", "banana cherry", "cherry date elder fig"]
QUESTION = "apple banana"
K1, B = 1.2, 0.75  # the usual BM25 settings, which every variant must default to


def tf_part(tf: int, length: int, avgdl: float = 3.0) -> float:
    return tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / avgdl))


def test_lucene_matches_the_formula_by_hand():
    idf_apple = math.log(1 + (3 - 1 + 0.5) / (1 + 0.5))  # in 1 of 3 texts
    idf_banana = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))  # in 2 of 3
    expected = [
        idf_apple * tf_part(2, 3) + idf_banana * tf_part(1, 3),
        idf_banana * tf_part(1, 2),
        0.0,
    ]
    got = Bm25Retriever("lucene").score(TEXTS, QUESTION)
    assert got.scores == pytest.approx(expected, rel=1e-12)
    assert got.ranks == (1, 2, 3)
    assert got.retriever == "bm25 (lucene)"


def test_okapi_matches_rank_bm25s_formula_by_hand_negative_idf_floored():
    # idf = log((N - n + 0.5) / (n + 0.5)); apple, date, elder, fig in 1 text: +log(2.5/1.5);
    # banana, cherry in 2: log(1.5/2.5) < 0, replaced by 0.25 * the mean idf of all 6 terms
    pos = math.log(2.5 / 1.5)
    floor = 0.25 * (4 * pos - 2 * pos) / 6
    expected = [
        pos * tf_part(2, 3) + floor * tf_part(1, 3),
        floor * tf_part(1, 2),
        0.0,
    ]
    got = Bm25Retriever("okapi").score(TEXTS, QUESTION)
    assert got.scores == pytest.approx(expected, rel=1e-12)


def test_fts5_matches_sqlites_formula_by_hand_turned_positive():
    # SQLite: okapi's idf, a non-positive one clamped to 1e-6; k1 = 1.2, b = 0.75 built in
    pos = math.log(2.5 / 1.5)
    expected = [pos * tf_part(2, 3) + 1e-6 * tf_part(1, 3), 1e-6 * tf_part(1, 2), 0.0]
    got = Bm25Retriever("fts5").score(TEXTS, QUESTION)
    assert got.scores == pytest.approx(expected, rel=1e-9)
    assert got.ranks == (1, 2, 3)


def test_lucene_idf_is_above_zero_even_for_a_word_in_every_chunk():
    assert lucene_idf(2, 2) == pytest.approx(math.log(1.2))
    assert lucene_idf(2, 1) == pytest.approx(math.log(2))
    assert all(lucene_idf(n, n) > 0 for n in range(1, 50))


WORDS = ["leave", "days", "paid", "new", "staff", "pay"]  # few words: most are shared


@settings(max_examples=200, deadline=None)
@given(
    texts=st.lists(st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join), max_size=8),
    question=st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join),
    k1=st.floats(0.0, 3.0),
    b=st.floats(0.0, 1.0),
)
def test_lucene_never_scores_below_zero_and_every_match_scores_above(texts, question, k1, b):
    got = Bm25Retriever("lucene", k1, b).score(texts, question)
    assert all(s >= 0 for s in got.scores)
    asked = set(question.split())
    for text, score in zip(texts, got.scores, strict=True):
        if asked & set(text.split()) and k1 > 0:
            assert score > 0
    assert sorted(got.ranks) == list(range(1, len(texts) + 1))


@pytest.mark.parametrize("variant", ["okapi", "lucene"])
def test_scores_and_ranks_are_the_labs_own_on_a_sample(variant):
    text = (SAMPLES / "support_kb.md").read_text(encoding="utf-8")
    chunks = chunk(text, "structural", 600, 50)
    question = "what is the refund window for annual plans?"
    lab = score_chunks(chunks, question, variant=variant)
    got = Bm25Retriever(variant).score([indexed_text(c) for c in chunks], question)
    assert got.scores == tuple(s.score for s in lab)
    assert got.ranks == tuple(s.rank for s in lab)


@pytest.mark.parametrize("variant", BM25_VARIANTS)
def test_chunk_scores_gives_every_variant_as_the_labs_chunk_scores(variant):
    text = (SAMPLES / "support_kb.md").read_text(encoding="utf-8")
    chunks = chunk(text, "structural", 600, 50)
    question = "what is the refund window for annual plans?"
    got = chunk_scores(chunks, question, variant=variant)
    want = Bm25Retriever(variant).score([indexed_text(c) for c in chunks], question)
    assert tuple(s.score for s in got) == want.scores
    assert tuple(s.rank for s in got) == want.ranks
    assert [s.index for s in got] == [c.index for c in chunks]
    assert [s.length for s in got] == [c.length for c in chunks]


def test_the_default_variant_is_lucene():
    assert DEFAULT_VARIANT == "lucene"
    assert Bm25Retriever().label == "bm25 (lucene)"
    assert set(BM25_VARIANTS) == {"okapi", "lucene", "fts5"}


@pytest.mark.parametrize("variant", BM25_VARIANTS)
def test_equal_scores_rank_in_chunk_order(variant):
    texts = ["unrelated one", "same words", "another", "same words", "last one"]
    got = Bm25Retriever(variant).score(texts, "same words")
    assert got.scores[1] == got.scores[3] > 0
    assert got.ranks == (3, 1, 4, 2, 5)


@pytest.mark.parametrize("variant", BM25_VARIANTS)
def test_no_texts_or_no_words_in_them(variant):
    assert Bm25Retriever(variant).score([], "refund") == Retrieval(f"bm25 ({variant})", (), ())
    got = Bm25Retriever(variant).score(["", "-- !"], "refund")
    assert got.scores == (0.0, 0.0) and got.ranks == (1, 2)


@pytest.mark.parametrize("variant", BM25_VARIANTS)
def test_a_question_with_no_words_is_refused_in_one_line(variant):
    with pytest.raises(ValueError, match="no searchable words"):
        Bm25Retriever(variant).score(["some text"], " ?! ")


def test_bad_settings_are_refused_in_one_line():
    with pytest.raises(ValueError, match="must be one of lucene, okapi, fts5, got 'bm42'"):
        Bm25Retriever("bm42")
    with pytest.raises(ValueError, match="k1 >= 0"):
        Bm25Retriever("lucene", k1=-1)
    with pytest.raises(ValueError, match="SQLite's own k1=1.2 and b=0.75"):
        Bm25Retriever("fts5", k1=1.5)


def test_an_index_answers_many_questions_as_one_at_a_time():
    index = Bm25Retriever().index(TEXTS)
    questions = ["apple", "cherry fig", "banana"]
    assert index.score_all(questions) == [Bm25Retriever().score(TEXTS, q) for q in questions]
