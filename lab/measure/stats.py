"""Chunk-length statistics and the runt-floor invariant.

The mean barely moves when 3% of chunks are runts, so p1/p5 and the
count below the floor are what to watch; that count should be zero except for
single-chunk documents (or runts the chunker explicitly excused).
Lengths are each chunk's ``length`` field, in ``opts.unit``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from chunkers.model import Chunk
from chunkers.options import ChunkOptions


@dataclass(frozen=True, slots=True)
class FlaggedChunk:
    index: int
    length: int
    excuse: str = ""  # the chunker's runt_excuse ("" = none given)


@dataclass(frozen=True, slots=True)
class LengthStats:
    count: int
    floor: int  # opts.floor: shortest length that is not a runt
    effective_max: int  # opts.effective_max: size + floor - 1
    # None when there are no chunks (no distribution to describe)
    min: int | None = None
    p1: float | None = None
    p5: float | None = None
    median: float | None = None
    mean: float | None = None
    max: int | None = None
    below_floor: list[FlaggedChunk] = field(default_factory=list)
    over_effective_max: list[FlaggedChunk] = field(default_factory=list)
    invariant_holds: bool = True


def length_stats(chunks: Sequence[Chunk], opts: ChunkOptions) -> LengthStats:
    """The chunks' lengths against the floor and effective maximum of ``opts``.

    Returns:
        Count, extremes, p1, p5, median and mean (None for no chunks), the runts
        and the chunks past the effective maximum, and whether the runt invariant
        holds (every runt excused, or a lone chunk).
    """
    below = [
        FlaggedChunk(c.index, c.length, c.runt_excuse or "")
        for c in chunks
        if c.length < opts.floor
    ]
    over = [FlaggedChunk(c.index, c.length) for c in chunks if c.length > opts.effective_max]
    # A lone chunk has nowhere to merge to, so it is always allowed.
    holds = len(chunks) == 1 or all(f.excuse for f in below)
    base = LengthStats(
        count=len(chunks),
        floor=opts.floor,
        effective_max=opts.effective_max,
        below_floor=below,
        over_effective_max=over,
        invariant_holds=holds,
    )
    if not chunks:
        return base
    lengths = np.array([c.length for c in chunks], dtype=float)
    p1, p5, median = np.percentile(lengths, [1, 5, 50], method="linear")
    return replace(
        base,
        min=int(lengths.min()),
        p1=float(p1),
        p5=float(p5),
        median=float(median),
        mean=float(lengths.mean()),
        max=int(lengths.max()),
    )


PERCENTILES = (1, 5, 25, 50, 75, 95, 99)


@dataclass(frozen=True, slots=True)
class Distribution:
    """Chunk lengths at a glance: count, mean, extremes and percentiles (in the unit)."""

    count: int
    mean: float | None
    min: int | None
    max: int | None
    percentiles: dict[int, float] = field(default_factory=dict)  # 1..99 -> length
    below_floor: int = 0  # runts, by length_stats' rule


def distribution(chunks: Sequence[Chunk], opts: ChunkOptions) -> Distribution:
    """The length distribution of ``chunks``, with the same percentile method as
    length_stats and its count of chunks below the runt floor."""
    runts = len(length_stats(chunks, opts).below_floor)
    if not chunks:
        return Distribution(0, None, None, None, {}, runts)
    lengths = np.array([c.length for c in chunks], dtype=float)
    values = np.percentile(lengths, PERCENTILES, method="linear")
    return Distribution(
        len(chunks),
        float(lengths.mean()),
        int(lengths.min()),
        int(lengths.max()),
        {p: float(v) for p, v in zip(PERCENTILES, values, strict=True)},
        runts,
    )


def runt_invariant(
    chunked: Mapping[str, Sequence[Chunk]],
    opts: ChunkOptions,
    sizes: Mapping[str, ChunkOptions] | None = None,
) -> dict[str, Any]:
    """The runt invariant over documents: a chunk below the floor only where a
    guard or a single-chunk document excuses it. JSON-ready. ``sizes`` gives a
    document's own options where its size was chosen for a limit (its floor follows)."""
    failing: list[dict[str, Any]] = []
    excused: list[dict[str, Any]] = []
    for name, chunks in chunked.items():
        st = length_stats(chunks, (sizes or {}).get(name, opts))
        for f in st.below_floor:
            entry = {
                "doc": name,
                "index": f.index,
                "length": f.length,
                "excuse": f.excuse or ("single chunk" if len(chunks) == 1 else ""),
            }
            (excused if entry["excuse"] else failing).append(entry)
    return {
        "floor": opts.floor,
        "below_floor": len(failing) + len(excused),
        "excused": excused,
        "failing": failing,
    }
