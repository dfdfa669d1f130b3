"""A context budget, worked by hand on small cases: the ranked chunks sent in order, the
one that passes the budget cut there, overlap counted each time it is sent."""

from __future__ import annotations

import pytest

from chunkers import ChunkOptions
from lab.inputs.gold import GoldQuestion, Passage
from lab.measure.budget import BudgetTooSmall, fill, first_units
from lab.measure.efficiency import token_efficiency, unit_counts
from lab.measure.integrity import check_judged
from lab.retrieval.bm25_variants import Bm25Retriever

TEXT = "alpha beta gamma delta epsilon zeta eta theta"  # eight words
WORDS = ChunkOptions(size=4, overlap=2, unit="words")
COUNTS = unit_counts(TEXT, "words")


def _at(word: str) -> int:
    return f" {TEXT} ".index(f" {word} ")  # the word itself ("eta", not beta's)


def _span(first: str, last: str) -> tuple[int, int]:
    return _at(first), _at(last) + len(last)


def _check(question: GoldQuestion, budget: int | None):
    # fixed 4 words, overlap 2: [alpha..delta] [(gamma delta) epsilon zeta]
    # [(epsilon zeta) eta theta]
    return check_judged(
        {"": TEXT}, [question], "fixed", WORDS, retrievers=[Bm25Retriever()], k=1, budget=budget
    )[0]


PASSAGE = GoldQuestion(
    "theta zeta",
    passages=(Passage(start=_span("delta", "epsilon")[0], end=_span("delta", "epsilon")[1]),),
)


def test_fill_cuts_the_chunk_that_passes_the_budget():
    sent = fill([2, 0, 1], {0: 4, 1: 4, 2: 4}.__getitem__, 7)
    assert [(s.position, s.units, s.cut) for s in sent] == [(2, 4, False), (0, 3, True)]


def test_first_units_keep_a_chunk_in_reading_order():
    # the second chunk: its prefix gamma delta, then its body epsilon zeta
    spans = [_span("epsilon", "zeta"), _span("gamma", "delta")]
    got = first_units(COUNTS, spans, 3)
    assert [w for s, e in got for w in TEXT[s:e].split()] == ["gamma", "delta", "epsilon"]


def test_budget_coverage_by_hand_with_a_cut_chunk_and_overlap_sent_twice():
    # "theta zeta" ranks the third chunk first (both words), the second next (zeta).
    # At 7 words: the third whole (epsilon zeta eta theta, 4), then 3 words of the
    # second (gamma delta epsilon): epsilon is sent twice, and paid for twice.
    at = _check(PASSAGE, 7).results[0].budget
    assert at is not None
    assert at.chunks == pytest.approx(1 + 3 / 4)
    assert at.found  # the passage's chunks are in the context
    # "delta epsilon": every character sent but the space between prefix and body,
    # which no chunk's source text holds (as at k)
    assert at.coverage == pytest.approx(12 / 13)
    eff = at.efficiency
    assert (eff.passage, eff.found, eff.cost) == (2, 2, 7)
    # the same Efficiency as at k, over the spans sent
    cut = [_span("gamma", "delta"), (_at("epsilon"), _at("zeta"))]
    sent = [[_span("epsilon", "zeta"), _span("eta", "theta")], cut]
    every = [_span("alpha", "theta")]  # every chunk meets the passage
    assert eff == token_efficiency(COUNTS, [_span("delta", "epsilon")], sent, every)


def test_a_budget_that_stops_before_the_answer_does_not_find_it():
    # the answer "gamma delta" is whole only in the first chunk (the second holds it
    # as its prefix, which is not what is displayed but is sent): at 5 words the third
    # chunk and the first word of the second (gamma) are sent, not delta
    answer = GoldQuestion("theta zeta", "gamma delta")
    report = _check(answer, 5)
    at = report.results[0].budget
    assert at is not None and not at.found
    # a unit is sent up to the next one's first character: "gamma " of "gamma delta"
    assert at.coverage == pytest.approx(len("gamma ") / len("gamma delta"))
    figures = report.at_budget
    assert figures is not None
    assert (figures.units, figures.chunks, figures.recall) == (5, pytest.approx(1.25), 0.0)


def test_no_budget_leaves_the_check_as_it_was():
    report = _check(PASSAGE, None)
    assert report.results[0].budget is None and report.at_budget is None


def test_a_budget_below_one_chunk_says_what_the_first_chunk_needs():
    with pytest.raises(BudgetTooSmall) as caught:
        _check(PASSAGE, 3)
    message = str(caught.value)
    assert "\n" not in message
    assert "needs 4 words" in message and "a budget of 4 or more" in message
