"""Splitting one oversized block, only where its own structure allows.

Tables (GFM and HTML) split between rows and repeat their header; lists
between their top-level items, then between the blocks an item holds, then
lines, then down the prose ladder;
admonitions between their title and the blocks of their body; code and HTML
at blank lines, then lines, then words; quotes between the blocks they hold
(a bare ">" line parts two paragraphs), then as prose does; footnotes at blank
lines, then as prose does. Prose splits between sentences, then down the ladder in
../seams.py: lines, stops, clause marks, words. Characters are the very last
resort (a run with no whitespace longer than a chunk). Every function returns
ordered, whitespace-trimmed spans that together hold every non-whitespace
character of the block.
"""

from __future__ import annotations

import re
from functools import partial

from ..seams import Level, SeamPacker, Span
from ..segment import sentence_spans
from ..tokens import DEFAULT_TOKENIZER
from .blocks import Block, ParsedDocument, is_lead
from .engine import InnerBlock, inner_blocks

# a run of non-blank lines: a newline is taken only when the next line is not blank
_NON_BLANK_RUN = re.compile(r"\S(?:.*\S)?", re.S)
_PARAGRAPH = re.compile(r"\S(?:[^\n]|\n(?![^\S\n]*(?:\n|\Z)))*")


def _paragraph_spans(text: str, s: int, e: int) -> list[Span]:
    """The runs of non-blank lines in text[s:e], trimmed: a block's blank-line seams."""
    out = []
    for m in _PARAGRAPH.finditer(text, s, e):
        a, z = m.span()
        while text[z - 1].isspace():
            z -= 1
        out.append((a, z))
    return out


def _part_spans(doc: ParsedDocument, s: int, e: int) -> list[Span]:
    """A block's own parts (a list's top-level items, each with its sub-items; an
    admonition's title and body blocks), else the block whole."""
    parts = doc.parts(s)
    return list(parts) if parts else [(s, e)]


def _child_spans(text: str, cache: dict, s: int, e: int) -> list[Span]:
    """The blocks inside a container, each from its first line to the next one's,
    trimmed: a quote's paragraphs (a bare ">" line parts them), a list item's
    paragraphs, fences and sub-lists; the text itself when it holds one block."""
    key = ("children", s, e)
    cached = cache.get(key)
    if cached is not None:
        return cached
    inner = cached_inner_blocks(text, cache, s, e)
    outer = [b for b in inner if b.depth == 0]
    depth = 0
    if len(outer) == 1 and outer[0].tag in ("quote", "footnote", "list"):
        # a list of one item (a list's own parts are its items): what the item holds
        items = sum(b.depth == 1 for b in inner)
        depth = 2 if outer[0].tag == "list" and items == 1 else 1
    cuts = [s]
    for b in inner:
        if b.depth == depth:
            line = text.rfind("\n", 0, b.start) + 1
            if line > cuts[-1]:
                cuts.append(line)
    out = []
    for a, z in zip(cuts, [*cuts[1:], e], strict=True):
        span = _trimmed(text, a, z)
        if span is not None:
            out.append(span)
    cache[key] = out
    return out


def cached_inner_blocks(text: str, cache: dict, s: int, e: int) -> list[InnerBlock]:
    """inner_blocks(text, s, e), kept in the parse's cache: a list item split between
    the blocks it holds and the overlap taken from it read the same item."""
    key = ("inner", s, e)
    found = cache.get(key)
    if found is None:
        found = cache[key] = inner_blocks(text, s, e)
    return found


def _trimmed(text: str, s: int, e: int) -> Span | None:
    m = _NON_BLANK_RUN.search(text, s, e)
    return m.span() if m else None


def _cached_sentences(text: str, cache: dict, s: int, e: int) -> list[Span]:
    """Sentence spans of text[s:e], kept in the parse's cache for every packing."""
    key = ("sent", s, e)
    cached = cache.get(key)
    if cached is None:
        cached = cache[key] = sentence_spans(text, s, e)
    return cached


# the blocks whose lines are no markdown (a "#" line in them is no heading)
_CODE = frozenset(("code", "html", "metadata"))


class Splitter(SeamPacker):
    """Splits spans of one document in one unit, caching sentence spans per block
    (and, in tokens, every count) on the parse."""

    def __init__(self, doc: ParsedDocument, unit: str, tokenizer: str = DEFAULT_TOKENIZER) -> None:
        super().__init__(doc.text, unit, tokenizer, doc.cache)
        self.doc = doc
        # the split levels per block kind, built once rather than per split
        sentences = partial(_cached_sentences, self.text, doc.cache)
        paragraphs = partial(_paragraph_spans, self.text)
        parts = partial(_part_spans, doc)
        children = partial(_child_spans, self.text, doc.cache)
        self.between_blocks = (children,)
        blocks = [paragraphs, self.lines, sentences, *self.within_line]
        self._by_kind: dict[str, list[Level]] = {
            "code": [paragraphs, self.lines, self.words],
            "html": [paragraphs, self.lines, self.words],
            "metadata": [self.lines, self.words],
            "table": [self.lines, None],  # linearised rows, one per line: a row is indivisible
            # -- an item too big for a chunk splits between the blocks it holds (a
            # -- fence stays whole), then at lines
            "list": [parts, children, self.lines, sentences, *self.within_line],
            # -- a quote splits at its own blocks first, then as prose does
            "quote": [children, sentences, *self.below_sentence],
            # -- an admonition's body (indented code to CommonMark) splits between
            # -- the blocks it holds, read without its indentation
            "admonition": [parts, children, *blocks],
            "footnote": blocks,
        }
        self._prose_levels: list[Level] = [sentences, *self.below_sentence]
        self._code = False  # the block being split is code (see leads)

    def leads(self, s: int, e: int) -> bool:
        """A title or a lead-in (blocks.is_lead) travels with the part after it."""
        return is_lead(self.text, s, e, self._code)

    def _levels(self, kind: str) -> list[Level]:
        return self._by_kind.get(kind, self._prose_levels)

    def split(
        self, block: Block, first_cap: int, cap: int, first_slack: int | None = None
    ) -> list[Span]:
        """Spans of at most ``cap`` units (the first at most ``first_cap``; a piece
        opening with leads may take the slack, see SeamPacker.pack)."""
        self._code = block.kind in _CODE  # (its "#" lines are comments)
        levels = self._levels(block.kind)
        return self.pack(block.start, block.end, first_cap, cap, levels, first_slack)

    def table_fragments(self, block: Block, first_cap: int, cap: int) -> list[tuple[Span, bool]]:
        """Row-atomic fragments of a GFM table; each after the first repeats the header.

        Returns ((start, end), repeats_header): the first fragment's span starts at
        the table's own header, every later one at its own first row. The repeated
        header counts in the budget, so every fragment's length is header + rows.
        """
        assert block.header is not None
        hs, he = block.header
        if not block.rows:
            return [((block.start, block.end), False)]
        header_len = self.length(hs, he)
        # the first fragment carries the table's own caption and header
        lead_len = self.length(block.start, block.rows[0][0])
        out: list[tuple[Span, bool]] = []
        first_row = frag_end = -1
        frag_len = frag_tail = 0
        limit = first_cap
        for rs, re_ in block.rows:
            n = self.length(rs, re_)
            if first_row >= 0:
                if self.unit == "chars":
                    joined = (header_len + re_ - first_row) if out else re_ - block.start
                else:  # in tokens, the line break after the row before counts too
                    joined = frag_len + frag_tail + n
                if joined <= limit:
                    frag_end, frag_len, frag_tail = re_, joined, self.tail(rs, re_)
                    continue
                out.append(((first_row if out else block.start, frag_end), bool(out)))
                limit = cap
            # a row always fits alone
            first_row, frag_end, frag_len = rs, re_, (header_len if out else lead_len) + n
            frag_tail = self.tail(rs, re_)
        out.append(((first_row if out else block.start, frag_end), bool(out)))
        return out
