"""Per-size frames for dragging the chunk size: where every chunk starts and ends,
and the survival verdict, at each size of a range, computed once so a slider can
redraw any of them without asking again.

The chunks come from the sweep the CLI's survival uses (parse once, pack per size),
kept to a window when one is given (chunk_sweep_near: the chunks before it counted,
not made), and the verdict from DocumentLayout.survival, the one the CLI and the app print;
fixed-size chunks from their window arithmetic instead (chunkers.fixed), which
gives the same chunks and verdict without making a chunk (the tests hold the two
equal), so a fixed strategy drags on any upload.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from chunkers import Chunk, ParsedDocument, chunk_sweep_near, parse
from chunkers.fixed import first_window_holding, fixed_windows, ink_before, unit_spans
from chunkers.text import SourceText
from lab.text import collapse_whitespace

from .survival import (
    DocumentLayout,
    _chunkings,
    answer_problem,
    find_answer,
    find_answers,
    fixed_units,
    sweep_plan,
    verdict_line,
)


@dataclass(frozen=True, slots=True)
class Frame:
    """One size's chunking, as a slider draws it."""

    size: int
    overlap: int  # in units, as used at this size
    # per chunk (body start, body end, overlap prefix start); the prefix start equals
    # the body start when the chunk has no prefix
    boundaries: list[tuple[int, int, int]]
    intact: bool
    verdict: str  # "answer intact in chunk 5", "answer split across chunks 4 and 5: ..."
    pieces: list[int]  # 0-based chunks the answer lies in (one when intact)
    # the 0-based number of boundaries[0]: 0 unless only a window's chunks were kept
    first: int = 0


def drag_frames(
    text: str,
    answer: str,
    strategy: str,
    sizes: Iterable[int],
    *,
    parsed: ParsedDocument | None = None,
    window: tuple[int, int] | None = None,
    **sweep: Any,
) -> list[Frame]:
    """The frame at each size. An answer missing from the text is no error here:
    every frame's verdict says so (the one line answer_problem gives), intact False.

    With ``window`` (start, end), each frame keeps only the chunks that reach into
    it (their numbers kept, ``first``): a long document's frames stay small, and only
    the chunks near the window and the answer are made (chunkers.chunk_sweep_near).

    Args:
        parsed: ``parse(text)`` made earlier, reused by the structural strategy.
        **sweep: the sweep's keywords, as survival_curve takes them (sweep_plan):
            ``unit``, ``overlap`` or ``overlap_fraction``, the other ChunkOptions fields.

    Returns:
        One frame per size, in the order given: the chunk boundaries, and whether
        and where the answer is held.

    Raises:
        ValueError: no size, an unknown strategy, or a size or overlap out of range.
    """
    sizes, overlaps, options = sweep_plan(strategy, sizes, **sweep)
    if not sizes:  # a slider with nothing to play
        raise ValueError("sizes: give at least one size to drag across")
    missing = answer_problem(text, answer)
    if strategy == "fixed" and text and not text.isspace():
        unit, tokenizer = options[0].unit, options[0].tokenizer  # (the same at every size)
        return _fixed_frames(text, answer, sizes, overlaps, unit, tokenizer, missing, window)
    frames = []
    chunkings: Iterable[tuple[int, list[Chunk]]]
    later = None  # the characters through the answer's last occurrence, when it recurs
    if window is None:
        chunkings = ((0, chunks) for chunks in _chunkings(text, strategy, options, parsed))
    else:
        if strategy == "structural" and parsed is None:
            parsed = parse(text)  # (read for its tables too)
        near, later = _near(text, answer, window, missing is None, strategy, parsed)
        chunkings = chunk_sweep_near(text, strategy, options, near, parsed)
    for size, over, opts, (first, chunks) in zip(sizes, overlaps, options, chunkings, strict=True):
        if missing is not None:
            frames.append(Frame(size, over, _bounds(chunks), False, missing, [], first))
            continue
        surv = DocumentLayout(text, chunks).survival(answer)
        if not surv.intact and later is not None:  # a later occurrence may be held
            ((first, chunks),) = chunk_sweep_near(text, strategy, [opts], later, parsed)
            surv = DocumentLayout(text, chunks).survival(answer)
        held = surv.chunk_index  # set exactly when the answer is intact
        pieces = [held] if surv.intact and held is not None else list(surv.pieces)
        frames.append(Frame(size, over, _bounds(chunks), surv.intact, surv.verdict, pieces, first))
    return frames if window is None else [_kept(f, *window) for f in frames]


def _bounds(chunks: list[Chunk]) -> list[tuple[int, int, int]]:
    """Each chunk's (body start, body end, overlap prefix start or body start)."""
    return [(c.start, c.end, c.overlap_start if c.overlap_prefix else c.start) for c in chunks]


def _near(
    text: str,
    answer: str,
    window: tuple[int, int],
    found: bool,
    strategy: str,
    parsed: ParsedDocument | None,
) -> tuple[tuple[int, int], tuple[int, int] | None]:
    """The characters whose chunks a windowed frame makes: the window and the answer's
    first occurrence; and, when the answer occurs again, the characters through its
    last occurrence, for the sizes where the first is not held (a chunk holds the
    answer only where its text, overlap and body, holds an occurrence: whitespace lies
    between the two; so no chunk before the first occurrence holds it, and the first
    chunk holding it near the first occurrence is the first of all).

    -- why the whole text, with tables -- a chunk repeating its table's head reads
    -- that head straight before its own rows: an answer running from the head's
    -- last line (only "|", "-" and ":") into the rows may be held there alone."""
    if not found:
        return window, None
    if (
        strategy in ("structural", "routed")
        and set("|-:") & set(collapse_whitespace(answer))
        and _has_table_heads(text, parsed)
    ):
        return (0, len(text)), None
    spans = find_answers(text, answer)
    near = min(window[0], spans[0][0]), max(window[1], spans[0][1])
    if len(spans) == 1:
        return near, None
    return near, (near[0], max(near[1], spans[-1][1]))


def _has_table_heads(text: str, parsed: ParsedDocument | None) -> bool:
    """Whether a table of the text has a head a chunk may repeat (its parse's tables)."""
    doc = parse(text) if parsed is None else parsed
    return any(header is not None for _, header in doc.tables.values())


def _kept(frame: Frame, lo: int, hi: int) -> Frame:
    """The frame with only its chunks from the first that reaches into characters
    lo..hi to the last (DragWindow.clipped drops any between that do not)."""
    bounds = frame.boundaries
    ends = np.array([e for _, e, _ in bounds], np.int64)
    heads = np.array([min(s, o) for s, _, o in bounds], np.int64)
    at, stop = _reach(ends, heads, lo, hi)
    return replace(frame, boundaries=bounds[at:stop], first=frame.first + at)


def _reach(ends: np.ndarray, heads: np.ndarray, lo: int, hi: int) -> tuple[int, int]:
    """The chunks [at, stop) that reach into lo..hi: bodies are in order and never
    overlap, so from the first body ending past lo to the last chunk whose prefix or
    body starts before hi."""
    at = int(np.searchsorted(ends, lo, "right"))
    inside = np.flatnonzero(heads[at:] < hi)
    return at, at + int(inside[-1]) + 1 if len(inside) else at


def _fixed_frames(
    text: str,
    answer: str,
    sizes: list[int],
    overlaps: list[int],
    unit: str,
    tokenizer: str,
    missing: str | None,
    window: tuple[int, int] | None,
) -> list[Frame]:
    """The fixed strategy's frames by its window arithmetic (chunkers.fixed), with no
    chunk made: the windows fixed_windows cuts, the first to hold the answer by
    first_window_holding, the verdict's words from verdict_line, as chunking says."""
    src = SourceText.of(text)
    spans = unit_spans(src.norm, unit, tokenizer)
    ink = None if unit == "words" else ink_before(src.norm)
    first = last = None
    span = (0, 0)
    if missing is None:
        first, last = fixed_units(text, answer, spans)
        span = find_answer(text, answer)
    frames: list[Frame] = []
    for size, over in zip(sizes, overlaps, strict=True):
        win = fixed_windows(src.norm, spans, size, over, unit == "words", ink)
        starts, ends = src.to_source_all(win.start), src.to_source_all(win.end)
        prefixed = win.overlap_end > win.overlap_start
        o_starts = np.where(prefixed, src.to_source_all(win.overlap_start), starts)
        at, stop = 0, len(starts)
        if window is not None:
            at, stop = _reach(ends, np.minimum(starts, o_starts), *window)
        bounds = list(
            zip(
                starts[at:stop].tolist(),
                ends[at:stop].tolist(),
                o_starts[at:stop].tolist(),
                strict=True,
            )
        )
        if first is None or last is None:
            frames.append(Frame(size, over, bounds, False, missing or "", [], at))
            continue
        k = first_window_holding(first, last, size, over)
        if k is not None:  # a window holding text is never one left out
            held = int(np.searchsorted(win.window, k))
            verdict = verdict_line(held, [])
            frames.append(Frame(size, over, bounds, True, verdict, [held], at))
            continue
        lo = int(np.searchsorted(ends, span[0], "right"))  # the first body ending past it
        hi = int(np.searchsorted(starts, span[1], "left"))  # bodies starting before its end
        pieces = list(range(lo, hi))
        frames.append(Frame(size, over, bounds, False, verdict_line(None, pieces), pieces, at))
    return frames


WINDOW_CHARS = 3_000  # characters shown either side of the answer
# -- why a ceiling -- fixed-size frames are arithmetic, so any upload drags; the other
# -- strategies chunk at every size up front. Structural and sentence make only the
# -- chunks near the answer, but pack (and count) every chunk before it: with the
# -- answer at the end, the whole document at every size. Recursive and the peers
# -- chunk it whole. Each ceiling is the length under which that stays within about
# -- 3 s in the slowest unit (tokens, for all three), as measured in docs/performance.md
DRAG_CEILINGS = {"structural": 350_000, "sentence": 450_000, "recursive": 60_000}
DRAG_CEILING = 40_000  # a strategy not measured (the peers)


def drag_ceiling(strategy: str) -> int | None:
    """The document length (characters) from which ``strategy`` has no drag slider;
    None when every length drags."""
    if strategy == "fixed":
        return None
    return DRAG_CEILINGS.get(strategy, DRAG_CEILING)


def too_long_to_drag(text: str, strategy: str) -> str | None:
    """Why a document is too long for a drag slider under ``strategy`` (one line), or None."""
    ceiling = drag_ceiling(strategy)
    if ceiling is None or len(text) < ceiling:
        return None
    return (
        f"No drag slider for a document of {ceiling:,} characters or more with this "
        "strategy: every size would be chunked up front (fixed-size chunks drag at any "
        "length). The sidebar's slider still works."
    )


@dataclass(frozen=True, slots=True)
class DragWindow:
    """What a slider in the browser needs: the text around the answer and every
    frame's chunks that reach into it, offsets counted from the window's start."""

    text: str
    start: int  # the window's first character in the document
    end: int
    total: int  # the document's length in characters
    answer: tuple[int, int]  # in window offsets
    frames: list[Frame]  # as computed, in document offsets

    @property
    def note(self) -> str:
        """ "showing characters X–Y of Z" (1-based, inclusive) when windowed, else ""."""
        if self.start == 0 and self.end == self.total:
            return ""
        return f"showing characters {self.start + 1:,}–{self.end:,} of {self.total:,}"

    def clipped(self, frame: Frame) -> list[tuple[int, int, int, int]]:
        """The frame's chunks that reach into the window: (start, end, overlap start,
        chunk number), clipped to it. The number is 1-based as verdicts say it; a
        window drops the chunks before it, so a chunk's place in the list is not it."""
        lo, hi = self.start, self.end
        return [
            (max(s, lo) - lo, min(e, hi) - lo, max(o, lo) - lo, n)
            for n, (s, e, o) in enumerate(frame.boundaries, start=frame.first + 1)
            if min(s, o) < hi and e > lo
        ]

    def to_json(self) -> dict[str, Any]:
        """The payload as plain JSON. Per frame, ``first`` is the number of its first
        chunk in the window and ``bounds`` is flat (start, end, overlap start, ...):
        a hundred sizes of a long document's window stay a few tens of kilobytes."""
        frames = []
        for f in self.frames:
            clipped = self.clipped(f)
            frames.append(
                {
                    "size": f.size,
                    "intact": f.intact,
                    "verdict": f.verdict,
                    "first": clipped[0][3] if clipped else 1,
                    "bounds": [x for s, e, o, _ in clipped for x in (s, e, o)],
                }
            )
        return {
            "text": self.text,
            "note": self.note,
            "answer": list(self.answer),
            "frames": frames,
        }


def window_around(text: str, span: tuple[int, int], radius: int = WINDOW_CHARS) -> tuple[int, int]:
    """The characters ``radius`` either side of the answer's span, within the text."""
    return max(0, span[0] - radius), min(len(text), span[1] + radius)


def drag_window(
    text: str, span: tuple[int, int], frames: list[Frame], radius: int = WINDOW_CHARS
) -> DragWindow:
    """The frames seen through ``radius`` characters either side of the answer's span."""
    lo, hi = window_around(text, span, radius)
    return DragWindow(text[lo:hi], lo, hi, len(text), (span[0] - lo, span[1] - lo), frames)
