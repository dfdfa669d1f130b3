"""Fuzzing the measurements, not only the chunkers: the survival check, the
survival curve and lottery map, BM25 (rank-bm25 and SQLite FTS5) and the length
statistics, over arbitrary Unicode (lone surrogates, NUL and other controls,
right-to-left text, ZWJ sequences, combining marks), CRLF and CR line endings,
tabs and markdown-looking pieces.

The only exceptions allowed are the documented ones: ``ValueError`` for a
question with no searchable words, ``AnswerNotFound`` for an answer that is not
in the document. Every call runs under the hang guard (``bounded``).
"""

from __future__ import annotations

import math
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from chunkers import STRATEGIES, ChunkOptions, chunk_with, indexed_text
from lab.measure.stats import length_stats
from lab.measure.survival import (
    AnswerNotFound,
    check_survival,
    collapse_whitespace,
    find_answer,
    lottery_map,
    survival_curve,
)
from lab.retrieval.bm25_variants import chunk_scores
from lab.retrieval.fts5 import fts5_scores
from lab.retrieval.tokenize import tokenize
from tests.support import bounded

PIECES = [
    "audit",
    "logs",
    "kept",
    "Refund",
    "30",
    "days.",
    " ",
    "  ",
    "\n",
    "\n\n",
    "\r\n",
    "\r",
    "\t",
    "\x00",
    "\x01",
    "\x0b",
    "\x1c",
    "\x7f",
    "\x85",
    "\u00a0",
    "\u200b",
    "\u200d",
    "\u200f",
    "\u202e",
    "\u2028",
    "\ufeff",
    "\ufffd",
    "\u05e9\u05dc\u05d5\u05dd",
    "\u0627\u0644\u0633\u0644\u0627\u0645",
    "\U0001f469\u200d\U0001f4bb",
    "\U0001f1fa\U0001f1f8",
    "e\u0301",
    "\u0301",
    "\ud800",
    "\udfff",
    "Stra\u00dfe",
    "\u0130",
    "# ",
    "## h\n",
    "| a | b |\n|---|---|\n",
    "| 1 | 2 | 3 |\n",
    "```\n",
    "- ",
    "> ",
    "<script>alert(1)</script>",
    ":red[x]",
    "**b**",
    "$x$",
    ".",
    "?",
    "!",
]
_ANY_CHAR = st.characters(codec=None, blacklist_categories=())  # surrogates and controls included
TEXTS = st.one_of(
    st.text(_ANY_CHAR, max_size=300),
    st.lists(st.sampled_from(PIECES), max_size=90).map("".join),
)
# a question: any characters at all, or words from the pieces
QUERIES = st.one_of(
    st.text(_ANY_CHAR, max_size=40), st.lists(st.sampled_from(PIECES), max_size=6).map("".join)
)
SETTINGS = [("chars", 40, 5), ("words", 6, 1)]
SIZES = {"chars": [5, 17, 40], "words": [2, 3, 8]}
fuzz = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def _answer_in(data: st.DataObject, text: str) -> str:
    """A piece of the text, cut anywhere (mid-word, mid-CRLF, mid-ZWJ sequence)."""
    i = data.draw(st.integers(0, len(text)), label="answer start")
    j = data.draw(st.integers(i, min(len(text), i + 60)), label="answer end")
    return text[i:j]


@fuzz
@given(TEXTS, st.sampled_from(list(STRATEGIES)), st.sampled_from(SETTINGS), st.data())
def test_check_survival_finds_any_piece_of_the_text(text, strategy, setting, data) -> None:
    unit, size, overlap = setting
    answer = _answer_in(data, text)
    with bounded():
        chunks = chunk_with(text, strategy, ChunkOptions(size=size, overlap=overlap, unit=unit))
        if not collapse_whitespace(answer):
            with pytest.raises(AnswerNotFound):
                check_survival(chunks, text, answer)
            return
        got = check_survival(chunks, text, answer)
    s, e = got.span
    assert 0 <= s < e <= len(text) and collapse_whitespace(text[s:e]) == collapse_whitespace(answer)
    holders = [
        c for c in chunks if collapse_whitespace(answer) in collapse_whitespace(c.retrievable_text)
    ]
    if got.intact:
        assert got.chunk_index == holders[0].index
        assert got.verdict == f"answer intact in chunk {got.chunk_index + 1}"
    else:
        assert not holders and got.chunk_index is None
        assert got.verdict.endswith("unretrievable at any k")


@fuzz
@given(TEXTS, st.text(_ANY_CHAR, max_size=30), st.sampled_from(list(STRATEGIES)))
def test_any_answer_gets_a_verdict_or_answer_not_found(text, answer, strategy) -> None:
    with bounded():
        chunks = chunk_with(text, strategy, ChunkOptions(size=40, overlap=5, unit="chars"))
        needle = collapse_whitespace(answer)
        if not needle or needle not in collapse_whitespace(text):
            with pytest.raises(AnswerNotFound):
                check_survival(chunks, text, answer)
            with pytest.raises(AnswerNotFound):
                survival_curve(text, answer, strategy, [40], unit="chars", overlap=5)
        else:
            got = check_survival(chunks, text, answer)
            curve = survival_curve(text, answer, strategy, [40], unit="chars", overlap=5)
            assert got.verdict and curve.intact == [got.intact]


@fuzz
@given(
    TEXTS,
    st.sampled_from(list(STRATEGIES)),
    st.sampled_from(["words", "chars"]),
    st.integers(0, 1),
    st.data(),
)
def test_survival_curve_agrees_with_chunking_at_every_size(
    text, strategy, unit, overlap, data
) -> None:
    answer = _answer_in(data, text)
    assume(collapse_whitespace(answer))
    sizes = SIZES[unit]
    with bounded():
        curve = survival_curve(text, answer, strategy, sizes, unit=unit, overlap=overlap)
        by_chunking = [
            check_survival(
                chunk_with(text, strategy, ChunkOptions(size=s, overlap=overlap, unit=unit)),
                text,
                answer,
            ).intact
            for s in sizes
        ]
    assert curve.sizes == sizes and curve.overlaps == [overlap] * len(sizes)
    assert curve.intact == by_chunking


@fuzz
@given(TEXTS, st.sampled_from(["words", "chars"]), st.data())
def test_lottery_map_column_at_no_overlap_is_the_fixed_curve(text, unit, data) -> None:
    answer = _answer_in(data, text)
    sizes, fractions = SIZES[unit], [0.0, 0.25, 0.5]
    with bounded():
        if not collapse_whitespace(answer):
            with pytest.raises(AnswerNotFound):
                lottery_map(text, answer, sizes, fractions, unit=unit)
            return
        m = lottery_map(text, answer, sizes, fractions, unit=unit)
        curve = survival_curve(text, answer, "fixed", sizes, unit=unit)
    assert m.intact.shape == (3, 3) and m.intact.dtype == bool
    assert (m.overlaps < m.sizes[None, :]).all()
    assert [bool(x) for x in m.intact[0]] == curve.intact


def _chunks(text: str, strategy: str, setting: tuple[str, int, int]):
    unit, size, overlap = setting
    return chunk_with(text, strategy, ChunkOptions(size=size, overlap=overlap, unit=unit))


def _scores_or_refusal(score, chunks, query: str, **kwargs):
    """``score(chunks, query)``; for a question without searchable words, check
    that it is refused with that reason and return None."""
    if not tokenize(query):
        with pytest.raises(ValueError, match="no searchable words"):
            score(chunks, query)
        return None
    return score(chunks, query, **kwargs)


@fuzz
@given(TEXTS, QUERIES, st.sampled_from(list(STRATEGIES)), st.sampled_from(SETTINGS), st.booleans())
def test_bm25_scores_every_chunk_or_refuses_a_question_without_words(
    text, query, strategy, setting, heading_path
) -> None:
    with bounded():
        chunks = _chunks(text, strategy, setting)
        scores = _scores_or_refusal(chunk_scores, chunks, query, heading_path=heading_path)
    if scores is None:
        return
    assert [s.index for s in scores] == [c.index for c in chunks]
    assert sorted(s.rank for s in scores) == list(range(1, len(chunks) + 1))
    assert all(math.isfinite(s.score) for s in scores)
    assert [s.indexed_tokens for s in scores] == [
        len(tokenize(indexed_text(c, heading_path=heading_path))) for c in chunks
    ]
    by_rank = sorted(scores, key=lambda s: s.rank)
    assert all(a.score >= b.score for a, b in pairwise(by_rank))


@fuzz
@given(TEXTS, QUERIES, st.sampled_from(list(STRATEGIES)), st.sampled_from(SETTINGS))
def test_fts5_ranks_the_matches_or_refuses_a_question_without_words(
    text, query, strategy, setting
) -> None:
    with bounded():
        chunks = _chunks(text, strategy, setting)
        scores = _scores_or_refusal(fts5_scores, chunks, query)
    if scores is None:
        return
    assert [s.index for s in scores] == [c.index for c in chunks]
    matched = [s for s in scores if s.rank is not None]
    assert sorted(s.rank for s in matched) == list(range(1, len(matched) + 1))
    assert all((s.score is None) == (s.rank is None) for s in scores)
    assert all(math.isfinite(s.score) and s.score <= 0 for s in matched)  # FTS5: lower is better


@fuzz
@given(TEXTS, st.sampled_from(list(STRATEGIES)), st.sampled_from(SETTINGS))
def test_length_stats_describe_the_chunks(text, strategy, setting) -> None:
    unit, size, overlap = setting
    opts = ChunkOptions(size=size, overlap=overlap, unit=unit)
    with bounded():
        chunks = _chunks(text, strategy, setting)
        stats = length_stats(chunks, opts)
    assert stats.count == len(chunks)
    assert [f.index for f in stats.below_floor] == [
        c.index for c in chunks if c.length < opts.floor
    ]
    assert [f.index for f in stats.over_effective_max] == [
        c.index for c in chunks if c.length > opts.effective_max
    ]
    if not chunks:
        assert stats.min is None and stats.median is None and stats.invariant_holds
        return
    assert stats.min <= stats.p1 <= stats.p5 <= stats.median <= stats.max
    assert stats.min <= stats.mean <= stats.max
    assert stats.max == max(c.length for c in chunks)


def test_the_documented_refusals_say_what_is_wrong() -> None:
    text = "lone \ud800 surrogate\r\nand a NUL\x00 here"
    chunks = _chunks(text, "fixed", ("words", 3, 0))
    with pytest.raises(ValueError, match="no searchable words"):
        chunk_scores(chunks, "?! \u200d \U0001f469")
    with pytest.raises(ValueError, match="no searchable words"):
        fts5_scores(chunks, "\ud800 \x00")
    with pytest.raises(AnswerNotFound, match="answer not found in the document"):
        check_survival(chunks, text, "absent")
    with pytest.raises(AnswerNotFound):
        survival_curve(text, "absent", "fixed", [3], unit="words")
    # a lone surrogate is text like any other: found, scored, swept
    assert find_answer(text, "\ud800 surrogate") == (5, 16)
    assert survival_curve(text, "\ud800 surrogate", "fixed", [1, 2, 3], unit="words").intact == [
        False,
        False,
        True,
    ]
    assert [s.rank for s in fts5_scores(chunks, "surrogate")] == [1, None, None]
