"""Lab 4 (runts and BM25) and lab 5's heading switch, as data.

Per-chunk scores with the holds-the-answer and runt flags, the theoretical
length curve anchored on a real chunk, the inflation factor, the revenue
sample with the runt merge off, forward and backward, and how ranks move
when the heading path leaves the index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from chunkers import Chunk, ChunkOptions, chunk_with
from chunkers.model import HEADING_SEPARATOR
from lab.measure.survival import holds
from lab.retrieval.bm25 import DEFAULT_B, DEFAULT_K1, DEFAULT_VARIANT, Bm25Params, ChunkScore
from lab.retrieval.bm25_variants import chunk_scores
from lab.retrieval.theory import inflation_cap, relative_score

HOLDS = "holds the answer"
HOLDS_RUNT = "holds the answer, runt"
RUNT = "runt"
OTHER = "other"
CATEGORIES = (HOLDS, HOLDS_RUNT, RUNT, OTHER)

REVENUE_DOC = "regional_revenue"
REVENUE_QUESTION = "what was Mumbai's FY24 revenue?"
REVENUE_ANSWER = "| Mumbai | FY24 | 18,412 | 4.2% |"
REVENUE_HEADER = "| Territory (cities and depots covered) |"  # what says the numbers are revenue
# the structural chunker's classic settings
REVENUE_SIZE, REVENUE_OVERLAP, REVENUE_UNIT = 1800, 150, "chars"
RUNT_MERGE_EXAMPLE = "depot_reconciliation.md"  # in lab/examples: forward and backward differ


@dataclass(frozen=True, slots=True)
class ScoreRow:
    number: int  # 1-based chunk number
    score: float
    rank: int
    length: int
    holds_answer: bool
    runt: bool
    category: str


def score_rows(
    chunks: Sequence[Chunk], scores: Sequence[ChunkScore], opts: ChunkOptions, answer: str | None
) -> list[ScoreRow]:
    single = len(chunks) == 1
    rows = []
    for c, s in zip(chunks, scores, strict=True):
        h = holds(c, answer or "")
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
    """BM25's length curve on its own (tf = 1, IDF fixed), scaled to pass through the best
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
    header_repeated: bool  # the chunker copied the table's header row into it
    has_header: bool  # the chunk carries the table's header row (its own or repeated)


@dataclass(frozen=True, slots=True)
class RevenueCase:
    label: str  # how the report was chunked: "fixed-size, no overlap", "structural, runt merge off"
    rows: list[RevenueRow]
    answer_rank: int | None  # rank of the chunk that holds the answer
    answer_length: int | None
    summary: str
    orphan: bool  # the row sits in a runt of its own that outranks the table it came from
    headerless: bool  # ... and that runt has no header: nothing says what 18,412 is
    tie: bool  # BM25 gives the row's chunk and the table the same score: no ranking at all


def orphan_and_table(case: RevenueCase) -> tuple[RevenueRow, RevenueRow] | None:
    """The chunk holding the row and the best-ranked chunk with the table's header:
    the pair the lab's introduction compares (None when either is missing)."""
    holder = next((r for r in case.rows if r.holds_answer), None)
    tables = [r for r in case.rows if r.has_header and not r.holds_answer]
    if holder is None or not tables:
        return None
    return holder, min(tables, key=lambda r: r.rank)


def _revenue_summary(
    label: str, rows: Sequence[RevenueRow], holder: RevenueRow | None, floor: int
) -> tuple[str, bool, bool, bool]:
    """The one-line verdict on the revenue report and its three flags."""
    if holder is None:
        return f"{label}: no chunk holds the row whole", False, False, False
    tables = [r for r in rows if r.has_header and not r.holds_answer]
    t = min(tables, key=lambda r: r.rank, default=None)
    # -- why -- equal scores are ordered by chunk number only: no rank means anything then
    if (len(rows) > 1 and len({r.score for r in rows}) == 1) or (t and holder.score == t.score):
        scope = (
            f"every chunk scores {holder.score:.3f}"
            if len({r.score for r in rows}) == 1 or t is None
            else f"the row's chunk {holder.number} and the table's chunk {t.number} score the same"
        )
        return (
            f"{label}: the ranking is a tie: {scope}, so BM25 cannot put the row above or "
            "below anything; the ranks shown are only chunk order",
            False,
            False,
            True,
        )
    if t is None:
        return (
            f"{label}: the row sits with its table in chunk {holder.number} ({holder.length} "
            f"chars, header included), ranked #{holder.rank} with {holder.score:.3f}; no orphan",
            False,
            False,
            False,
        )
    runt = holder.length < floor
    headerless = not holder.has_header
    place = "above" if holder.rank < t.rank else "below"
    if headerless:
        what = (
            f"the orphan row {REVENUE_ANSWER} is cut off without its header (chunk "
            f"{holder.number}, {holder.length} chars: nothing in it says 18,412 is revenue in "
            f"crore)"
        )
    elif runt:
        what = (
            f"the row is a runt of its own with the table's header repeated (chunk "
            f"{holder.number}, {holder.length} chars, under the {floor}-char floor)"
        )
    else:
        what = f"the row sits with its table in chunk {holder.number} ({holder.length} chars)"
    summary = (
        f"{label}: {what}; it ranks #{holder.rank} with {holder.score:.3f}, {place} the table "
        f"it was cut from (chunk {t.number}, #{t.rank} with {t.score:.3f})"
    )
    orphan = runt and holder.rank < t.rank
    return summary, orphan, orphan and headerless, False


def revenue_case(
    text: str,
    runt_merge: str = "backward",
    *,
    strategy: str = "structural",
    overlap: int = REVENUE_OVERLAP,
    k1: float = DEFAULT_K1,
    b: float = DEFAULT_B,
    question: str = REVENUE_QUESTION,
    answer: str = REVENUE_ANSWER,
    variant: str = DEFAULT_VARIANT,
) -> RevenueCase:
    """The revenue report at 1,800 characters: ``strategy`` with ``overlap`` and, for
    the structural chunker, the runt merge ``runt_merge``, scored by BM25 ``variant``."""
    opts = ChunkOptions(
        size=REVENUE_SIZE,
        overlap=overlap,
        unit=REVENUE_UNIT,
        runt_merge=runt_merge,
    )
    chunks = chunk_with(text, strategy, opts)
    scores = chunk_scores(chunks, question, Bm25Params(variant, k1, b))
    rows = [
        RevenueRow(
            c.index + 1,
            c.length,
            c.kind,
            s.score,
            s.rank,
            holds(c, answer or ""),
            c.header_repeated,
            REVENUE_HEADER in c.retrievable_text,
        )
        for c, s in zip(chunks, scores, strict=True)
    ]
    label = (
        f"structural, runt merge {runt_merge}"
        if strategy == "structural"
        else f"{strategy}, {'no overlap' if not overlap else f'overlap {overlap}'}"
    )
    holder = next((r for r in rows if r.holds_answer), None)
    summary, orphan, headerless, tie = _revenue_summary(label, rows, holder, opts.floor)
    return RevenueCase(
        label,
        rows,
        holder.rank if holder else None,
        holder.length if holder else None,
        summary,
        orphan,
        headerless,
        tie,
    )


def orphan_case(
    text: str, *, k1: float = DEFAULT_K1, b: float = DEFAULT_B, variant: str = DEFAULT_VARIANT
) -> RevenueCase:
    """The lesson's first half: fixed-size chunks of 1,800 characters, no overlap, cut
    the last row off alone, without the header that says what its numbers are."""
    return revenue_case(text, strategy="fixed", overlap=0, k1=k1, b=b, variant=variant)


@dataclass(frozen=True, slots=True)
class RuntMergeExample:
    """The runt merge run for real on a shipped document, off, forward and backward."""

    name: str  # the document's file name
    size: int
    floor: int
    lengths: dict[str, list[int]]  # sweep direction -> chunk lengths

    def runts(self, direction: str) -> list[int]:
        return [n for n in self.lengths[direction] if n < self.floor]

    @property
    def overflow_limit(self) -> int:
        """The longest a forward merge may make a chunk, as the chunker reads it."""
        return ChunkOptions(size=self.size, unit="chars").overflow_limit

    @property
    def line(self) -> str:
        off, fwd, back = (self.lengths[d] for d in ("off", "forward", "backward"))
        left = self.runts("forward")
        return (
            f"{self.name} at {self.size:,} characters: without a sweep its chunks are {off}. "
            f"Forward merges each runt into the chunk before it, so the first runt fills that "
            f"chunk and the next one no longer fits under the {self.overflow_limit:,}-char "
            f"overflow guard: {fwd}, and {len(left)} runt(s) ({left}) survive. Backward starts "
            f"from the end, so the two small pieces join each other first: {back}, "
            f"{len(self.runts('backward'))} runt(s)."
        )


def runt_merge_example(text: str, name: str, size: int = REVENUE_SIZE) -> RuntMergeExample:
    lengths = {
        d: [
            c.length
            for c in chunk_with(
                text, "structural", ChunkOptions(size=size, unit="chars", runt_merge=d)
            )
        ]
        for d in ("off", "forward", "backward")
    }
    return RuntMergeExample(name, size, ChunkOptions(size=size, unit="chars").floor, lengths)


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
    variant: str = DEFAULT_VARIANT,
) -> list[RankMove]:
    params = Bm25Params(variant, k1, b)
    with_h = chunk_scores(chunks, question, params, heading_path=True)
    without = chunk_scores(chunks, question, params, heading_path=False)
    return [
        RankMove(
            c.index + 1,
            HEADING_SEPARATOR.join(c.heading_path),
            w.rank,
            wo.rank,
            w.score,
            wo.score,
            holds(c, answer or ""),
        )
        for c, w, wo in zip(chunks, with_h, without, strict=True)
    ]
