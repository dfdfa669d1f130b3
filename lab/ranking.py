"""Lab 4 (runts and BM25) and lab 5's heading switch, as data.

Per-chunk scores with the holds-the-answer and runt flags, the theoretical
length curve anchored on a real chunk, the inflation factor, the revenue
sample with the runt sweep off, forward and backward, and how ranks move
when the heading path leaves the index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from chunkers import Chunk, ChunkOptions, chunk_with, sweep_lengths

from .bm25 import DEFAULT_B, DEFAULT_K1, ChunkScore, score_chunks
from .survival import collapse
from .theory import inflation_cap, relative_score

HOLDS = "holds the answer"
HOLDS_RUNT = "holds the answer, runt"
RUNT = "runt"
OTHER = "other"
CATEGORIES = (HOLDS, HOLDS_RUNT, RUNT, OTHER)

REVENUE_DOC = "regional_revenue"
REVENUE_QUESTION = "what was Mumbai's FY24 revenue?"
REVENUE_ANSWER = "| Mumbai | FY24 | 18,412 | 4.2% |"
REVENUE_OPTIONS = dict(size=1800, overlap=150, unit="chars")  # seed 000's chunker
SEED_LENGTHS = (1800, 1800, 300, 200)  # seed 000's worked example


@dataclass(frozen=True, slots=True)
class ScoreRow:
    number: int  # 1-based chunk number
    score: float
    rank: int
    length: int
    holds_answer: bool
    runt: bool
    category: str


def holds(chunk: Chunk, answer: str | None) -> bool:
    return bool(answer) and collapse(answer) in collapse(chunk.retrievable_text)


def score_rows(
    chunks: Sequence[Chunk], scores: Sequence[ChunkScore], opts: ChunkOptions, answer: str | None
) -> list[ScoreRow]:
    single = len(chunks) == 1
    rows = []
    for c, s in zip(chunks, scores):
        h = holds(c, answer)
        r = c.length < opts.floor and not single
        cat = HOLDS_RUNT if h and r else HOLDS if h else RUNT if r else OTHER
        rows.append(ScoreRow(c.index + 1, s.score, s.rank, c.length, h, r, cat))
    return rows


@dataclass(frozen=True, slots=True)
class TheoryCurve:
    lengths: list[float]
    scores: list[float]
    avgdl: float
    anchor: int | None  # 1-based chunk the curve passes through
    cap_at_floor: float  # inflation_cap: the most a chunk at the floor can gain
    shortest_factor: float  # relative score of the shortest chunk
    label: str  # the sentence written under the chart
    chart_lines: tuple[str, ...] = ()  # the same, in short lines written on the chart


def theory_curve(
    rows: Sequence[ScoreRow],
    opts: ChunkOptions,
    *,
    k1: float = DEFAULT_K1,
    b: float = DEFAULT_B,
    points: int = 120,
) -> TheoryCurve:
    """Seed 000's length curve (tf = 1, IDF fixed), scaled to pass through the best
    chunk that holds the answer (else the top-ranked chunk with a score > 0).

    Lengths are in the chunking unit; avgdl is their mean, so |D|/avgdl is the
    same ratio BM25 normalises by (up to tokenisation).
    """
    if not rows:
        return TheoryCurve([], [], 0.0, None, 1.0, 1.0, "")
    lengths = np.array([r.length for r in rows], dtype=float)
    avgdl = float(max(lengths.mean(), 1e-9))
    scored = [r for r in rows if r.score > 0]
    anchor = min((r for r in scored if r.holds_answer), key=lambda r: r.rank, default=None) or min(
        scored, key=lambda r: r.rank, default=None
    )
    grid = np.linspace(max(1.0, lengths.min() * 0.5), lengths.max() * 1.1, points)
    rel = np.asarray(relative_score(grid, avgdl=avgdl, k1=k1, b=b))
    scale = (
        anchor.score / float(relative_score(anchor.length, avgdl=avgdl, k1=k1, b=b))
        if anchor
        else 1.0
    )
    cap = inflation_cap(opts.floor, avgdl=avgdl, k1=k1, b=b)
    shortest = float(relative_score(lengths.min(), avgdl=avgdl, k1=k1, b=b))
    longest = float(relative_score(lengths.max(), avgdl=avgdl, k1=k1, b=b))
    label = (
        f"inflation: the shortest chunk ({int(lengths.min())} {opts.unit}) scores "
        f"×{shortest:.2f} an average one, ×{shortest / longest:.2f} the longest; "
        f"at the floor ({opts.floor}) the cap is ×{cap:.2f}"
    )
    lines = (
        f"inflation ×{shortest:.2f}: shortest chunk ({int(lengths.min())} {opts.unit}) "
        "vs an average one",
        f"×{shortest / longest:.2f} vs the longest chunk",
        f"cap at the floor ({opts.floor} {opts.unit}): ×{cap:.2f}",
    )
    return TheoryCurve(
        grid.tolist(),
        (rel * scale).tolist(),
        avgdl,
        anchor.number if anchor else None,
        cap,
        shortest,
        label,
        lines,
    )


# --------------------------------------------------------------------------- revenue sample


@dataclass(frozen=True, slots=True)
class RevenueRow:
    number: int
    length: int
    kind: str
    score: float
    rank: int
    holds_answer: bool
    header_repeated: bool


@dataclass(frozen=True, slots=True)
class RevenueCase:
    sweep: str
    rows: list[RevenueRow]
    answer_rank: int | None  # rank of the chunk that holds the answer
    answer_length: int | None
    summary: str
    orphan: bool  # the row is a runt of its own that outranks the table it came from


def revenue_case(
    text: str,
    sweep: str,
    *,
    k1: float = DEFAULT_K1,
    b: float = DEFAULT_B,
    question: str = REVENUE_QUESTION,
    answer: str = REVENUE_ANSWER,
) -> RevenueCase:
    """The revenue report at seed 000's settings with the runt sweep ``sweep``."""
    opts = ChunkOptions(**REVENUE_OPTIONS, sweep=sweep)
    chunks = chunk_with(text, "structural", opts)
    scores = score_chunks(chunks, question, k1=k1, b=b)
    rows = [
        RevenueRow(
            c.index + 1, c.length, c.kind, s.score, s.rank, holds(c, answer), c.header_repeated
        )
        for c, s in zip(chunks, scores)
    ]
    holder = next((r for r in rows if r.holds_answer), None)
    tables = [r for r in rows if r.kind == "table" and not r.holds_answer]
    orphan = False
    if holder is None:
        summary = f"sweep {sweep}: no chunk holds the row whole"
    elif tables and holder.length < opts.floor:
        t = min(tables, key=lambda r: r.rank)
        orphan = holder.rank < t.rank
        summary = (
            f"sweep {sweep}: the orphan row (chunk {holder.number}, {holder.length} chars, "
            f"a runt under the {opts.floor}-char floor) ranks #{holder.rank} with "
            f"{holder.score:.3f}; the table it was cut from ranks #{t.rank} with {t.score:.3f}"
        )
    else:
        summary = (
            f"sweep {sweep}: the row sits in chunk {holder.number} ({holder.length} chars, "
            f"{holder.kind}), ranked #{holder.rank} with {holder.score:.3f}; no orphan"
        )
    return RevenueCase(
        sweep,
        rows,
        holder.rank if holder else None,
        holder.length if holder else None,
        summary,
        orphan,
    )


def seed_sweep_example(
    direction: str, size: int = 1800, lengths: Sequence[int] = SEED_LENGTHS
) -> list[int]:
    """Seed 000's [1800, 1800, 300, 200]: forward stalls at [1800, 2100, 200],
    backward gives [1800, 1800, 500]."""
    return sweep_lengths(list(lengths), size, direction)


# --------------------------------------------------------------------------- heading switch


@dataclass(frozen=True, slots=True)
class RankMove:
    number: int
    heading_path: str
    rank_with: int
    rank_without: int
    score_with: float
    score_without: float
    holds_answer: bool

    @property
    def move(self) -> int:
        """Positive: the chunk climbs when the heading path leaves the index."""
        return self.rank_with - self.rank_without


def heading_rank_moves(
    chunks: Sequence[Chunk],
    question: str,
    answer: str | None = None,
    *,
    k1: float = DEFAULT_K1,
    b: float = DEFAULT_B,
) -> list[RankMove]:
    with_h = score_chunks(chunks, question, k1=k1, b=b, heading_path=True)
    without = score_chunks(chunks, question, k1=k1, b=b, heading_path=False)
    return [
        RankMove(
            c.index + 1,
            " > ".join(c.heading_path),
            w.rank,
            wo.rank,
            w.score,
            wo.score,
            holds(c, answer),
        )
        for c, w, wo in zip(chunks, with_h, without)
    ]
