"""The CommonMark engine: where every top-level block begins and ends.

Block recognition is pulldown-cmark's (through pyromark), a compiled CommonMark
parser with GFM tables, footnote definitions, YAML front matter and heading
attributes switched on. This module only walks its event stream and keeps what
the chunker needs: each top-level block's kind and source range, a heading's
level, and the parts of lists (their top-level items) and tables (their
rows). Every rule of what a block is lives in the engine; blocks.py derives
sections, captions and admonitions from these ranges.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
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
    parts: Sequence[tuple[int, int]]


def _name(inner: str | Mapping[str, object]) -> str:
    return inner if isinstance(inner, str) else next(iter(inner))


# the events that open a part of a top-level list or table
_PARTS = ("Item", "TableHead", "TableRow")


def _continuations(text: str) -> list[int]:
    """Where text's UTF-8 continuation bytes (0b10xxxxxx) lie: the engine's byte
    offset b is character offset ``b - bisect_left(continuations, b)``. Empty for
    ASCII text, whose byte offsets are its character offsets."""
    if text.isascii():
        return []
    data = np.frombuffer(text.encode("utf-8", "surrogatepass"), np.uint8)
    return np.flatnonzero((data & 0xC0) == 0x80).tolist()


def top_level_blocks(text: str) -> list[RawBlock]:
    """The top-level blocks the engine finds, in text order, with character offsets.

    Every Start event's range covers its whole element, so an event that starts
    before the current block's end is inside it: most events (the inline ones)
    cost one comparison, and no depth needs tracking. The walk compares the
    engine's byte offsets; what it keeps is converted to characters as it goes.

    -- why convert as it goes -- converting every offset at the end (a dict of
    -- them, then each block built again) costs several times what one bisect per
    -- kept offset costs (on ASCII text, a search of an empty list).
    """
    cont = _continuations(text)
    blocks: list[RawBlock] = []
    block_end = part_end = -1
    parts: list[tuple[int, int]] | None = None  # the current block's, if a list or table
    for event, where in pyromark.events_with_range(text, options=OPTIONS):
        start = where["start"]
        if start < part_end:
            continue
        if start < block_end:  # inside the block, past its current part
            if parts is not None and type(event) is dict and event.get("Start") in _PARTS:
                part_end = where["end"]
                parts.append(
                    (start - bisect_left(cont, start), part_end - bisect_left(cont, part_end))
                )
            continue
        if event == "Rule":
            tag, name = "rule", ""
        elif type(event) is not dict or "Start" not in event:
            continue
        else:
            inner = event["Start"]
            name = _name(inner)
            tag = _TAGS.get(name, "paragraph")
        level, attributes = 0, False
        if name == "Heading" and not isinstance(inner, str) and "Heading" in inner:
            heading = inner["Heading"]
            level = int(heading["level"][1])
            attributes = bool(heading["id"] or heading["classes"] or heading["attrs"])
        block_end = where["end"]
        parts = [] if name in ("List", "Table") else None
        part_end = start if parts is not None else block_end
        # (the block keeps this list: its parts are added as the events come)
        kept = () if parts is None else parts
        s, e = start - bisect_left(cont, start), block_end - bisect_left(cont, block_end)
        blocks.append(RawBlock(tag, s, e, level, attributes, kept))
    return blocks


class InnerBlock(NamedTuple):
    tag: str  # as RawBlock's, and "item" for a list item
    start: int  # character offsets into the whole text
    end: int
    depth: int  # 0 for the outermost blocks of the span, 1 inside them, ...


def inner_blocks(text: str, s: int, e: int) -> list[InnerBlock]:
    """Every block in text[s:e], read on its own, at every depth, in text order.

    The document's walk keeps top-level blocks only; what lies inside a list, a
    quote or a footnote (an item's paragraphs and fences) is read here, on
    demand: only a container too big for a chunk, or the overlap taken from one,
    needs it. A span whose first line is indented (a block in a tab's body) is
    read without that indentation."""
    line_end = text.find("\n", s, e)
    first_line = text[s : e if line_end < 0 else line_end]
    indent = len(first_line) - len(first_line.lstrip(" "))
    part, back = dedent(text, s, e, indent) if indent else (text[s:e], lambda p: s + p)
    cont = _continuations(part)
    found: list[InnerBlock] = []
    depth = 0
    for event, where in pyromark.events_with_range(part, options=OPTIONS):
        if type(event) is not dict:
            tag = "rule" if event == "Rule" else None
        elif "Start" in event:
            name = _name(event["Start"])
            tag = _TAGS.get(name, "item") if name in _TAGS or name == "Item" else None
        else:
            if "End" in event and (_name(event["End"]) in _TAGS or event["End"] == "Item"):
                depth -= 1
            continue
        if tag is not None:
            a, z = where["start"], where["end"]
            a, z = back(a - bisect_left(cont, a)), back(z - bisect_left(cont, z))
            found.append(InnerBlock(tag, a, z, depth))
            depth += tag != "rule"
    return found


# up to n columns of indentation: spaces, or a tab
_INDENTS: dict[int, re.Pattern[str]] = {}


def dedent(text: str, s: int, e: int, columns: int) -> tuple[str, Callable[[int], int]]:
    """text[s:e] with up to ``columns`` of each line's indentation taken off (a
    tab counts as reaching them), and the map from an offset in it back to the
    offset in text."""
    indent = _INDENTS.get(columns)
    if indent is None:
        indent = _INDENTS[columns] = re.compile(rf" {{0,{columns - 1}}}(?:\t| )?")
    kept: list[str] = []
    starts: list[int] = []  # each line's start in the dedented text
    origins: list[int] = []  # and in text
    at = 0
    pos = s
    while True:
        nl = text.find("\n", pos, e)
        z = e if nl < 0 else nl
        cut = indent.match(text, pos, z).end()  # type: ignore[union-attr]
        kept.append(text[cut:z])
        starts.append(at)
        origins.append(cut)
        at += z - cut + 1
        if nl < 0:
            break
        pos = nl + 1

    def back(p: int) -> int:
        k = bisect_right(starts, p) - 1
        return origins[k] + p - starts[k]

    return "\n".join(kept), back
