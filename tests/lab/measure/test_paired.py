"""The paired bootstrap over questions: how sure a difference between two chunkings is."""

from __future__ import annotations

import pytest

from lab.measure.paired import found_within, paired_difference, reciprocal_ranks


def test_a_clear_difference_has_an_interval_clear_of_zero():
    a = [0.0] * 30 + [1.0] * 10
    b = [1.0] * 40  # B finds 30 more questions of 40
    d = paired_difference(a, b)
    assert d.difference == pytest.approx(0.75)
    assert 0 < d.low <= 0.75 <= d.high <= 1 and not d.spans_zero
    assert d.more_questions == 0


def test_one_question_in_fifteen_cannot_tell_two_chunkings_apart():
    a, b = [1.0] * 15, [1.0] * 14 + [0.0]
    d = paired_difference(a, b)
    assert d.spans_zero and d.low < 0 and d.high == 0.0
    assert d.more_questions is not None and d.more_questions > 0


def test_the_same_scores_give_no_difference_and_no_number_that_would_tell():
    d = paired_difference([0.5, 1.0, 0.0], [0.5, 1.0, 0.0])
    assert (d.difference, d.low, d.high) == (0.0, 0.0, 0.0)
    assert d.spans_zero and d.more_questions is None


def test_seeded_so_the_same_questions_give_the_same_interval():
    a = [1 / r for r in (1, 2, 3, 1, 5, 1, 2, 8)]
    b = [1 / r for r in (2, 1, 1, 1, 1, 3, 1, 1)]
    assert paired_difference(a, b) == paired_difference(a, b)
    assert paired_difference(a, b, seed=1) != paired_difference(a, b)


def test_the_terms_of_mrr_and_recall():
    ranks = [1, 4, None, 2]
    assert reciprocal_ranks(ranks) == [1.0, 0.25, 0.0, 0.5]
    assert found_within(ranks, 2) == [1.0, 0.0, 0.0, 1.0]
    with pytest.raises(ValueError, match="the same questions"):
        paired_difference([1.0], [1.0, 0.0])
