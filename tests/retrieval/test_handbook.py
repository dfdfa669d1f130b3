"""A short upload: a plain-text staff handbook that the structural chunker (1800/150) cuts
in two. Every word the two chunks share gets a negative IDF from rank-bm25's okapi, so
the chunk that says the question's words most often scores below zero and ranks last."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkers import chunk, indexed_text
from lab.measure.judges import side_by_side
from lab.measure.survival import holds
from lab.retrieval.retrievers import get_retriever

HANDBOOK = Path(__file__).resolve().parent.parent / "data" / "staff_handbook.txt"
QUESTION = "how many days of paid vacation do new employees get"
ANSWER = "New employees get 15 days of paid vacation in their first year"


@pytest.fixture(scope="module")
def chunks():
    text = HANDBOOK.read_text(encoding="utf-8")
    assert len(text) == 3166
    made = chunk(text, "structural", 1800, 150)
    assert len(made) == 2
    assert [holds(c, ANSWER) for c in made] == [False, True]
    return made


def texts(chunks):
    return [indexed_text(c) for c in chunks]


def test_okapi_scores_the_answer_below_zero_and_ranks_it_last(chunks):
    got = get_retriever("bm25", variant="okapi").score(texts(chunks), QUESTION)
    assert got.scores[1] < got.scores[0] < 0
    assert got.ranks == (1, 2)  # the answer's chunk, the second, last


def test_the_default_bm25_ranks_the_answer_first_with_no_score_below_zero(chunks):
    got = get_retriever("bm25").score(texts(chunks), QUESTION)
    assert got.retriever == "bm25 (lucene)"
    assert got.ranks == (2, 1)
    assert all(s >= 0 for s in got.scores)
    assert got.scores[1] > got.scores[0] > 0


def test_sqlite_fts5_ranks_the_answer_first_too(chunks):
    got = get_retriever("bm25", variant="fts5").score(texts(chunks), QUESTION)
    assert got.ranks == (2, 1)


def test_every_judge_by_default_puts_the_answer_first(chunks):
    rows = side_by_side(chunks, QUESTION, ANSWER)
    answer = [r for r in rows if r.holds_answer]
    assert [r.number for r in answer] == [2]
    assert (answer[0].bm25_rank, answer[0].dense_rank, answer[0].hybrid_rank) == (1, 1, 1)
