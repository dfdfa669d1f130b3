"""API reference: one endpoint per chunk, with its description, parameters and
first example; the endpoint line (``POST /v1/payments``) in the heading path of
every part.

An endpoint is an HTTP method and a path opening a line (in a heading, in
backticks, in a code block). It takes the heading just above it when that
heading's section names no endpoint before it, so "Create a payment" and its
``POST /v1/payments`` are one unit, titled by both.
"""

from __future__ import annotations

from ..doctype import HEADING, endpoint_of
from ..options import ChunkOptions
from ..spans import Draft
from ..text import SourceText
from .units import Heading, Mark, heading_stack, lines, pack_units, titles

GAP_EXCUSE = "text outside the endpoints"
EXCUSE = "an endpoint"


def api_marks(text: str) -> list[Mark]:
    marks: list[Mark] = []
    stack: list[Heading] = []
    adoptable: Heading | None = None  # the last heading, while its section names no endpoint
    # the endpoint of the open unit, and the heading level that ends it: its own
    # example repeats the endpoint line, and stays in it
    named, named_level = "", 0
    for ln in lines(text):
        name = endpoint_of(ln.text, ln.in_fence)
        h = None if ln.in_fence else HEADING.match(ln.text)
        if name:
            if h is not None:  # the endpoint is the heading
                level = len(h[1])
                stack = [s for s in stack if s.level < level]
                marks.append(Mark(ln.start, (*titles(stack), name), level))
            elif name == named:
                continue
            elif adoptable is not None:
                path = (*titles(stack[:-1]), adoptable.title, name)
                marks.append(Mark(adoptable.start, path, adoptable.level))
            else:
                marks.append(Mark(ln.start, (*titles(stack), name)))
            adoptable, named, named_level = None, name, marks[-1].level
            continue
        if h is not None:
            heading = Heading(ln.start, len(h[1]), h[2].strip())
            stack = heading_stack(stack, heading)
            adoptable = heading
            if heading.level <= named_level:
                named, named_level = "", 0
    return marks


def api_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    return pack_units(src, api_marks(src.norm), opts, EXCUSE, GAP_EXCUSE)
