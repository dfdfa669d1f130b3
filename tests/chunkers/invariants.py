"""The structural chunker's packing invariants, as checks a test can run on any text.

Each check returns what breaks it ([] when it holds), so a test can say which
chunk of which document failed. Texts are given with "\\n" line breaks: chunk
offsets are then the parse's offsets.

The trust check has its own idea of what lies under a transcribed heading,
taken from the headings as written (their hashes, or a setext underline), not
from the parser's sections: a transcribed heading covers everything up to the
next heading written at its level or above, whatever level the parser gave it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from functools import lru_cache

from chunkers import Chunk, ChunkOptions
from chunkers.structural.blocks import (
    TITLES,
    ParsedDocument,
    is_lead,
    is_transcribed,
    parse,
    plain_title,
)
from chunkers.structural.engine import inner_blocks
from chunkers.text import count_units

# each check reads the document's blocks: parsed once for all of them
_parsed = lru_cache(maxsize=4)(parse)

_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]|$)")
# (the engine takes a separator with blanks among its dashes: "| ---- -----|")
_TABLE_SEPARATOR = re.compile(r"[\s|:]*-[\s|:-]*$")
_UNDERLINE = re.compile(r" {0,3}(?:=+|-+)[ \t]*$")  # a setext heading's: its text is the unit


def written_level(line: str) -> int:
    """A heading's level as written: its hashes, or 1 / 2 for a setext underline."""
    m = _ATX.match(line)
    if m:
        return len(m.group(1))
    underline = line.rstrip().splitlines()[-1].strip() if "\n" in line else ""
    return 1 if underline.startswith("=") else 2


def transcribed_mask(text: str, doc: ParsedDocument) -> bytearray:
    """1 for every character under a transcribed heading (its own line included)."""
    mask = bytearray(len(text) + 1)
    scope: int | None = None  # the written level of the open transcribed heading
    scope_start = 0
    headings = [b for b in doc.blocks if b.kind == "heading"]
    for block in headings:
        level = written_level(text[block.start : block.end])
        if scope is not None and level <= scope:
            mask[scope_start : block.start] = b"\x01" * (block.start - scope_start)
            scope = None
        title = doc.sections[block.section].heading
        if scope is None and is_transcribed(title):
            scope, scope_start = level, block.start
    if scope is not None:
        mask[scope_start:] = b"\x01" * (len(mask) - scope_start)
    return mask


def _has_text(text: str, mask: bytearray, s: int, e: int, flag: int) -> bool:
    return any(mask[i] == flag and not text[i].isspace() for i in range(s, e))


def trust_breaks(text: str, chunks: list[Chunk]) -> list[str]:
    """A chunk is transcribed exactly when some of its text lies under a
    transcribed heading; no overlap prefix holds or reaches transcribed text."""
    mask = transcribed_mask(text, _parsed(text))
    out = []
    for prev, c in zip([None, *chunks[:-1]], chunks, strict=True):
        under = _has_text(text, mask, c.start, c.end, 1)
        if c.transcribed != under:
            out.append(f"chunk {c.index}: transcribed={c.transcribed}, text under one: {under}")
        if c.overlap_prefix and (
            c.transcribed
            or (prev is not None and prev.transcribed)
            or _has_text(text, mask, c.overlap_start, c.overlap_end, 1)
        ):
            out.append(f"chunk {c.index}: overlap crosses transcribed text")
    return out


def heading_context_breaks(text: str, chunks: list[Chunk]) -> list[str]:
    """Every heading above a chunk's first character (the heading path of its first
    block's section) is in the chunk's heading_path or in its body."""
    doc = _parsed(text)
    out = []
    for c in chunks:
        b = bisect_right(doc.starts, c.start) - 1
        path = doc.sections[doc.block_sections[b]].heading_path if b >= 0 else ()
        # (a heading in the body is named as a reader sees it: without link targets)
        body = c.body + "\n" + plain_title(c.body)
        missing = [h for h in path if h not in c.heading_path and h not in body]
        if missing:
            out.append(f"chunk {c.index} at {c.start}: {missing} named nowhere ({c.heading_path})")
    return out


# an independent count of a text in tokens (the reference tokenizer's), for
# checking chunks measured in tokens; None: the chunk's own length is trusted
Count = Callable[[str], int] | None


def _length(c: Chunk, count: Count) -> int:
    return count(c.body) if count else c.length


def runt_breaks(chunks: list[Chunk], opts: ChunkOptions, count: Count = None) -> list[str]:
    """No runt without an excuse, unless it is the only chunk."""
    return [
        f"chunk {c.index}: runt of {_length(c, count)} without an excuse"
        for c in chunks
        if _length(c, count) < opts.floor and len(chunks) > 1 and not c.runt_excuse
    ]


def _one_unit(c: Chunk, opts: ChunkOptions) -> bool:
    """The chunk is one unit with no inner seam, under the titles it opens with (a
    heading travels with what follows it): one line (a table row, a long line or
    word), or a table's head and first row (the head is never left alone)."""
    lines = [ln for ln in c.body.split("\n") if ln.strip() and not _UNDERLINE.match(ln)]
    while len(lines) > 1 and (_ATX.match(lines[0]) or is_lead(lines[0], 0, len(lines[0]))):
        lines.pop(0)
    if len(lines) <= 1:
        return True
    return len(lines) <= 3 and _TABLE_SEPARATOR.match(lines[1]) is not None


def over_max_breaks(chunks: list[Chunk], opts: ChunkOptions, count: Count = None) -> list[str]:
    """No chunk passes the effective maximum unless it is one unit with no inner seam."""
    return [
        f"chunk {c.index}: {_length(c, count)} > {opts.effective_max}: {c.body[:60]!r}"
        for c in chunks
        if _length(c, count) > opts.effective_max and not _one_unit(c, opts)
    ]


# what a chunk never ends with while text follows (front matter ends none: it is no title)
_TRAVELLING = tuple(k for k in TITLES if k != "metadata")


def ending_breaks(text: str, chunks: list[Chunk], opts: ChunkOptions) -> list[str]:
    """No chunk ends with what travels with the text after it (a heading, a tab or
    admonition title, anchors, a lead-in) while that text follows in the document.

    Excused, as the rules say: what follows has no seam that lets its first piece
    fit beside them (one unit), or is text of the other trust (_excused)."""
    doc = _parsed(text)
    last_text = len(text.rstrip())
    out = []
    for c, nxt in zip(chunks, chunks[1:], strict=False):
        if c.end >= last_text:
            continue
        b = bisect_right(doc.starts, c.end - 1) - 1
        if b < 0:
            continue
        kind, start, end = doc.kinds[b], doc.starts[b], doc.ends[b]
        if end == c.end:  # the chunk ends with a whole block
            if kind not in _TRAVELLING and b not in doc.leads:
                continue
            start = _lead_run_start(doc, b)
        elif kind in _CUT_AT_LEADS:  # inside a block: its last lines
            start = _leading_lines(text, c.start, c.end)
            if start == c.end:
                continue
        else:  # (a line of code, HTML or a table introduces nothing)
            continue
        if _excused(doc, text, start, c, nxt, opts):
            continue
        out.append(f"chunk {c.index} ends with {text[start : c.end][-60:]!r}")
    return out


# the blocks whose inner parts may introduce the next one (a fence's lines do not)
_CUT_AT_LEADS = ("prose", "list", "quote", "admonition", "footnote")


def _leading_lines(text: str, s: int, e: int) -> int:
    """Where the leads that end text[s:e] begin (e if it ends with none): the
    blank-line runs (paragraphs, titles) at its end that are leads."""
    start = end = e
    while start > s:
        gap = text.rfind("\n\n", s, end)
        prev = s if gap < 0 else gap + 2
        while prev < end and text[prev].isspace():
            prev += 1
        if prev >= end or not is_lead(text, prev, end):
            break
        start = prev
        end = len(text[:prev].rstrip())
    return start


def _lead_run_start(doc: ParsedDocument, b: int) -> int:
    """Where the titles and leads that end at block b begin."""
    while b > 0 and (doc.kinds[b - 1] in _TRAVELLING or b - 1 in doc.leads):
        b -= 1
    return doc.starts[b]


def _excused(doc: ParsedDocument, text: str, start: int, c: Chunk, nxt: Chunk, opts) -> bool:
    """The rules' one exception: what follows has no seam that lets a first piece of
    it fit beside the leads within the effective maximum (its first unit, a word, a
    heading, a table's head and first row or a linearised row, is too long). And
    trusted and transcribed text never share a chunk, so a heading whose text is of
    the other trust stays behind."""

    def measure(a: int, z: int) -> int:
        return z - a if opts.unit == "chars" else count_units(text[a:z], opts.unit, opts.tokenizer)

    if c.transcribed != nxt.transcribed:  # trusted and transcribed text never mix
        return True
    b = bisect_right(doc.starts, nxt.start) - 1
    if c.transcribed and not doc.sections[doc.block_sections[b]].transcribed:
        return True
    return measure(max(start, c.start), _first_unit_end(doc, text, b, nxt.start)) > (
        opts.effective_max
    )


_FIRST_WORD = re.compile(r"\s*\S+")
_BLANKS = re.compile(r"\s*")
# what leads travel with past a cut: the next paragraph (a run of non-blank lines)
_PARAGRAPH_END = re.compile(r"\n[ \t]*\n|\Z")


def _first_unit_end(doc: ParsedDocument, text: str, b: int, at: int) -> int:
    """Where the first unit of what starts at ``at`` (in block b) ends, past the
    leads it opens with (they travel on with it): a heading or a title whole, a
    table's head with its first row (its first line when it has no head), else the
    first word."""
    while True:
        kind, start, end = doc.kinds[b], doc.starts[b], doc.ends[b]
        if at == start and kind in TITLES:
            return end
        if at == start and kind == "table":
            rows, head = doc.tables.get(start, ((), None))
            if head is not None:
                return rows[0][1] if rows else end
            line = text.find("\n", start, end)
            return end if line < 0 else line
        if at == start and b in doc.leads:  # a lead block: what it introduces
            b, at = b + 1, doc.starts[b + 1]
            continue
        if kind not in _CUT_AT_LEADS:
            break
        # -- inside a block: past the paragraphs that are leads (titles, lead-ins)
        stop = _PARAGRAPH_END.search(text, at, end)
        para = len(text[: stop.start() if stop else end].rstrip())
        if para >= end or not is_lead(text, at, para):
            break
        at = _BLANKS.match(text, para).end()  # (the next paragraph's first character)
    m = _FIRST_WORD.match(text, at)
    return m.end() if m else end


def overlap_breaks(text: str, chunks: list[Chunk]) -> list[str]:
    """No overlap prefix holds code, HTML or table text: every block it copies
    from is prose or a list, and inside a list it reaches no fence, HTML or table."""
    doc = _parsed(text)
    out = []
    for c in chunks:
        s, e = c.overlap_start, c.overlap_end
        first = max(0, bisect_right(doc.starts, s) - 1)
        for b in range(first, bisect_right(doc.starts, e - 1)) if e > s else ():
            inner = inner_blocks(text, doc.starts[b], doc.ends[b])
            if doc.kinds[b] not in ("prose", "list") or any(
                x.tag in ("code", "html", "table") and x.start < e and s < x.end for x in inner
            ):
                out.append(f"chunk {c.index}: overlap {c.overlap_prefix[:50]!r} holds code")
                break
    return out


def page_breaks(text: str, chunks: list[Chunk]) -> list[str]:
    """A chunk's page is the first page it reaches and last_page the last one, by
    the sections of its blocks."""
    doc = _parsed(text)
    out = []
    for c in chunks:
        first = bisect_right(doc.starts, c.start) - 1
        last = bisect_right(doc.starts, c.end - 1) - 1
        pages = [
            p
            for b in range(max(first, 0), last + 1)
            if (p := doc.sections[doc.block_sections[b]].page) is not None
        ]
        want = (pages[0], pages[-1]) if pages else (None, None)
        if (c.page, c.last_page) != want:
            out.append(f"chunk {c.index}: pages {(c.page, c.last_page)}, want {want}")
    return out
