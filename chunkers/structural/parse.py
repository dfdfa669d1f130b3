"""Parse once: sections and typed blocks, independent of size and overlap.

Chunking stays a pure function of a string (seed 000): block types are
recovered from the markdown itself. The parse is reused for every size the
lab sweeps, so nothing here may depend on the packing options.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..text import SourceText

_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})(.*)")
_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*")
_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_SEPARATOR = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
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
    m = _PAGE.match(heading)
    return int(m.group(1)) if m else None


@dataclass(frozen=True, slots=True)
class Block:
    kind: str  # heading, prose, list, code, table
    start: int  # offsets into the normalised text, lines without their final newline
    end: int
    section: int
    # tables: the data rows' line spans, and the header + separator span through
    # the line break after the separator (None for linearised rows)
    rows: tuple[tuple[int, int], ...] = ()
    header: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Section:
    heading: str  # "" for text before the first heading
    level: int  # effective level, after transcribed headings are demoted
    heading_path: tuple[str, ...]  # what chunks of this section carry
    transcribed: bool
    page: int | None


@dataclass(frozen=True, slots=True)
class _Frame:
    text: str
    level: int
    inheritable: bool  # false for transcribed headings: never carried to other sections
    transcribed: bool
    page: int | None


@dataclass(frozen=True)
class ParsedDocument:
    source: SourceText
    sections: tuple[Section, ...]
    blocks: tuple[Block, ...]
    # lazily filled splitting caches (sentence spans per block), shared by all packings
    cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def text(self) -> str:
        return self.source.norm


def _heading_text(raw: str | None) -> str:
    if not raw:
        return ""
    return _CLOSING_HASHES.sub("", raw).strip()


def _section_for(stack: list[_Frame], frame: _Frame) -> Section:
    path = tuple(f.text for f in stack if f.inheritable or f is frame)
    page = next((f.page for f in reversed(stack) if f.page is not None), None)
    return Section(
        heading=frame.text,
        level=frame.level,
        heading_path=path,
        transcribed=any(f.transcribed for f in stack),
        page=page,
    )


def _classify(lines: list[tuple[int, int]], text: str) -> str:
    first = text[lines[0][0] : lines[0][1]]
    if _LIST_ITEM.match(first):
        return "list"
    if all(LINEAR_ROW.match(text[s:e].strip()) for s, e in lines):
        return "table"
    return "prose"


def parse(text: str | SourceText) -> ParsedDocument:
    """Split the text into sections (ATX headings) and blocks (blank-line separated)."""
    src = text if isinstance(text, SourceText) else SourceText.of(text)
    norm = src.norm
    # (start, end) of every line, end excluding the newline
    lines: list[tuple[int, int]] = []
    pos = 0
    n = len(norm)
    while pos <= n:
        nl = norm.find("\n", pos)
        if nl < 0:
            if pos < n:
                lines.append((pos, n))
            break
        lines.append((pos, nl))
        pos = nl + 1

    sections: list[Section] = [Section("", 0, (), False, None)]
    stack: list[_Frame] = []
    blocks: list[Block] = []
    para: list[tuple[int, int]] = []

    def flush() -> None:
        if para:
            kind = _classify(para, norm)
            rows = tuple(para) if kind == "table" else ()
            blocks.append(Block(kind, para[0][0], para[-1][1], len(sections) - 1, rows))
            para.clear()

    i, count = 0, len(lines)
    while i < count:
        s, e = lines[i]
        line = norm[s:e]
        if not line.strip():
            flush()
            i += 1
            continue
        fence = _FENCE.match(line)
        if fence and not (fence.group(1)[0] == "`" and "`" in fence.group(2)):
            flush()
            mark = fence.group(1)
            j = i + 1
            while j < count:
                closing = norm[lines[j][0] : lines[j][1]].strip()
                if closing.startswith(mark[0] * len(mark)) and not closing.strip(mark[0]):
                    break
                j += 1
            last = min(j, count - 1)  # an unclosed fence runs to the end: nothing lost
            blocks.append(Block("code", s, lines[last][1], len(sections) - 1))
            i = last + 1
            continue
        heading = _HEADING.fullmatch(line)
        if heading:
            flush()
            title = _heading_text(heading.group(2))
            level = len(heading.group(1))
            page = page_number(title)
            transcribed = is_transcribed(title)
            if transcribed and page is None:
                # seed 000: max(PAGE_HEADING_LEVEL + 1, guessed_level), so a
                # transcribed heading never displaces the page anchor above it
                anchor = next((f for f in reversed(stack) if f.page is not None), None)
                if anchor is not None:
                    level = max(anchor.level + 1, level)
            while stack and stack[-1].level >= level:
                stack.pop()
            frame = _Frame(title, level, not transcribed, transcribed, page)
            stack.append(frame)
            sections.append(_section_for(stack, frame))
            blocks.append(Block("heading", s, e, len(sections) - 1))
            i += 1
            continue
        if i + 1 < count and is_table_start(line, norm[lines[i + 1][0] : lines[i + 1][1]]):
            # a one-line caption written directly above its table travels with it
            start = s
            if len(para) == 1:
                start = para.pop()[0]
            flush()
            j = i + 2
            while j < count:
                row = norm[lines[j][0] : lines[j][1]]
                if not row.strip() or _HEADING.fullmatch(row) or _FENCE.match(row):
                    break
                j += 1
            header_end = lines[i + 2][0] if j > i + 2 else lines[i + 1][1]
            rows = tuple(lines[i + 2 : j])
            blocks.append(
                Block("table", start, lines[j - 1][1], len(sections) - 1, rows, (s, header_end))
            )
            i = j
            continue
        para.append((s, e))
        i += 1
    flush()
    return ParsedDocument(src, tuple(sections), tuple(blocks))
