"""Splitting one oversized block, only where its own structure allows.

Tables (GFM and HTML) split between rows and repeat their header; lists
between their top-level items, then lines; admonitions between their title
and the blocks of their body, then as code does; code, HTML, quotes and admonitions
at blank lines, then lines; prose splits between sentences. Words are the last resort,
and characters the very last (a run with no whitespace longer than a chunk).
Every function returns ordered, whitespace-trimmed spans that together hold
every non-whitespace character of the block.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from ..sentences import sentence_spans
from ..text import count_units, word_spans
from .parse import Block, ParsedDocument

Span = tuple[int, int]


# a line's text from its first to its last non-whitespace character
_LINE_TEXT = re.compile(r"\S(?:.*\S)?")


# a run of non-blank lines: a newline is taken only when the next line is not blank
_PARAGRAPH = re.compile(r"\S(?:[^\n]|\n(?![^\S\n]*(?:\n|\Z)))*")


def _line_spans(text: str, s: int, e: int) -> list[Span]:
    return list(map(re.Match.span, _LINE_TEXT.finditer(text, s, e)))


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
    parts = doc.tables.get(s, ((), None))[0]
    return list(parts) if parts else [(s, e)]


def _cached_sentences(text: str, cache: dict, s: int, e: int) -> list[Span]:
    """Sentence spans of text[s:e], kept in the parse's cache for every packing."""
    key = ("sent", s, e)
    cached = cache.get(key)
    if cached is None:
        cached = cache[key] = sentence_spans(text, s, e)
    return cached


def _char_spans(text: str, s: int, e: int, cap: int) -> list[Span]:
    return [(i, min(i + cap, e)) for i in range(s, e, max(1, cap))]


class Splitter:
    """Splits spans of one document in one unit, caching sentence spans per block."""

    def __init__(self, doc: ParsedDocument, unit: str) -> None:
        self.doc = doc
        self.text = doc.text
        self.unit = unit
        # the split levels per block kind, built once rather than per split. No
        # level refers back to the splitter: a reference cycle would keep the
        # whole parse alive until the garbage collector ran (which chunking pauses)
        lines = partial(_line_spans, self.text)
        words = partial(word_spans, self.text)
        sentences = partial(_cached_sentences, self.text, doc.cache)
        paragraphs = partial(_paragraph_spans, self.text)
        parts = partial(_part_spans, doc)
        blocks = [paragraphs, lines, sentences, words]
        self._by_kind: dict[str, list[Callable[[int, int], list[Span]] | None]] = {
            "code": [paragraphs, lines, words],
            "html": [paragraphs, lines, words],
            "metadata": [lines, words],
            "table": [lines, None],  # linearised rows, one per line: a row is indivisible
            "list": [parts, lines, sentences, words],
            "quote": blocks,
            "admonition": [parts, *blocks],
            "footnote": blocks,
        }
        self._prose_levels: list[Callable[[int, int], list[Span]] | None] = [sentences, words]

    def length(self, s: int, e: int) -> int:
        return e - s if self.unit == "chars" else count_units(self.text[s:e], "words")

    def _levels(self, kind: str) -> list[Callable[[int, int], list[Span]] | None]:
        return self._by_kind.get(kind, self._prose_levels)

    def split(self, block: Block, first_cap: int, cap: int) -> list[Span]:
        """Spans of at most ``cap`` units (the first at most ``first_cap``)."""
        return self._pack(block.start, block.end, first_cap, cap, self._levels(block.kind))

    def _pack(self, s: int, e: int, first_cap: int, cap: int, levels: list) -> list[Span]:
        if not levels:
            if self.unit == "words":  # one word is one unit: it always fits
                return [(s, e)]
            head = [(s, min(s + first_cap, e))]
            return head + _char_spans(self.text, head[0][1], e, cap)
        if levels[0] is None:  # indivisible: it stands alone, however long
            return [(s, e)]
        parts = levels[0](s, e)
        out: list[Span] = []
        group_start = -1
        group_len = 0
        limit = first_cap
        chars = self.unit == "chars"
        for ps, pe in parts:
            n = pe - ps if chars else self.length(ps, pe)
            if group_start >= 0:
                joined = (pe - group_start) if chars else group_len + n
                if joined <= limit:
                    group_len = joined
                    group_end = pe
                    continue
                out.append((group_start, group_end))
                limit = cap
                group_start = -1
            if n <= limit:
                group_start, group_end, group_len = ps, pe, n
                continue
            sub = self._pack(ps, pe, limit, cap, levels[1:])
            out.extend(sub[:-1])
            limit = cap
            group_start, group_end = sub[-1]
            group_len = self.length(*sub[-1])
        if group_start >= 0:
            out.append((group_start, group_end))
        return out

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
        frag_len = 0
        limit = first_cap
        for rs, re_ in block.rows:
            n = self.length(rs, re_)
            if first_row >= 0:
                if self.unit == "chars":
                    joined = (header_len + re_ - first_row) if out else re_ - block.start
                else:
                    joined = frag_len + n
                if joined <= limit:
                    frag_end, frag_len = re_, joined
                    continue
                out.append(((first_row if out else block.start, frag_end), bool(out)))
                limit = cap
            # a row always fits alone
            first_row, frag_end, frag_len = rs, re_, (header_len if out else lead_len) + n
        out.append(((first_row if out else block.start, frag_end), bool(out)))
        return out
