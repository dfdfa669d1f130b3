"""Transcript: chunks start at speaker turns, whole turns packed up to the size.

A turn opens with its speaker's line ("Chair:", "[00:12] Ms Okafor:", or a name
alone in capitals); consecutive turns of a section share a chunk while they
fit, and the chunk's speakers are its heading path. A turn too long for a chunk
is cut at its sentences (the structural chunker's seams), its speaker leading
every part.
"""

from __future__ import annotations

from ..doctype import HEADING, SPEAKER_CAPS, SPEAKER_LINE, is_speaker
from ..options import ChunkOptions
from ..spans import Draft
from ..text import SourceText
from .units import Heading, Mark, heading_stack, lines, pack_units, titles

GAP_EXCUSE = "text outside the speaker turns"
EXCUSE = "a speaker turn"


def transcript_marks(text: str) -> list[Mark]:
    marks: list[Mark] = []
    stack: list[Heading] = []
    blank_before = True
    for ln in lines(text):
        if ln.in_fence:
            blank_before = False
            continue
        if h := HEADING.match(ln.text):
            stack = heading_stack(stack, Heading(ln.start, len(h[1]), h[2].strip()))
        elif (m := SPEAKER_LINE.match(ln.text)) and is_speaker(m["name"]):
            marks.append(Mark(ln.start, (*titles(stack), m["name"]), group=titles(stack)))
        elif blank_before and (m := SPEAKER_CAPS.match(ln.text)) and is_speaker(m["name"]):
            marks.append(Mark(ln.start, (*titles(stack), m["name"].title()), group=titles(stack)))
        blank_before = not ln.text.strip()
    return marks


def speakers_path(paths: list[tuple[str, ...]]) -> tuple[str, ...]:
    """A chunk of several turns: its section, then its speakers in the order they speak."""
    names = list(dict.fromkeys(p[-1] for p in paths))
    return (*paths[0][:-1], ", ".join(names))


def transcript_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    return pack_units(src, transcript_marks(src.norm), opts, EXCUSE, GAP_EXCUSE, speakers_path)
