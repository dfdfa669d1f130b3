"""Recall against token efficiency as chunks shrink, with and without overlap.

Chroma's evaluation of chunkers found recall nearly flat across chunk sizes while
precision and IoU move several-fold: a small chunk brings less that is not the
answer. Overlap at the same size repeats text the top k already holds, so it
costs the context window without bringing more of the answer. One document and
its gold set, one strategy, a few sizes, each with no overlap and with a quarter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chunkers import ChunkOptions
from lab.inputs.gold import GoldQuestion

from .integrity import check_gold

# sizes from small to large in each unit, the overlap a quarter of the size
SIZES = {"chars": (300, 600, 1200, 2400), "words": (50, 100, 200, 400)}
TOKEN_SIZES = (64, 128, 256, 512)
OVERLAP_SHARE = 4  # overlap = size // 4


@dataclass(frozen=True, slots=True)
class TokenRow:
    size: int
    overlap: int
    recall: float  # recall@k: a relevant chunk in the top k
    iou: float
    precision: float
    context: float  # units the top k cost a question, overlap counted each time


def lesson_sizes(unit: str) -> tuple[int, ...]:
    return SIZES.get(unit, TOKEN_SIZES)


def token_sweep(
    text: str,
    questions: Sequence[GoldQuestion],
    strategy: str,
    base: ChunkOptions,
    k: int,
) -> list[TokenRow]:
    """Each lesson size with no overlap, then with a quarter, in ``base``'s unit."""
    rows = []
    for share in (0, OVERLAP_SHARE):
        for size in lesson_sizes(base.unit):
            overlap = size // share if share else 0
            opts = ChunkOptions(
                size=size, overlap=overlap, unit=base.unit, tokenizer=base.tokenizer
            )
            r = check_gold(text, questions, strategy, opts, k=k)
            rows.append(TokenRow(size, overlap, r.recall_at(k), r.iou, r.precision, r.context_cost))
    return rows


@dataclass(frozen=True, slots=True)
class Spread:
    """How far each figure moves over the sizes with no overlap."""

    recall_points: float  # max - min recall, in percentage points
    iou_times: float  # max / min IoU (0 when some IoU is 0)
    overlap_lowers_iou: int  # sizes where a quarter's overlap gives a lower IoU
    sizes: int


def spread(rows: Sequence[TokenRow]) -> Spread:
    plain = [r for r in rows if r.overlap == 0]
    by_size = {r.size: r for r in plain}
    lapped = [r for r in rows if r.overlap and r.size in by_size]
    recalls, ious = [r.recall for r in plain], [r.iou for r in plain]
    low = min(ious) if ious else 0.0
    return Spread(
        (max(recalls) - min(recalls)) * 100 if recalls else 0.0,
        max(ious) / low if low else 0.0,
        sum(r.iou < by_size[r.size].iou for r in lapped),
        len(plain),
    )
