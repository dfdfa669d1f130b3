from __future__ import annotations

import numpy as np
import pytest

from lab.retrieval.theory import (
    ceiling,
    inflation_cap,
    normaliser,
    relative_score,
)

CHART = dict(avgdl=1200, k1=1.2, b=0.75)  # the length-normalisation chart's parameters


def test_published_table_relative_scores_by_length():
    got = relative_score(np.array([42, 400, 1200, 1780]), **CHART)
    assert isinstance(got, np.ndarray)
    assert np.round(got, 2).tolist() == [1.65, 1.38, 1.00, 0.83]
    # scalars in, plain floats out
    assert isinstance(relative_score(42, **CHART), float)
    assert round(relative_score(42, **CHART), 2) == 1.65


def test_saturation_at_1780_chars():
    got = relative_score(1780, tf=np.array([1, 2, 3, 5]), **CHART)
    assert np.round(got, 2).tolist() == [0.83, 1.21, 1.42, 1.66]
    orphan = relative_score(42, **CHART)
    # "needs five occurrences to edge past a single occurrence in the 42-char fragment"
    assert got[2] < orphan < got[3]


def test_ceiling_and_orphan_share_of_it():
    assert ceiling(1.2) == pytest.approx(2.2)
    assert relative_score(1200, tf=10**9, **CHART) == pytest.approx(2.2, abs=1e-6)
    assert round(relative_score(42, **CHART) / ceiling(1.2), 2) == 0.75


def test_runt_floor_caps_inflation():
    assert round(inflation_cap(450, avgdl=1200, k1=1.2, b=0.75), 2) == 1.34
    assert round(inflation_cap(None, avgdl=1200, k1=1.2, b=0.75), 2) == 1.69
    assert inflation_cap(0, avgdl=1200) == inflation_cap(None, avgdl=1200)


def test_denominator_swings_roughly_fivefold():
    # The ratio of the length normaliser (1 - b + b*dl/avgdl), 1.3625 / 0.27625;
    # multiplying by k1 leaves the ratio unchanged.
    swing = normaliser(1780, avgdl=1200, b=0.75) / normaliser(42, avgdl=1200, b=0.75)
    assert 4 < swing < 6
    assert swing == pytest.approx(4.93, abs=0.005)
    assert normaliser(1200, avgdl=1200) == pytest.approx(1.0)


def test_b_zero_removes_length_effect_and_bad_parameters_raise():
    assert relative_score(42, avgdl=1200, b=0) == pytest.approx(1.0)
    assert relative_score(5000, avgdl=1200, b=0) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        relative_score(42, avgdl=0)
    with pytest.raises(ValueError):
        relative_score(42, avgdl=1200, b=1.5)
