from __future__ import annotations

import pytest

from chunkers.model import Chunk
from chunkers.options import ChunkOptions
from lab.measure.stats import FlaggedChunk, length_stats

OPTS = ChunkOptions(size=1800, overlap=150, unit="chars")  # floor 450, effective max 2249


def chunks_of(lengths: list[int], excuses: dict[int, str] | None = None) -> list[Chunk]:
    excuses = excuses or {}
    out, pos = [], 0
    for i, n in enumerate(lengths):
        out.append(
            Chunk(
                index=i,
                body="x" * n,
                start=pos,
                end=pos + n,
                length=n,
                runt_excuse=excuses.get(i, ""),
            )
        )
        pos += n
    return out


def test_floor_and_effective_max_come_from_options():
    s = length_stats(chunks_of([1800]), OPTS)
    assert (s.floor, s.effective_max) == (450, 2249)


def test_zero_chunks():
    s = length_stats([], OPTS)
    assert s.count == 0 and s.min is None and s.median is None and s.mean is None
    assert s.below_floor == [] and s.over_effective_max == [] and s.invariant_holds is True


def test_percentiles_are_numpy_linear():
    s = length_stats(chunks_of(list(range(1, 101))), ChunkOptions(size=4, overlap=0))
    assert (s.count, s.min, s.max) == (100, 1, 100)
    assert s.p1 == pytest.approx(1.99) and s.p5 == pytest.approx(5.95)
    assert s.median == pytest.approx(50.5) and s.mean == pytest.approx(50.5)


def test_runts_hide_from_the_mean_but_not_from_p1():
    s = length_stats(chunks_of([1200] * 97 + [42] * 3), OPTS)
    assert s.mean == pytest.approx(1165.26)  # moves 3%
    assert s.p1 == 42 and s.p5 == 1200
    assert [f.index for f in s.below_floor] == [97, 98, 99]
    assert s.invariant_holds is False


def test_invariant_with_excuses_and_single_chunk():
    excused = length_stats(chunks_of([1800, 300], {1: "merge would exceed 2250"}), OPTS)
    assert excused.below_floor == [FlaggedChunk(1, 300, "merge would exceed 2250")]
    assert excused.invariant_holds is True
    unexcused = length_stats(chunks_of([1800, 300]), OPTS)
    assert (
        unexcused.below_floor == [FlaggedChunk(1, 300, "")] and unexcused.invariant_holds is False
    )
    single = length_stats(chunks_of([80]), OPTS)
    assert len(single.below_floor) == 1 and single.invariant_holds is True


def test_floor_boundary_and_over_effective_max():
    s = length_stats(chunks_of([449, 450, 2249, 2250, 3000], {0: "x"}), OPTS)
    assert [f.length for f in s.below_floor] == [449]
    assert s.over_effective_max == [FlaggedChunk(3, 2250), FlaggedChunk(4, 3000)]
