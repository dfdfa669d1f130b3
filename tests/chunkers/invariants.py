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

from chunkers import Chunk, ChunkOptions
from chunkers.structural.blocks import ParsedDocument, is_transcribed, parse

_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]|$)")


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
    mask = transcribed_mask(text, parse(text))
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
    doc = parse(text)
    out = []
    for c in chunks:
        b = bisect_right(doc.starts, c.start) - 1
        path = doc.sections[doc.block_sections[b]].heading_path if b >= 0 else ()
        missing = [h for h in path if h not in c.heading_path and h not in c.body]
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


def _unsplittable(c: Chunk, opts: ChunkOptions, count: Count) -> bool:
    """The chunk holds a unit no split may cut that alone passes what the rest
    leaves: a line longer than half a chunk (a table row, a code line, a word run),
    or, below the headings it opens with (a heading travels with what follows
    it), at most three lines (a table's header, separator and first row)."""
    lines = [ln for ln in c.body.split("\n") if ln.strip()]
    if count:
        size = count
    else:
        size = (lambda s: len(s)) if opts.unit == "chars" else (lambda s: len(s.split()))
    if any(size(ln) > opts.size // 2 for ln in lines):
        return True
    while lines and _ATX.match(lines[0]):
        lines.pop(0)
    return len(lines) <= 3


def over_max_breaks(chunks: list[Chunk], opts: ChunkOptions, count: Count = None) -> list[str]:
    """Nothing over the effective maximum except a chunk held up by an unsplittable unit."""
    return [
        f"chunk {c.index}: {_length(c, count)} > {opts.effective_max}"
        for c in chunks
        if _length(c, count) > opts.effective_max and not _unsplittable(c, opts, count)
    ]


def page_breaks(text: str, chunks: list[Chunk]) -> list[str]:
    """A chunk's page is the first page it reaches and last_page the last one, by
    the sections of its blocks."""
    doc = parse(text)
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
