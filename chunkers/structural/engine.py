"""The CommonMark engine: where every top-level block begins and ends.

Block recognition is pulldown-cmark's (through pyromark), a compiled CommonMark
parser with GFM tables, footnote definitions, YAML front matter and heading
attributes switched on. This module only walks its event stream and keeps what
the chunker needs: each top-level block's kind and source range, a heading's
level, and the inner seams of lists (their top-level items) and tables (their
rows). Every rule of what a block is lives in the engine; blocks.py derives
sections, captions and admonitions from these ranges.
"""

from __future__ import annotations

from itertools import chain
from typing import NamedTuple

import numpy as np
import pyromark

_O = pyromark.Options
OPTIONS = (
    _O.ENABLE_TABLES
    | _O.ENABLE_FOOTNOTES
    | _O.ENABLE_HEADING_ATTRIBUTES
    | _O.ENABLE_YAML_STYLE_METADATA_BLOCKS
)

# the engine's name for a top-level block -> the chunker's
_TAGS = {
    "Paragraph": "paragraph",
    "Heading": "heading",
    "List": "list",
    "Table": "table",
    "HtmlBlock": "html",
    "CodeBlock": "code",
    "BlockQuote": "quote",
    "FootnoteDefinition": "footnote",
    "MetadataBlock": "metadata",
    "DefinitionList": "list",
    "DisplayMath": "code",
}


class RawBlock(NamedTuple):
    tag: str  # paragraph, heading, list, table, html, code, quote, footnote, metadata, rule
    start: int  # character offsets of the engine's range (trailing newlines included)
    end: int
    level: int  # a heading's level (0 for other blocks)
    attributes: bool  # a heading with an attribute block ({ #id .class })
    # list: each top-level item's range; table: the head's range, then each row's
    seams: list[tuple[int, int]]


# the events that open a seam of a top-level list or table
_SEAMS = ("Item", "TableHead", "TableRow")


def top_level_blocks(text: str) -> list[RawBlock]:
    """The top-level blocks the engine finds, in text order, with character offsets."""
    blocks = _walk(text)
    if text.isascii():  # the engine counts UTF-8 bytes: in ASCII, characters
        return blocks
    at = _char_offsets(text, [o for b in blocks for o in (b.start, b.end, *chain(*b.seams))])
    return [
        RawBlock(tag, at[s], at[e], level, attributes, [(at[a], at[z]) for a, z in seams])
        for tag, s, e, level, attributes, seams in blocks
    ]


def _walk(text: str) -> list[RawBlock]:
    """The top-level blocks, in UTF-8 byte offsets.

    Every Start event's range covers its whole element, so an event that starts
    before the current block's end is inside it: most events (the inline ones)
    cost one comparison, and no depth needs tracking."""
    blocks: list[RawBlock] = []
    block_end = seam_end = -1
    seams: list[tuple[int, int]] = []  # the current block's, if it is a list or a table
    for event, where in pyromark.events_with_range(text, options=OPTIONS):
        start = where["start"]
        if start < seam_end:
            continue
        if start < block_end:  # inside the block, past its current seam
            if type(event) is dict and event.get("Start") in _SEAMS:
                seam_end = where["end"]
                seams.append((start, seam_end))
            continue
        if event == "Rule":
            block_end = seam_end = where["end"]
            blocks.append(RawBlock("rule", start, block_end, 0, False, []))
            continue
        if type(event) is not dict or "Start" not in event:
            continue
        inner = event["Start"]
        name = inner if type(inner) is str else next(iter(inner))
        level, attributes = 0, False
        if name == "Heading":
            heading = inner["Heading"]
            level = int(heading["level"][1])
            attributes = bool(heading["id"] or heading["classes"] or heading["attrs"])
        block_end = where["end"]
        seams = []
        # a list's or a table's seams follow; any other block is skipped whole
        seam_end = start if name in ("List", "Table") else block_end
        blocks.append(
            RawBlock(_TAGS.get(name, "paragraph"), start, block_end, level, attributes, seams)
        )
    return blocks


def _char_offsets(text: str, offsets: list[int]) -> dict[int, int]:
    """UTF-8 byte offset -> character offset: the offset less the continuation
    bytes before it (the engine counts bytes)."""
    data = np.frombuffer(text.encode("utf-8"), np.uint8)
    continuation = np.flatnonzero((data & 0xC0) == 0x80)
    at = np.array(offsets, dtype=np.int64)
    return dict(zip(offsets, (at - np.searchsorted(continuation, at)).tolist(), strict=True))
