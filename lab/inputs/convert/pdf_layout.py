"""A PDF page's lines as markdown: the order they are read in, which are headings,
where paragraphs break."""

from __future__ import annotations

import re
from collections import Counter

from lab.inputs.convert.hyphens import compounds, join_broken_words
from lab.inputs.convert.pdf_order import Box, reading_order
from lab.inputs.running import line_key, running_lines

_HEADING_RATIO = 1.15  # a line this much larger than the body text is a heading
_PLACE = 4.0  # points: lines whose tops are this close sit at the same place

# a page's items: (top, text, font size, height, bold); size 0 for a table
Item = tuple[float, str, float, float, bool]
# a line: its item, its box, and the indices of its characters in pdfium's text page
Line = tuple[Item, Box, range]


def with_tables(lines: list[Line], tables: list[tuple[Box, str]]) -> list[Item]:
    """The page's lines outside its tables, and each table as one item, in reading
    order (columns one after the other)."""

    def inside(box: Box, table: Box) -> bool:
        middle_y, middle_x = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
        return table[0] <= middle_y <= table[1] and table[2] <= middle_x <= table[3]

    entries = [(item, box) for item, box, _ in lines if not any(inside(box, t) for t, _ in tables)]
    entries += [((box[0], markdown, 0.0, 0.0, False), box) for box, markdown in tables]
    return reading_order(entries)


def title_key(text: str) -> str:
    """A title as a bookmark and a line are matched: spacing and case aside."""
    return " ".join(text.split()).casefold()


def with_headings(
    pages: list[list[Item]], outline: dict[int, dict[str, int]] | None = None
) -> list[str]:
    """Markdown per page. The body size is the size most characters are set in,
    over the whole document (a page of small print must not make its text a
    heading); larger sizes are headings, the largest ### (under ## Page N), and
    bold lines at the body's size below them. A line that recurs at one place on
    many pages (a running header or footer) is never a heading. A line that is a
    bookmark of its page (``outline``: per page, title and depth) is a heading at
    its bookmark's depth, whatever its type."""
    placed = [
        {n: (line_key(items[n][1]), round(items[n][0] / _PLACE)) for n in _margins(items)}
        for items in pages
    ]
    found = running_lines([page.values() for page in placed])
    running = [{n for n, pair in page.items() if pair in found} for page in placed]
    weights: Counter[float] = Counter()
    for items, skip in zip(pages, running, strict=True):
        for n, item in enumerate(items):
            if item[2] and n not in skip:
                weights[item[2]] += len(item[1])
    body = weights.most_common(1)[0][0] if weights else 0.0
    larger = sorted({i[2] for items in pages for i in items if i[2] >= body * _HEADING_RATIO})
    levels = {size: min(3 + n, 6) for n, size in enumerate(reversed(larger))}
    style = _Style(levels, body, min(3 + len(larger), 6))
    lines = [item[1] for items in pages for item in items if item[2]]
    # the compounds matter only to a word broken at a line's end: most documents have none
    whole = compounds(lines) if any(line.endswith("-") for line in lines) else frozenset()
    outline = outline or {}
    return [
        _page_markdown(items, style, whole, skip, outline.get(n, {}))
        for n, (items, skip) in enumerate(zip(pages, running, strict=True))
    ]


_EDGE = 2  # a running line is among the first two or the last two lines of a page
_NUMBERED = re.compile(r"#(\.#)*\.? ")  # "1. Section 1", "2.3 Wiring": a numbered heading


def _margins(items: list[Item]) -> list[int]:
    """The lines that may be a running header or footer: the page's first and last
    lines, top to bottom, unless they read as a sentence or a numbered heading."""
    lines = sorted((item[0], n) for n, item in enumerate(items) if item[2])
    edge = lines[:_EDGE] + lines[max(_EDGE, len(lines) - _EDGE) :]
    return [
        n
        for _, n in edge
        if not _NUMBERED.match(line_key(items[n][1]))
        and not (items[n][1].endswith((".", "!", "?")) and len(items[n][1].split()) >= 5)
    ]


class _Style:
    """How the document sets its headings: a level for each larger size, the body's
    size, and the level of a bold line at the body's size."""

    def __init__(self, levels: dict[float, int], body: float, bold_level: int) -> None:
        self.levels, self.body, self.bold_level = levels, body, bold_level

    def level(self, item: Item) -> int | None:
        size, bold = item[2], item[4]
        if size in self.levels:
            return self.levels[size]
        if bold and self.body and size >= self.body * 0.95:
            return self.bold_level
        return None


def _line_level(
    style: _Style, item: Item, running: bool, bookmarks: dict[str, int]
) -> tuple[int | None, bool]:
    """A line's heading level, if it may be a heading, and whether the document's
    own outline names it (then it is one, whatever its type or length)."""
    marked = bookmarks.get(title_key(item[1])) if bookmarks else None
    if marked is not None:
        return min(3 + marked, 6), True
    # a running header or footer is text, never a heading
    return (None if running else style.level(item)), False


_MAX_WORDS = 9  # a heading is short: a line of ten words or more is text
_LETTER = re.compile(r"[^\W\d_]")


def reads_as_heading(text: str, following: str | None) -> bool:
    """A heading says what follows in a few words: it has a letter, is short, does
    not end like a clause (a comma, a semicolon) or a sentence of several words, and
    the next line does not carry its sentence on (a lowercase start after no stop)."""
    words = text.split()
    if not _LETTER.search(text) or len(words) > _MAX_WORDS or text.endswith((",", ";")):
        return False
    if text.endswith(".") and len(words) > 4:
        return False
    runs_on = not text.endswith((".", ":", "?", "!")) and bool(following)
    return not (runs_on and following is not None and following[:1].islower())


def _page_markdown(
    items: list[Item],
    style: _Style,
    whole: frozenset[str],
    running: set[int],
    bookmarks: dict[str, int],
) -> str:
    blocks: list[str] = []
    block: list[str] = []
    heading: list[str] = []  # a heading's lines so far (a title may wrap)
    # the pending heading's level, size, weight, and whether the outline names it
    heading_at: tuple[int, float, bool, bool] | None = None
    previous_bottom: float | None = None

    def flush() -> None:
        if block:
            blocks.append("\n".join(join_broken_words(block, whole)))
            block.clear()

    def settle(following: str | None) -> None:
        """The pending heading lines: a heading, or the start of a paragraph."""
        nonlocal heading_at
        if not heading or heading_at is None:
            return
        text = " ".join(heading)
        if heading_at[3] or reads_as_heading(text, following):
            flush()
            blocks.append(f"{'#' * heading_at[0]} {text}")
        else:
            block.extend(heading)
        heading.clear()
        heading_at = None

    for n, (top, text, size, height, bold) in enumerate(items):
        if not size:  # a table
            settle(None)
            flush()
            if text:
                blocks.append(text)
            previous_bottom = None
            continue
        gap = None if previous_bottom is None else top - previous_bottom
        level, trusted = _line_level(style, items[n], n in running, bookmarks)
        if level is not None:
            same = heading_at is not None and heading_at[1:3] == (size, bold)
            if same and not trusted and gap is not None and gap <= 0.8 * height:
                heading.append(text)  # the heading's next line
            else:
                settle(text)
                heading.append(text)
                heading_at = (level, size, bold, trusted)
            previous_bottom = top + height
            continue
        settle(text)
        if gap is not None and gap > 0.8 * height:
            flush()  # a wider gap than between a paragraph's lines: a new paragraph
        block.append(text)
        previous_bottom = top + height
    settle(None)
    flush()
    return "\n\n".join(blocks)
