"""FAQ: one question and its answer per chunk, the question in the heading path.

A question is a heading that asks one, or a "Q:" line. A long answer is cut at
its own seams, and the question leads every part (in its heading path).
"""

from __future__ import annotations

from ..doctype import HEADING, QUESTION_HEADING, QUESTION_LINE
from ..options import ChunkOptions
from ..spans import Draft
from ..text import SourceText
from .units import Heading, Mark, heading_stack, lines, pack_units, titles

GAP_EXCUSE = "text outside the questions"
EXCUSE = "a question and its answer"


def faq_marks(text: str) -> list[Mark]:
    marks: list[Mark] = []
    stack: list[Heading] = []
    for ln in lines(text):
        if ln.in_fence:
            continue
        if m := QUESTION_HEADING.match(ln.text):
            level = len(ln.text.lstrip(" ")) - len(ln.text.lstrip(" ").lstrip("#"))
            stack = [s for s in stack if s.level < level]
            marks.append(Mark(ln.start, (*titles(stack), m["q"].strip()), level))
        elif h := HEADING.match(ln.text):
            stack = heading_stack(stack, Heading(ln.start, len(h[1]), h[2].strip()))
        elif m := QUESTION_LINE.match(ln.text):
            marks.append(Mark(ln.start, (*titles(stack), m["q"].strip())))
    return marks


def faq_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    return pack_units(src, faq_marks(src.norm), opts, EXCUSE, GAP_EXCUSE)
