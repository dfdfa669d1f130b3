"""Fixed-size windows: the arithmetic baseline of the boundary lottery.

Window i covers units [i*stride, i*stride + size) with stride = size - overlap.
The first ``overlap`` units of every window after the first are the overlap
prefix (a copy of the previous window's tail); the rest is the body, so bodies
tile the text without repeating it.

A unit is a character, a whitespace-delimited word, or a token of the
document's own token stream (chunkers.tokens: exact offsets that tile the
text). A tokens window is exactly ``size`` tokens of that stream, cut where
the tokens start, never decoded and searched for, as LangChain's
TokenTextSplitter and Chonkie's TokenChunker cut them.

The rule of which window holds which units lives here once: the chunker
uses ``window_starts``, and the lab's survival sweeps ask ``windows_hold``
instead of chunking at every size (the tests hold the two equal).
"""

from __future__ import annotations

import numpy as np

from .options import ChunkOptions
from .spans import Draft
from .text import SourceText, word_spans
from .tokens import DEFAULT_TOKENIZER, tokenizer_for

# (starts, ends) of every unit, or None in chars (a unit is a character)
UnitSpans = tuple[np.ndarray, np.ndarray] | None


def window_starts(n_units: int, size: int, overlap: int) -> range:
    """Start unit of every window: the last one is the first to reach the end."""
    if n_units <= 0:
        return range(0)
    stride = size - overlap
    last = max(0, -(-(n_units - size) // stride)) if n_units > size else 0
    return range(0, last * stride + 1, stride)


def unit_spans(text: str, unit: str, tokenizer: str = DEFAULT_TOKENIZER) -> UnitSpans:
    """Where every unit of ``text`` starts and ends; None in chars."""
    if unit == "chars":
        return None
    if unit == "tokens":
        return tokenizer_for(tokenizer).offsets(text)
    spans = np.array(word_spans(text), dtype=np.int64).reshape(-1, 2)
    return spans[:, 0], spans[:, 1]


def units_touched(
    spans: UnitSpans, start: np.ndarray, end: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The first and last unit (inclusive) that each character span [start, end)
    touches: a word or token the span only partly covers is still in its window."""
    if spans is None:
        return start, end - 1
    starts, ends = spans
    first = np.searchsorted(ends, start, side="right")  # the first unit ending past start
    last = np.searchsorted(starts, end - 1, side="right") - 1  # the last starting by end - 1
    return first, last


_BLOCK = 1 << 21  # cells per numpy pass when a span occurs many times


def windows_hold(
    first: np.ndarray, last: np.ndarray, sizes: np.ndarray, overlaps: np.ndarray
) -> np.ndarray:
    """Whether some window holds units first..last of any one span, per (size,
    overlap) cell, broadcasting; the arithmetic of window_starts.

    Windows start at k*stride. Of those starting at or before a span's first
    unit a, the latest (k = a // stride) reaches furthest, so the span is held
    iff k*stride + size > b, its last unit. The last-window rule (windows stop
    at K = ceil((n - size) / stride)) never changes this: if a // stride > K,
    window K reaches the end, and so past b, anyway.
    """
    S, OV = np.broadcast_arrays(np.asarray(sizes, np.int64), np.asarray(overlaps, np.int64))
    T = S - OV
    out = np.zeros(S.shape, dtype=bool)
    per = max(1, _BLOCK // max(1, S.size))
    for lo in range(0, len(first), per):
        a = first[lo : lo + per].reshape((-1,) + (1,) * S.ndim)
        b = last[lo : lo + per].reshape((-1,) + (1,) * S.ndim)
        out |= ((a // T) * T + S > b).any(axis=0)
    return out


def fixed_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    text = src.norm
    size, overlap = opts.size, opts.overlap
    key = ("unit spans", opts.unit, opts.tokenizer)
    spans = src.cache.get(key) if opts.unit == "tokens" else None
    if spans is None:
        spans = unit_spans(text, opts.unit, opts.tokenizer)
        if opts.unit == "tokens":  # a sweep's next size reuses them
            src.cache[key] = spans
    if spans is not None:
        starts, ends = spans[0].tolist(), spans[1].tolist()
        n = len(starts)
    else:
        n = len(text)
    words = opts.unit == "words"
    drafts: list[Draft] = []
    for i, w in enumerate(window_starts(n, size, overlap)):
        body_first = w + (overlap if i else 0)
        last = min(w + size, n)  # exclusive, in units
        if body_first >= last:
            break
        if spans is not None:
            start, end = starts[body_first], ends[last - 1]
            o_start, o_end = (starts[w], ends[body_first - 1]) if i and overlap else (0, 0)
        else:
            start, end = body_first, last
            o_start, o_end = (w, body_first) if i and overlap else (0, 0)
        # -- a chars or tokens window of pure whitespace holds nothing to retrieve
        # -- (a words window always holds a word)
        if not words and not text[start:end].strip():
            continue
        drafts.append(Draft(start, end, overlap_start=o_start, overlap_end=o_end))
    return drafts
