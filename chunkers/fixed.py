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

from dataclasses import dataclass

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


def first_window_holding(
    first: np.ndarray, last: np.ndarray, size: int, overlap: int
) -> int | None:
    """The earliest window (its number in window_starts) holding units first..last of
    any one span, or None; the rule of windows_hold at one size.

    Window k holds units a..b when k*stride <= a and k*stride + size > b: the
    earliest such k is ceil((b - size + 1) / stride), if that is at most a // stride
    (the last-window rule never cuts it short: the last window reaches the end).
    """
    stride = size - overlap
    a, b = np.asarray(first, np.int64), np.asarray(last, np.int64)
    k = np.maximum(0, -(-(b - size + 1) // stride))
    held = k <= a // stride
    return int(k[held].min()) if held.any() else None


# what str.isspace() says is whitespace (str.strip() drops these); none lies past U+3000
_SPACES = np.array([c for c in range(0x3001) if chr(c).isspace()], dtype=np.uint32)


def _code_points(text: str) -> np.ndarray:
    # a working copy holds no lone surrogate (SourceText), so UTF-32 takes every character
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


@dataclass(frozen=True, slots=True)
class Windows:
    """Every window's body span and overlap prefix span, in the text's offsets, the
    windows that hold only whitespace left out; ``window`` is each one's number
    among all windows (window_starts), so its place here is its chunk index."""

    window: np.ndarray
    start: np.ndarray
    end: np.ndarray
    overlap_start: np.ndarray  # 0 and 0 when the window has no prefix
    overlap_end: np.ndarray


def ink_before(text: str) -> np.ndarray:
    """How many characters before each offset (0 to len(text)) are not whitespace."""
    return np.concatenate(([0], np.cumsum(~np.isin(_code_points(text), _SPACES))))


def fixed_windows(
    text: str,
    spans: UnitSpans,
    size: int,
    overlap: int,
    words: bool,
    ink: np.ndarray | None = None,
) -> Windows:
    """The windows fixed_drafts cuts at one size, as arrays: a sweep over many sizes
    asks this instead of making a chunk per window (passing ``ink_before(text)``, the
    same at every size)."""
    n = len(text) if spans is None else len(spans[0])
    w = np.asarray(window_starts(n, size, overlap), dtype=np.int64)
    i = np.arange(len(w), dtype=np.int64)
    prefixed = (i > 0) & (overlap > 0)
    body_first = w + np.where(i > 0, overlap, 0)
    last = np.minimum(w + size, n)  # exclusive, in units
    live = body_first < last
    w, i, prefixed = w[live], i[live], prefixed[live]
    body_first, last = body_first[live], last[live]
    if spans is not None:
        starts, ends = spans
        start, end = starts[body_first], ends[last - 1]
        o_start = np.where(prefixed, starts[w], 0)
        o_end = np.where(prefixed, ends[np.maximum(body_first - 1, 0)], 0)
    else:
        start, end = body_first, last
        o_start, o_end = np.where(prefixed, w, 0), np.where(prefixed, body_first, 0)
    if not words and len(start):
        # -- a chars or tokens window of pure whitespace holds nothing to retrieve
        # -- (a words window always holds a word)
        ink = ink_before(text) if ink is None else ink
        keep = ink[end] > ink[start]
        i, start, end, o_start, o_end = i[keep], start[keep], end[keep], o_start[keep], o_end[keep]
    return Windows(i, start, end, o_start, o_end)


def fixed_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    text = src.norm
    key = ("unit spans", opts.unit, opts.tokenizer)
    spans = src.cache.get(key) if opts.unit == "tokens" else None
    if spans is None:
        spans = unit_spans(text, opts.unit, opts.tokenizer)
        if opts.unit == "tokens":  # a sweep's next size reuses them
            src.cache[key] = spans
    win = fixed_windows(text, spans, opts.size, opts.overlap, opts.unit == "words")
    return [
        Draft(s, e, overlap_start=os_, overlap_end=oe)
        for s, e, os_, oe in zip(
            win.start.tolist(),
            win.end.tolist(),
            win.overlap_start.tolist(),
            win.overlap_end.tolist(),
            strict=True,
        )
    ]
