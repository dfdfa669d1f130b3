"""Fixed-size windows: the arithmetic baseline of the boundary lottery.

Window i covers units [i*stride, i*stride + size) with stride = size - overlap.
The first ``overlap`` units of every window after the first are the overlap
prefix (a copy of the previous window's tail); the rest is the body, so bodies
tile the text without repeating it.
"""

from __future__ import annotations

from .options import ChunkOptions
from .spans import Draft
from .text import SourceText, word_spans


def window_starts(n_units: int, size: int, overlap: int) -> range:
    """Start unit of every window: the last one is the first to reach the end."""
    if n_units <= 0:
        return range(0)
    stride = size - overlap
    last = max(0, -(-(n_units - size) // stride)) if n_units > size else 0
    return range(0, last * stride + 1, stride)


def fixed_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    text = src.norm
    size, overlap = opts.size, opts.overlap
    if opts.unit == "words":
        spans = word_spans(text)
        n = len(spans)
    else:
        spans = None
        n = len(text)
    drafts: list[Draft] = []
    for i, w in enumerate(window_starts(n, size, overlap)):
        body_first = w + (overlap if i else 0)
        last = min(w + size, n)  # exclusive, in units
        if body_first >= last:
            break
        if spans is not None:
            start, end = spans[body_first][0], spans[last - 1][1]
            o_start, o_end = (spans[w][0], spans[body_first - 1][1]) if i and overlap else (0, 0)
        else:
            start, end = body_first, last
            o_start, o_end = (w, body_first) if i and overlap else (0, 0)
            if not text[start:end].strip():
                continue  # a window of pure whitespace holds nothing to retrieve
        drafts.append(Draft(start, end, overlap_start=o_start, overlap_end=o_end))
    return drafts
