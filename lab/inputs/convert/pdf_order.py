"""The order a PDF page's lines are read in: columns side by side are read one
after the other, each top to bottom; a line that crosses the gap between columns
(a title, a table, a full-width paragraph) stays where it is, and the columns
above it are read before it, those below it after.

Columns are found from the lines' boxes alone: a gutter is an upright strip that
few of the narrow lines cross (none, or a table's rows set across the columns),
with enough lines on both sides, side by side. A page of
prose fills its columns (most of its lines run nearly the column's width); a
table without rules, or a form of labels and values, does not, and stays in the
order it is printed, row by row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
# a line's box on the page as shown, from its top left corner: (top, bottom, left, right)
Box = tuple[float, float, float, float]

_NARROW = 0.6  # of the text's width: a line this narrow may sit in a column
_MIN_GAP = 6.0  # points: a gutter is at least this wide ...
_MIN_LINES = 5  # ... with at least this many lines in each column beside it
_CROSSING = 0.1  # a gutter's strip is crossed by at most this share of the narrow lines
_FULL = 0.7  # a prose column's lines mostly run this share of its width, or more
_FULL_SHARE = 0.5  # ... this share of them


def gutters(boxes: Sequence[Box]) -> list[tuple[float, float]]:
    """The x ranges (left, right) of the gaps between columns, left to right."""
    if len(boxes) < 2 * _MIN_LINES:
        return []
    left, right = min(b[2] for b in boxes), max(b[3] for b in boxes)
    width = right - left
    narrow = sorted((b[2], b[3]) for b in boxes if b[3] - b[2] < _NARROW * width)
    if len(narrow) < max(2 * _MIN_LINES, len(boxes) / 2):
        return []  # most lines run across the page: one column (most pages)
    gaps = _gaps(narrow, left, right)
    # the lines between each two gaps: a column, if they read as prose
    edges = [left - 1, *(x for gap in gaps for x in gap), right + 1]
    regions = [
        [b for b in boxes if b[2] >= lo - 0.5 and b[3] <= hi + 0.5]
        for lo, hi in zip(edges[::2], edges[1::2], strict=True)
    ]
    prose = [_prose(r) for r in regions]
    return [
        gap
        for n, gap in enumerate(gaps)
        if prose[n] and prose[n + 1] and _side_by_side(regions[n], regions[n + 1])
    ]


def _gaps(spans: list[tuple[float, float]], left: float, right: float) -> list[tuple[float, float]]:
    """Upright strips at least _MIN_GAP wide that few of the spans cross: none, or
    the rows of a table set across the columns (they stay where they are)."""
    origin = int(left)
    counts = [0] * (int(right) - origin + 2)
    for lo, hi in spans:  # how many spans cover each point: a difference array
        counts[int(lo) - origin] += 1
        counts[int(hi) - origin + 1] -= 1
    allowed = max(_CROSSING * len(spans), 0)
    gaps: list[tuple[float, float]] = []
    covered, start = 0, None
    for x, delta in enumerate(counts):
        covered += delta
        if covered <= allowed and 0 < x < len(counts) - 2:
            start = x if start is None else start
            continue
        if start is not None and x - start >= _MIN_GAP:
            gaps.append((origin + start, origin + x))
        start = None
    return gaps


def _prose(column: Sequence[Box]) -> bool:
    if len(column) < _MIN_LINES:
        return False
    width = max(b[3] for b in column) - min(b[2] for b in column)
    full = sum(b[3] - b[2] >= _FULL * width for b in column)
    return full >= _FULL_SHARE * len(column)


def _side_by_side(column: Sequence[Box], beside: Sequence[Box]) -> bool:
    """Lines beside the column at the heights the column's lines take."""
    low, high = min(b[0] for b in column), max(b[1] for b in column)
    return sum(low <= b[0] <= high for b in beside) >= _MIN_LINES


def reading_order(entries: Sequence[tuple[T, Box]]) -> list[T]:
    """The entries (anything with a box) in reading order."""
    by_top = sorted(entries, key=lambda e: (e[1][0], e[1][2]))
    found = gutters([box for _, box in by_top])
    if not found:
        return [e for e, _ in by_top]
    mids = [(g0 + g1) / 2 for g0, g1 in found]

    def crosses(box: Box) -> bool:
        return any(box[2] < g0 and box[3] > g1 for g0, g1 in found)

    out: list[T] = []
    band: list[tuple[T, Box]] = []

    def flush() -> None:
        # column by column, each top to bottom (sorted is stable: by_top's order)
        band.sort(key=lambda e: sum((e[1][2] + e[1][3]) / 2 > m for m in mids))
        out.extend(e for e, _ in band)
        band.clear()

    for entry in by_top:
        if crosses(entry[1]):
            flush()
            out.append(entry[0])
        else:
            band.append(entry)
    flush()
    return out
