"""A PDF page's lines as markdown: the order they are read in, which are headings,
where paragraphs break."""

from __future__ import annotations

from collections import Counter

from lab.inputs.convert.hyphens import compounds, join_broken_words
from lab.inputs.convert.pdf_order import reading_order

_HEADING_RATIO = 1.15  # a line this much larger than the body text is a heading

# a page's items, top to bottom: (top, text, font size, height); size 0 for a table
Item = tuple[float, str, float, float]
# a line's box on the page as shown, from its top left corner: (top, bottom, left, right)
Box = tuple[float, float, float, float]
# a line: its item, its box, and the indices of its characters in pdfium's text page
Line = tuple[Item, Box, range]


def with_tables(lines: list[Line], tables: list[tuple[Box, str]]) -> list[Item]:
    """The page's lines outside its tables, and each table as one item, in reading
    order (columns one after the other)."""

    def inside(box: Box, table: Box) -> bool:
        middle_y, middle_x = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
        return table[0] <= middle_y <= table[1] and table[2] <= middle_x <= table[3]

    entries = [(item, box) for item, box, _ in lines if not any(inside(box, t) for t, _ in tables)]
    entries += [((box[0], markdown, 0.0, 0.0), box) for box, markdown in tables]
    return reading_order(entries)


def with_headings(pages: list[list[Item]]) -> list[str]:
    """Markdown per page. The body size is the size most characters are set in,
    over the whole document (a page of small print must not make its text a
    heading); larger sizes are headings, the largest ### (under ## Page N)."""
    weights: Counter[float] = Counter()
    for items in pages:
        for item in items:
            if item[2]:
                weights[item[2]] += len(item[1])
    body = weights.most_common(1)[0][0] if weights else 0.0
    larger = sorted({i[2] for items in pages for i in items if i[2] >= body * _HEADING_RATIO})
    levels = {size: min(3 + n, 6) for n, size in enumerate(reversed(larger))}
    whole = compounds(item[1] for items in pages for item in items if item[2])
    return [_page_markdown(items, levels, whole) for items in pages]


def _page_markdown(items: list[Item], levels: dict[float, int], whole: frozenset[str]) -> str:
    blocks: list[str] = []
    block: list[str] = []
    previous_bottom: float | None = None

    def flush() -> None:
        if block:
            blocks.append("\n".join(join_broken_words(block, whole)))
            block.clear()

    for top, text, size, height in items:
        if not size:  # a table
            flush()
            if text:
                blocks.append(text)
            previous_bottom = None
            continue
        if size in levels:
            flush()
            blocks.append(f"{'#' * levels[size]} {text}")
            previous_bottom = top + height
            continue
        if previous_bottom is not None and top - previous_bottom > 0.8 * height:
            flush()  # a wider gap than between a paragraph's lines: a new paragraph
        block.append(text)
        previous_bottom = top + height
    flush()
    return "\n\n".join(blocks)
