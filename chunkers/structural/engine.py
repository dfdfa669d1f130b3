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

from typing import NamedTuple

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
    parts: tuple[tuple[int, int], ...]


def _name(inner: object) -> str:
    return inner if isinstance(inner, str) else next(iter(inner))  # type: ignore[arg-type]


# the events that open a part of a top-level list or table
_PARTS = ("Item", "TableHead", "TableRow")


def _byte_ranges(text: str) -> list[list]:
    """[tag, start, end, level, attributes, parts] per top-level block, in UTF-8 bytes.

    Every Start event's range covers its whole element, so an event that starts
    before the current block's end is inside it: most events (the inline ones)
    cost one comparison, and no depth needs tracking."""
    blocks: list[list] = []
    block_end = part_end = -1
    parts: list | None = None  # the current block's parts, if it is a list or table
    for event, where in pyromark.events_with_range(text, options=OPTIONS):
        start = where["start"]
        if start < part_end:
            continue
        if start < block_end:  # inside the block, past its current part
            if parts is not None and type(event) is dict and event.get("Start") in _PARTS:
                part_end = where["end"]
                parts.append((start, part_end))
            continue
        if event == "Rule":
            blocks.append(["rule", start, where["end"], 0, False, []])
            block_end = part_end = where["end"]
            continue
        if type(event) is not dict or "Start" not in event:
            continue
        inner = event["Start"]
        name = _name(inner)
        level, attributes = 0, False
        if name == "Heading":
            heading = inner["Heading"]
            level = int(heading["level"][1])
            attributes = bool(heading["id"] or heading["classes"] or heading["attrs"])
        block_end = where["end"]
        parts = [] if name in ("List", "Table") else None
        part_end = start if parts is not None else block_end
        blocks.append(
            [_TAGS.get(name, "paragraph"), start, block_end, level, attributes, parts or []]
        )
        if parts is not None:
            blocks[-1][5] = parts
    return blocks


def _char_offsets(text: str, offsets: set[int]) -> dict[int, int]:
    """UTF-8 byte offsets -> character offsets (the engine counts bytes)."""
    data = text.encode("utf-8", "surrogatepass")
    out: dict[int, int] = {}
    chars = last = 0
    for b in sorted(offsets):
        chars += len(data[last:b].decode("utf-8", "surrogatepass"))
        out[b] = chars
        last = b
    return out


def top_level_blocks(text: str) -> list[RawBlock]:
    """The top-level blocks the engine finds, in text order, with character offsets."""
    raw = _byte_ranges(text)
    if text.isascii():
        return [RawBlock(t, s, e, lv, at, tuple(parts)) for t, s, e, lv, at, parts in raw]
    wanted = {o for b in raw for o in (b[1], b[2])}
    wanted.update(o for b in raw for part in b[5] for o in part)
    at = _char_offsets(text, wanted)
    return [
        RawBlock(t, at[s], at[e], lv, attr, tuple((at[a], at[b]) for a, b in parts))
        for t, s, e, lv, attr, parts in raw
    ]
