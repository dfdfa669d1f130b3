"""Which page a piece of text is on: the one page rule every strategy uses.

A page is marked by a heading whose title starts "Page N" (``## Page 3``: what a
converted PDF writes at each page's top, and what a transcription often does). The
structural chunker reads the marks as it parses headings (a section's page is its
nearest marked heading); every other strategy, which sees no headings, takes the
page of a chunk's first and last character from the marks by offset.
"""

from __future__ import annotations

import re
from bisect import bisect_right

_PAGE = re.compile(r"page\s+(\d+)\b", re.I)
# a page mark as a line: an ATX heading (up to three spaces in) titled "Page N"
_MARK = re.compile(r"^ {0,3}#{1,6}[ \t]+page\s+(\d+)\b", re.I | re.M)

PageMarks = tuple[tuple[int, ...], tuple[int, ...]]  # (mark offsets, page numbers)


def page_number(heading: str) -> int | None:
    """The page a heading's title marks ("Page 3", "page 3 of 12"), if any."""
    m = _PAGE.match(heading)
    return int(m.group(1)) if m else None


def page_marks(text: str) -> PageMarks:
    """Where each page mark starts in ``text``, and its page number."""
    found = [(m.start(), int(m.group(1))) for m in _MARK.finditer(text)]
    return tuple(at for at, _ in found), tuple(page for _, page in found)


def page_at(marks: PageMarks, offset: int) -> int | None:
    """The page of the character at ``offset``: the last mark at or before it."""
    at = bisect_right(marks[0], offset) - 1
    return marks[1][at] if at >= 0 else None


def page_span(marks: PageMarks, start: int, end: int) -> tuple[int | None, int | None]:
    """A span's first and last page (the page of its last character)."""
    return page_at(marks, start), page_at(marks, max(start, end - 1))
