"""Per-size frames for dragging the chunk size: where every chunk starts and ends,
and the survival verdict, at each size of a range, computed once so a slider can
redraw any of them without asking again.

The chunks come from the sweep the CLI's survival uses (parse once, pack per size)
and the verdict from DocumentLayout.survival, the one the CLI and the app print.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from chunkers import ParsedDocument, get_strategy

from .survival import DocumentLayout, _chunkings, _options, _overlaps, answer_problem


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


def drag_frames(
    text: str,
    answer: str,
    strategy: str,
    sizes: Iterable[int],
    *,
    unit: str,
    overlap: int = 0,
    overlap_fraction: float | None = None,
    parsed: ParsedDocument | None = None,
    **opts: Any,
) -> list[Frame]:
    """The frame at each size. An answer missing from the text is no error here:
    every frame's verdict says so (the one line answer_problem gives), intact False."""
    get_strategy(strategy)
    sizes = [int(s) for s in sizes]
    overlaps = _overlaps(sizes, overlap, overlap_fraction)
    options = _options(sizes, overlaps, unit, opts)  # validates every size first
    missing = answer_problem(text, answer)
    frames: list[Frame] = []
    chunkings = _chunkings(text, strategy, options, parsed)
    for size, over, chunks in zip(sizes, overlaps, chunkings, strict=True):
        bounds = [
            (c.start, c.end, c.overlap_start if c.overlap_prefix else c.start) for c in chunks
        ]
        if missing is not None:
            frames.append(Frame(size, over, bounds, False, missing, []))
            continue
        surv = DocumentLayout(text, chunks).survival(answer)
        pieces = [surv.chunk_index] if surv.intact else list(surv.pieces)
        frames.append(Frame(size, over, bounds, surv.intact, surv.verdict, pieces))
    return frames
