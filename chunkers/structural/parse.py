"""Parse once: sections and typed blocks, independent of size and overlap.

Chunking stays a pure function of a string (seed 000): block types are
recovered from the markdown itself. The parse is reused for every size the
lab sweeps, so nothing here may depend on the packing options.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, repeat
from operator import sub
from typing import NamedTuple

from .. import speedups as _speedups
from ..gcpause import collector_paused
from ..text import SourceText

_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})(.*)")
# a greedy title: a lazy (.*?) costs a regex step per character, and _heading_text
# strips the trailing blanks a greedy one keeps
_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*))?")
_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_SEPARATOR = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")
# seed 000: a linearised table row is two or more 'Header: value' pairs joined by pipes
LINEAR_ROW = re.compile(r"^[^|:]{1,40}: .+( \| [^|:]{1,40}: .+)+$")
_PAGE = re.compile(r"page\s+(\d+)\b", re.I)
TRANSCRIBED_MARK = "(transcribed"


def is_table_start(line: str, next_line: str) -> bool:
    """A GFM table starts at a pipe line whose next line is the |---|---| separator."""
    return "|" in line and "|" in next_line and _SEPARATOR.fullmatch(next_line) is not None


def is_transcribed(heading: str) -> bool:
    return TRANSCRIBED_MARK in heading


def page_number(heading: str) -> int | None:
    if heading[:1] not in ("p", "P"):  # the common case, without a regex call
        return None
    m = _PAGE.match(heading)
    return int(m.group(1)) if m else None


# Block and Section are immutable named tuples. The parse itself keeps blocks as
# parallel tuples (ParsedDocument.kinds, starts, ...): building a tuple per block
# cost more than the rest of the parse; ParsedDocument.blocks builds them on demand.
class Block(NamedTuple):
    kind: str  # heading, prose, list, code, table
    start: int  # offsets into the normalised text, lines without their final newline
    end: int
    section: int
    # tables: the data rows' line spans, and the header + separator span through
    # the line break after the separator (None for linearised rows)
    rows: tuple[tuple[int, int], ...] = ()
    header: tuple[int, int] | None = None


class Section(NamedTuple):
    heading: str  # "" for text before the first heading
    level: int  # effective level, after transcribed headings are demoted
    heading_path: tuple[str, ...]  # what chunks of this section carry
    transcribed: bool
    page: int | None


@dataclass(slots=True)
class _Frame:
    """A heading on the stack, with what its descendants inherit worked out once."""

    level: int  # effective level, after demotion
    source_level: int  # the level as written
    shift: int  # how far this heading and the headings written below it are demoted
    page: int | None
    path: tuple[str, ...]  # the inheritable headings down to this one
    nearest_page: int | None  # this heading's page, else the nearest one above it
    transcribed: bool  # this heading or one above it is transcribed


@dataclass(frozen=True)
class ParsedDocument:
    source: SourceText
    sections: tuple[Section, ...]
    # the blocks in text order, one field per tuple (Block's fields)
    kinds: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    block_sections: tuple[int, ...]
    section_starts: tuple[int, ...]  # each section's first block (its heading; 0 for section 0)
    # tables by their block's start: data rows, and header (see Block)
    tables: dict[int, tuple[tuple[tuple[int, int], ...], tuple[int, int] | None]]
    # lazily filled splitting caches (sentence spans per block), shared by all packings
    cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def text(self) -> str:
        return self.source.norm

    def block(self, i: int) -> Block:
        rows, header = self.tables.get(self.starts[i], ((), None))
        return Block(
            self.kinds[i], self.starts[i], self.ends[i], self.block_sections[i], rows, header
        )

    @cached_property
    def blocks(self) -> tuple[Block, ...]:
        return tuple(map(self.block, range(len(self.kinds))))


def _heading_text(raw: str | None) -> str:
    if not raw:
        return ""
    if not raw.rstrip(" \t").endswith(
        "#"
    ):  # no closing hashes: skip a pattern that tries every position
        return raw.strip()
    return _CLOSING_HASHES.sub("", raw).strip()


def parse(text: str | SourceText, compiled: bool | None = None) -> ParsedDocument:
    """Split the text into sections (ATX headings) and blocks (blank-line separated).

    ``compiled`` picks the block scanner: None uses the compiled one when it is
    built, True insists on it, False runs the Python one. Their output is the same.
    """
    with collector_paused():
        src = text if isinstance(text, SourceText) else SourceText.of(text)
        p = _Parser(src.norm)
        p.run(compiled)
        return ParsedDocument(
            src,
            tuple(p.sections),
            tuple(p.kinds),
            tuple(p.starts),
            tuple(p.ends),
            tuple(p.block_sections()),
            tuple(p.section_starts),
            p.tables,
        )


# Whole-text scanners, run once per document. A pattern that begins with a
# literal "\n" lets the regex engine jump from newline to newline; a ^-anchored
# MULTILINE pattern would try a match at every character.
# groups of non-blank lines lie between runs of blank lines: the newline that ends
# a group's last line, then every blank line after it
_BLANK_RUN = re.compile(r"\n[^\S\n]*+(?:\n|\Z)(?:[^\S\n]*+(?:\n|\Z))*+")
_NON_BLANK = re.compile(r"\S")
# the start of a line that may open a fence, be a heading or be a table's separator
_MAYBE_SPECIAL = r"(?:[ \t]*(?:```|~~~)| {0,3}#|[ \t|:]*-[ \t|:-]*(?=\n|\Z))"
_SPECIAL_FIRST = re.compile(_MAYBE_SPECIAL)
_SPECIAL_NEXT = re.compile(r"\n(?=[ \t`~#|:-])" + _MAYBE_SPECIAL)  # one cheap test first
# a list item opens the block: its first line, read in place (the line ends at a
# newline or at the end of the group)
_LIST_START = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t\n]|\Z)")
_closing_fences: dict[str, re.Pattern[str]] = {}


def _closing_fence(char: str, width: int) -> re.Pattern[str]:
    """The newline before a line holding only ``char``, at least ``width`` of them."""
    key = char * width
    pattern = _closing_fences.get(key)
    if pattern is None:
        fence = re.escape(char) + "{%d,}" % width
        pattern = _closing_fences[key] = re.compile(r"\n[^\S\n]*" + fence + r"[^\S\n]*(?=\n|\Z)")
    return pattern


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of every line in text[start:end], ends excluding the newline."""
    out: list[tuple[int, int]] = []
    nl = text.find("\n", start, end)
    while nl >= 0:
        out.append((start, nl))
        start = nl + 1
        nl = text.find("\n", start, end)
    out.append((start, end))
    return out


class _Parser:
    """One pass over the text, group by group.

    A group is a run of non-blank lines. Most groups hold no heading, fence or
    table and become one block without a look at their lines; the others go
    line by line. A fence may run past its group's blank lines.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.sections: list[Section] = [Section("", 0, (), False, None)]
        self.section_starts: list[int] = [0]  # each section's first block
        self.stack: list[_Frame] = []
        # the blocks, as parallel lists (see ParsedDocument); their sections follow
        # from section_starts, once, at the end
        self.kinds: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.tables: dict[int, tuple[tuple[tuple[int, int], ...], tuple[int, int] | None]] = {}

    def add(
        self,
        kind: str,
        s: int,
        e: int,
        rows: tuple[tuple[int, int], ...] = (),
        header: tuple[int, int] | None = None,
    ) -> None:
        if rows or header is not None:
            self.tables[s] = (rows, header)
        self.kinds.append(kind)
        self.starts.append(s)
        self.ends.append(e)

    def block_sections(self) -> list[int]:
        """Every block's section: the blocks from a section's first up to the next one's."""
        stops = self.section_starts[1:] + [len(self.kinds)]
        return list(
            chain.from_iterable(
                map(repeat, range(len(stops)), map(sub, stops, self.section_starts))
            )
        )

    def run(self, compiled: bool | None = None) -> None:
        """Find the blocks: with the compiled scanner when it is built (and
        ``compiled`` is not False), else in Python. Both give the same blocks."""
        if _speedups.use_twin(_speedups.scan, compiled, _speedups.WHY_NOT):
            _speedups.scan(self, self.text)
        else:
            self.run_python()

    def run_python(self) -> None:
        text = self.text
        kinds, starts, ends = self.kinds, self.starts, self.ends
        first = _NON_BLANK.search(text)
        if first is None:
            return
        special = [m.start() + 1 for m in _SPECIAL_NEXT.finditer(text)]
        if _SPECIAL_FIRST.match(text):
            special.insert(0, 0)
        special.append(len(text) + 1)  # a sentinel: no special line past the end
        k = 0  # special[k]: the first special line start not before the group
        resume = 0  # where the last fence ended: groups before it are inside it
        end_of_text = [(len(text), len(text))]  # a last separator, so the last group is seen
        pos = text.rfind("\n", 0, first.start()) + 1  # the first group's first line
        for blank_start, blank_end in chain(
            map(re.Match.span, _BLANK_RUN.finditer(text, pos)), end_of_text
        ):
            start, end, pos = pos, blank_start, blank_end
            if start >= end:
                continue
            if start < resume:
                if end <= resume:
                    continue
                start = resume + 1  # the line after a closing fence
            while special[k] < start:
                k += 1
            if special[k] >= end:  # the common case, inlined: one plain block
                if _LIST_START.match(text, start, end):
                    kind = "list"
                elif text.find(" | ", start, end) < 0:  # every linearised row holds one
                    kind = "prose"
                else:
                    self.flush(start, end)
                    continue
                kinds.append(kind)  # what add() does, without the call
                starts.append(start)
                ends.append(end)
                continue
            if text.find("\n", start, end) < 0:  # a one-line group: most often a heading
                heading = _HEADING.fullmatch(text, start, end)
                if heading:
                    self.heading(start, end, len(heading.group(1)), heading.group(2))
                    continue
            while start < end:
                resume = self.lines(start, end)
                start = resume + 1  # a fence closed inside the group: go on after it

    def flush(self, ps: int, pe: int) -> None:
        """The paragraph text[ps:pe] (whole lines) as one block: list, linearised
        table rows, or prose."""
        text = self.text
        if _LIST_START.match(text, ps, pe):
            self.add("list", ps, pe)
            return
        if text.find(" | ", ps, pe) >= 0:  # every linearised row holds one
            lines = _lines(text, ps, pe)
            if all(LINEAR_ROW.match(text[s:e].strip()) for s, e in lines):
                self.add("table", ps, pe, tuple(lines))
                return
        self.add("prose", ps, pe)

    def lines(self, start: int, end: int) -> int:
        """The group line by line; returns where to go on (past a fence, its closing line).

        The paragraph being gathered is a run of whole lines: it starts at ``ps``
        and holds ``count`` lines, the last ending where the current line starts."""
        text = self.text
        ps, count = start, 0
        s = start
        while s < end:
            e = text.find("\n", s, end)
            if e < 0:
                e = end
            line = text[s:e]
            fence = _FENCE.match(line)
            if fence and not (fence.group(1)[0] == "`" and "`" in fence.group(2)):
                if count:
                    self.flush(ps, s - 1)
                return self.fence(s, e, fence.group(1)[0], len(fence.group(1)))
            heading = _HEADING.fullmatch(line)
            if heading:
                if count:
                    self.flush(ps, s - 1)
                    count = 0
                self.heading(s, e, len(heading.group(1)), heading.group(2))
            elif e < end and "|" in line and (table_end := self.table(s, e, end, ps, count)) >= 0:
                count = 0
                s = table_end + 1
                continue
            else:
                if not count:
                    ps = s
                count += 1
            s = e + 1
        if count:
            self.flush(ps, end)
        return end

    def table(self, s: int, e: int, end: int, ps: int, count: int) -> int:
        """A GFM table if the line s:e starts one: header, separator, then rows up to a
        blank line, a heading or a fence. Returns where the table ends, or -1.

        ``ps`` and ``count`` are the paragraph gathered before the line (see lines)."""
        text = self.text
        sep_end = text.find("\n", e + 1, end)
        if sep_end < 0:
            sep_end = end
        if not is_table_start(text[s:e], text[e + 1 : sep_end]):
            return -1
        # a one-line caption written directly above its table travels with it
        table_start = s
        if count == 1:
            table_start = ps
        elif count:
            self.flush(ps, s - 1)
        rows: list[tuple[int, int]] = []
        r = sep_end + 1
        while r < end:
            row_end = text.find("\n", r, end)
            if row_end < 0:
                row_end = end
            row = text[r:row_end]
            if _HEADING.fullmatch(row) or _FENCE.match(row):
                break
            rows.append((r, row_end))
            r = row_end + 1
        header_end = rows[0][0] if rows else sep_end
        table_end = rows[-1][1] if rows else sep_end
        self.add("table", table_start, table_end, tuple(rows), (s, header_end))
        return table_end

    def fence(self, s: int, e: int, char: str, width: int) -> int:
        """A code block from its opening line (a run of ``width`` ``char``s) through
        its closing line, blank lines and all."""
        text = self.text
        closing = _closing_fence(char, width).search(text, e)
        if closing is not None:
            end = closing.end()
        else:  # an unclosed fence runs to the end of the last line: nothing lost
            end = len(text) - 1 if text.endswith("\n") else len(text)
        self.add("code", s, end)
        return end

    def heading(self, s: int, e: int, level: int, raw_title: str | None) -> None:
        """An ATX heading of ``level`` on the line s:e; ``raw_title`` is what follows
        the blanks after its hashes (None when nothing does)."""
        title = _heading_text(raw_title)
        page = page_number(title)
        transcribed = is_transcribed(title)
        stack = self.stack
        source_level = level
        # -- a heading written below a demoted heading moves down with it, so it
        # -- stays its descendant: a demotion never turns a transcribed heading's
        # -- child into its sibling (and so into trusted text)
        parent = next((f for f in reversed(stack) if f.source_level < source_level), None)
        shift = parent.shift if parent is not None else 0
        level += shift
        if transcribed and page is None:
            # max(page anchor level + 1, guessed level): a transcribed heading never
            # displaces the page anchor above it
            anchor = next((f for f in reversed(stack) if f.page is not None), None)
            if anchor is not None and anchor.level + 1 > level:
                shift += anchor.level + 1 - level
                level = anchor.level + 1
        while stack and stack[-1].level >= level:
            stack.pop()
        if stack:
            parent = stack[-1]
            inherited, under_transcribed = parent.path, transcribed or parent.transcribed
            nearest_page = parent.nearest_page if page is None else page
        else:
            inherited, under_transcribed, nearest_page = (), transcribed, page
        path = inherited + (title,)
        # a transcribed heading labels its own section and is never inherited
        stack.append(
            _Frame(
                level,
                source_level,
                shift,
                page,
                inherited if transcribed else path,
                nearest_page,
                under_transcribed,
            )
        )
        sections = self.sections
        sections.append(Section(title, level, path, under_transcribed, nearest_page))
        self.section_starts.append(len(self.kinds))
        self.add("heading", s, e)
