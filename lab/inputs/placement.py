"""Chunks made by another pipeline, placed in their document so every measurement applies.

A chunk file is JSON Lines, a JSON array, or CSV, one chunk a row. A row holds
the chunk's text under ``text``, ``page_content`` (a LangChain Document) or
``content``; where it was cut, if known, under ``start``/``end``,
``start_char_idx``/``end_char_idx`` (LlamaIndex), ``start_index``/``end_index``
(Chonkie) or ``metadata.start_index`` (LangChain's ``add_start_index``); and
its ``metadata``, which is kept. docs/chunk-import.md gives the exact shapes.
A file the lab exported itself (lab.inputs.exports) is read back as such.

Each chunk is placed in the document in turn:

1. offsets the row gives, when the document holds the chunk's text exactly there;
2. else the chunk's text, searched for from the previous chunk's start on (so a
   repeated passage lands on the copy the pipeline was walking past), then from
   the document's start;
3. else the same search on both texts normalised by one rule: every whitespace
   and non-printable character dropped (what splitters strip, collapse, re-join or
   drop: indentation, tabs, NBSP, "  \n" line joins, zero-width characters), the
   match mapped back to the exact span in the document;
4. else, normalised, the span from a piece of the chunk's start to a piece of its
   end (a pipeline that added or changed a few words, e.g. a heading line of its own).

How each chunk was placed is kept: offsets, exact, normalised or partly.
What cannot be placed is reported with its row number, as is the text no chunk
covers and the text two chunks share. Placed chunks become Chunk records in
document order: a chunk's text that an earlier chunk already holds is its
overlap prefix, as in the lab's own strategies, so body spans never overlap.
A chunk wholly inside another adds no text of its own and is reported instead.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chunkers import Chunk
from chunkers.model import HEADING_SEPARATOR, UNITS
from chunkers.text import count_units
from chunkers.tokens import DEFAULT_TOKENIZER

from ..text import clip
from .documents import encoding_label, guess_encoding, jsonl_lines
from .exports import CSV_FIELDS, from_csv, from_jsonl

# where a row's text may be, first match wins
TEXT_FIELDS = ("text", "page_content", "content")
# (start, end) field pairs a row's offsets may come under
OFFSET_FIELDS = (("start", "end"), ("start_char_idx", "end_char_idx"), ("start_index", "end_index"))

# how a chunk was placed
OFFSETS, EXACT, NORMALISED, PARTLY = "offsets", "exact", "normalised", "partly"
HOW = (OFFSETS, EXACT, NORMALISED, PARTLY)
_NON_SPACE = re.compile(r"\S+")
_ANCHOR = 32  # normalised characters a partial placement matches at each end
_PREVIEW = 40


# the strategy name that stands for a chunk file's chunks, written "chunks:FILE"
IMPORTED = "chunks"


@dataclass(frozen=True, slots=True)
class ChunkOrigin:
    """Where a document's chunks come from: one of the lab's strategies, or a chunk
    file another pipeline made (written ``chunks:FILE``; the app's FILE is the
    uploaded file's digest)."""

    name: str  # the strategy's name, or the chunk file's
    imported: bool = False  # a chunk file: no size or overlap of ours made it

    @classmethod
    def named(cls, spec: str) -> ChunkOrigin:
        head, _, rest = spec.partition(":")
        return cls(rest, imported=True) if head == IMPORTED else cls(spec)

    def __str__(self) -> str:
        return f"{IMPORTED}:{self.name}" if self.imported else self.name


class PlacementError(ValueError):
    """A chunk file that cannot be imported; the message is one line with the fix."""


@dataclass(frozen=True, slots=True)
class Row:
    """One chunk as the file gives it."""

    where: str  # "row 4": the 4th chunk of a JSON or JSON Lines file, line 4 of a CSV
    text: str
    start: int | None = None
    end: int | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    heading_path: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Source:
    """Where a placed chunk came from and how it was found."""

    where: str
    how: str  # one of HOW
    metadata: dict[str, Any]
    length: int = 0  # the text the pipeline embeds (the row's own text), in the unit asked for


@dataclass(frozen=True, slots=True)
class Unplaced:
    where: str
    reason: str


@dataclass(frozen=True, slots=True)
class Span:
    """Document text named by the rows around it: a gap, a shared passage, a contained chunk."""

    start: int
    end: int
    where: str  # the chunk it concerns ("" for text before the first chunk)
    other: str  # the chunk on its other side or the one it overlaps ("" for none)


@dataclass(frozen=True)
class Placement:
    chunks: list[Chunk]  # document order; body spans in order and never overlapping
    sources: list[Source]  # sources[i] is where chunks[i] came from
    unplaced: list[Unplaced] = field(default_factory=list)
    gaps: list[Span] = field(default_factory=list)  # non-whitespace text in no chunk
    overlaps: list[Span] = field(default_factory=list)  # text a chunk shares with an earlier one
    contained: list[Span] = field(default_factory=list)  # chunks wholly inside another

    def report(self, document: str, *, each_overlap: bool = True) -> list[str]:
        """One line per finding, for people: what was not placed, not covered, shared
        (overlap in one line without ``each_overlap``: a chunker with overlap shares
        text at every boundary)."""
        lines = [f"{u.where}: not placed: {u.reason}" for u in self.unplaced]
        for g in self.gaps:
            around = " and ".join(w for w in (g.where, g.other) if w) or "the chunks"
            lines.append(
                f"characters {g.start:,}-{g.end:,} are in no chunk (near {around}): "
                f"{_preview(document[g.start : g.end])}"
            )
        if self.overlaps and not each_overlap:
            lines.append(
                f"{len(self.overlaps)} chunk(s) repeat text of the chunk before them "
                f"({sum(o.end - o.start for o in self.overlaps):,} characters): shown as overlap"
            )
        for o in self.overlaps if each_overlap else ():
            lines.append(
                f"{o.where} repeats {o.end - o.start:,} characters of {o.other} "
                f"(characters {o.start:,}-{o.end:,}): shown as overlap"
            )
        for c in self.contained:
            lines.append(
                f"{c.where} lies wholly inside {c.other} (characters {c.start:,}-{c.end:,}): "
                "it adds no text of its own"
            )
        return lines


def _preview(text: str) -> str:
    return repr(clip(text, _PREVIEW))


# --------------------------------------------------------------------------- reading


def decode_chunk_file(data: bytes, name: str) -> str:
    """UTF-8 text of a chunk file (a byte-order mark dropped), or a one-line PlacementError."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        guess = guess_encoding(data)
        looks = f"; it looks like {encoding_label(guess)}" if guess else ""
        raise PlacementError(
            f"{name} is not UTF-8 (byte 0x{data[exc.start]:02X} at offset {exc.start}{looks}); "
            "save the chunk file as UTF-8 and import it again"
        ) from None


def read_rows(source: str | bytes, name: str = "the chunk file") -> list[Row]:
    """The rows of a chunk file: JSON Lines (.jsonl, .ndjson), CSV (.csv), else by content:
    a JSON array, JSON Lines, or CSV."""
    text = decode_chunk_file(source, name) if isinstance(source, bytes) else source
    head = text.lstrip("\ufeff \t\r\n")[:1]
    lower = name.lower()
    if lower.endswith((".jsonl", ".ndjson")):
        rows = _jsonl_rows(text, name)
    elif lower.endswith(".csv") or head not in ("{", "["):
        rows = _csv_rows(text, name)
    elif head == "[":
        rows = _array_rows(text, name)
    else:
        rows = _jsonl_rows(text, name)
    if not rows:
        raise PlacementError(f"{name} holds no chunks; export at least one chunk into it")
    return rows


def _jsonl_rows(text: str, name: str) -> list[Row]:
    lines = list(jsonl_lines(text))
    if lines and _is_lab_export_line(lines[0][1]):
        try:
            config, chunks = from_jsonl(text)
        except ValueError as exc:
            raise PlacementError(f"{name}: {exc}") from None
        return _lab_rows(chunks, config, list(range(1, len(chunks) + 1)))
    fix = "each line of a JSON Lines file must be one JSON object"
    # -- a row is named by its number among the chunks, a JSON error by its line
    return [
        _row(_loads(line, f"{name}, line {n}", fix), f"row {i}", name)
        for i, (n, line) in enumerate(lines, start=1)
    ]


def _loads(text: str, where: str, fix: str, *, say_line: bool = False) -> Any:
    """json.loads, or PlacementError, one line: ``where`` the JSON breaks (the line too
    when ``say_line``: a whole file, not one of its lines), and ``fix``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        at = f"line {exc.lineno}, column {exc.colno}" if say_line else f"column {exc.colno}"
        raise PlacementError(f"{where}: not JSON ({exc.msg} at {at}); {fix}") from None


def _is_lab_export_line(line: str) -> bool:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        return False
    return isinstance(obj, dict) and set(obj) == {"config", "chunk"}


def _array_rows(text: str, name: str) -> list[Row]:
    fix = "save the chunks as a JSON array or as JSON Lines, one object a line"
    items = _loads(text, name, fix, say_line=True)
    if not isinstance(items, list):
        raise PlacementError(f"{name}: expected a JSON array of chunks")
    return [_row(obj, f"row {i}", name) for i, obj in enumerate(items, start=1)]


def _csv_rows(text: str, name: str) -> list[Row]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        header = reader.fieldnames
    except csv.Error as exc:
        raise PlacementError(
            f"{name}: not CSV ({exc}); save the chunks as CSV or JSON Lines"
        ) from None
    if not header:
        return []
    if tuple(header) == CSV_FIELDS:
        try:
            config, chunks = from_csv(text)
        except ValueError as exc:
            raise PlacementError(f"{name}: {exc}") from None
        return _lab_rows(chunks, config, list(range(2, len(chunks) + 2)))
    rows = []
    try:
        for n, raw in enumerate(reader, start=2):
            obj: dict[str, Any] = {k: v for k, v in raw.items() if k is not None}
            if isinstance(obj.get("metadata"), str):
                obj["metadata"] = _csv_metadata(obj["metadata"])
            rows.append(_row(obj, f"row {n}", name, header=list(header)))
    except csv.Error as exc:
        raise PlacementError(
            f"{name}: not CSV ({exc}); save the chunks as CSV or JSON Lines"
        ) from None
    return rows


def _csv_metadata(raw: str) -> Any:
    """A CSV cell of metadata: a JSON object if it is one, else kept as the text it is."""
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        return {"metadata": raw}
    return value if isinstance(value, dict) else {"metadata": value}


def _lab_rows(chunks: list[Chunk], config: dict, numbers: list[int]) -> list[Row]:
    """The lab's own export: each chunk's source span, with its offsets and heading path."""
    rows = []
    for n, c in zip(numbers, chunks, strict=True):
        own = c.body[len(c.body) - (c.end - c.start) :] if c.header_repeated else c.body
        meta = {"config": config, "kind": c.kind}
        rows.append(Row(f"row {n}", own, c.start, c.end, meta, c.heading_path))
    return rows


def _unwrap(obj: Any) -> Any:
    """The node inside the wrappers frameworks save them in."""
    if isinstance(obj, dict):
        if isinstance(obj.get("kwargs"), dict) and obj.get("lc") is not None:
            return obj["kwargs"]  # LangChain's dumpd / to_json()
        if isinstance(obj.get("__data__"), dict):
            return obj["__data__"]  # a LlamaIndex docstore entry
    return obj


def _row(obj: Any, where: str, name: str, header: list[str] | None = None) -> Row:
    obj = _unwrap(obj)
    if not isinstance(obj, dict):
        raise PlacementError(
            f"{name}, {where}: expected a JSON object with the chunk's text, "
            f"got {type(obj).__name__}"
        )
    text = next((obj[k] for k in TEXT_FIELDS if k in obj and obj[k] is not None), None)
    if text is None and isinstance(obj.get("text_resource"), dict):
        text = obj["text_resource"].get("text")  # LlamaIndex's newer Node
    if text is None:
        found = ", ".join(repr(k) for k in (header if header is not None else obj)) or "none"
        raise PlacementError(
            f"{name}, {where}: no chunk text (found {found}); "
            f"name the text column {', '.join(TEXT_FIELDS[:-1])} or {TEXT_FIELDS[-1]}"
        )
    if not isinstance(text, str):
        raise PlacementError(
            f"{name}, {where}: the chunk text must be a string, got {type(text).__name__}"
        )
    if not drop_whitespace(text):
        raise PlacementError(
            f"{name}, {where}: the chunk text is empty; drop the row or give it the text it indexes"
        )
    metadata = obj.get("metadata")
    if not isinstance(metadata, dict):
        metadata = {} if metadata in (None, "") else {"metadata": metadata}
    start, end = _offsets(obj, metadata, where, name)
    return Row(where, text, start, end, metadata, _heading_path(text, metadata))


_HEADER_KEY = re.compile(r"Header (\d+)")  # LangChain's MarkdownHeaderTextSplitter


def _heading_path(text: str, metadata: Mapping[str, Any]) -> tuple[str, ...]:
    """The chunk's heading path from its metadata: the lab's export's ``heading_path``
    when the text begins with it (the export writes heading path, overlap and body as
    the text, and the body's offsets); else, when the text does not open with the
    heading, LangChain's ``Header 1``, ``Header 2``... or LlamaIndex's ``header_path``
    ("/A/B/")."""
    path = metadata.get("heading_path")
    if isinstance(path, list) and path and all(isinstance(p, str) for p in path):
        return tuple(path) if text.startswith(HEADING_SEPARATOR.join(path) + "\n") else ()
    levels = sorted(
        (int(m.group(1)), v)
        for k, v in metadata.items()
        if (m := _HEADER_KEY.fullmatch(str(k))) and isinstance(v, str) and v.strip()
    )
    found = tuple(v.strip() for _, v in levels)
    header_path = metadata.get("header_path")
    if not found and isinstance(header_path, str):
        found = tuple(p.strip() for p in header_path.split("/") if p.strip())
    # -- a chunk whose text opens with its own heading (headers kept) says it already
    if found and drop_whitespace(found[-1]) in drop_whitespace(text[: len(found[-1]) + 16]):
        return ()
    return found


def _offsets(
    obj: Mapping[str, Any], metadata: Mapping[str, Any], where: str, name: str
) -> tuple[int | None, int | None]:
    for a, b in OFFSET_FIELDS:
        if _given(obj.get(a)) or _given(obj.get(b)):
            return _whole(obj.get(a), a, where, name), _whole(obj.get(b), b, where, name)
    if _given(metadata.get("start_index")):  # LangChain's add_start_index
        return _whole(metadata["start_index"], "metadata.start_index", where, name), None
    if _given(metadata.get("start")) and _given(metadata.get("end")):  # the lab's own export
        return (
            _whole(metadata["start"], "metadata.start", where, name),
            _whole(metadata["end"], "metadata.end", where, name),
        )
    return None, None


def _given(value: Any) -> bool:
    return value is not None and value != ""


def _whole(value: Any, key: str, where: str, name: str) -> int | None:
    if not _given(value):
        return None
    if isinstance(value, bool):
        value = None
    elif isinstance(value, str):
        value = int(value.strip()) if value.strip().isdigit() else None
    elif isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or value < 0:
        raise PlacementError(
            f"{name}, {where}: {key} must be a character offset (a whole number from 0), "
            "or left out"
        )
    return value


# --------------------------------------------------------------------------- placing


def _kept(run: str) -> str:
    """A run of non-space characters without its non-printable ones (the one rule)."""
    return run if run.isprintable() else "".join(filter(str.isprintable, run))


def drop_whitespace(text: str) -> str:
    """``text`` with every whitespace and non-printable character dropped: what is left
    when a splitter strips, collapses or re-joins lines and drops NBSP, tabs, indentation.

    Only for placing a chunk in its document: "ab" and "a b" become one. To compare
    an answer with a chunk, where words must stay apart, use
    lab.text.collapse_whitespace (runs of whitespace to one space)."""
    return "".join(_kept(m.group()) for m in _NON_SPACE.finditer(text))


class _Normalised:
    """The document normalised (``drop_whitespace``), each offset mapped back to it."""

    def __init__(self, document: str) -> None:
        self.starts: list[int] = []  # each kept run's start in the document
        self.nstarts: list[int] = []  # ... and in the normalised text
        parts: list[str] = []
        pos = 0
        for m in _NON_SPACE.finditer(document):
            run = m.group()
            if run.isprintable():  # -- the common case: one run, no character dropped
                pieces = [(m.start(), run)]
            else:
                pieces = [(m.start() + i, ch) for i, ch in enumerate(run) if ch.isprintable()]
            for at, piece in pieces:
                self.starts.append(at)
                self.nstarts.append(pos)
                parts.append(piece)
                pos += len(piece)
        self.text = "".join(parts)

    def to_source(self, n: int) -> int:
        """The document offset of normalised offset ``n``."""
        i = bisect_right(self.nstarts, n) - 1
        return self.starts[i] + n - self.nstarts[i]

    def span(self, n: int, m: int) -> tuple[int, int]:
        """The document span of the normalised span n..m (m > n)."""
        return self.to_source(n), self.to_source(m - 1) + 1

    def from_source(self, p: int) -> int:
        """The normalised offset of the first kept character at or after document offset ``p``."""
        i = bisect_left(self.starts, p)
        if i > 0 and self.starts[i - 1] + (self._len(i - 1)) > p:
            return self.nstarts[i - 1] + p - self.starts[i - 1]
        return self.nstarts[i] if i < len(self.nstarts) else len(self.text)

    def _len(self, i: int) -> int:
        end = self.nstarts[i + 1] if i + 1 < len(self.nstarts) else len(self.text)
        return end - self.nstarts[i]


class _Finder:
    def __init__(self, document: str) -> None:
        self.document = document
        self._normalised: _Normalised | None = None

    @property
    def normalised(self) -> _Normalised:
        if self._normalised is None:  # only when some chunk needs it
            self._normalised = _Normalised(self.document)
        return self._normalised

    def place(self, row: Row, prev: tuple[int, int]) -> tuple[int, int, str] | None:
        doc, text = self.document, row.text
        if row.start is not None:
            end = row.start + len(text) if row.end is None else row.end
            if doc[row.start : end] == text:
                return row.start, end, OFFSETS
            if row.end is not None and row.start < row.end and text.endswith(doc[row.start : end]):
                # -- the text indexed: the heading path and overlap lead into the body
                return row.start, end, OFFSETS
        for at in _from(prev[0], 0):
            s = self._next(doc, text, at, prev)
            if s >= 0:
                return s, s + len(text), EXACT
        needle = drop_whitespace(text)
        if not needle:
            return None
        norm = self.normalised
        for at in _from(norm.from_source(prev[0]), 0):
            n = norm.text.find(needle, at)
            while n >= 0:
                s, e = norm.span(n, n + len(needle))
                if (s, e) != prev:
                    return s, e, NORMALISED
                n = norm.text.find(needle, n + 1)
        return self._partly(needle, norm, prev)

    @staticmethod
    def _partly(
        needle: str, norm: _Normalised, prev: tuple[int, int]
    ) -> tuple[int, int, str] | None:
        """A chunk whose edges the pipeline changed (a heading line of its own, a word
        cut): a piece of its start and a piece of its end found in order, no further
        apart than the chunk and a half, each grown outward while chunk and document
        agree."""
        if len(needle) < 3 * _ANCHOR:
            return None  # -- too short to tell a partial match from chance
        hay, quarter = norm.text, len(needle) // 4
        for at in _from(norm.from_source(prev[0]), 0):
            for h in (0, quarter):
                n = hay.find(needle[h : h + _ANCHOR], at)
                if n < 0:
                    continue
                while h and n and needle[h - 1] == hay[n - 1]:
                    h, n = h - 1, n - 1
                for t in (len(needle), len(needle) - quarter):
                    m = hay.find(needle[t - _ANCHOR : t], n + _ANCHOR)
                    if m < 0 or m + _ANCHOR - n > len(needle) * 3 // 2:
                        continue
                    m += _ANCHOR
                    while t < len(needle) and m < len(hay) and needle[t] == hay[m]:
                        t, m = t + 1, m + 1
                    s, e = norm.span(n, m)
                    return s, e, PARTLY
        return None

    @staticmethod
    def _next(hay: str, needle: str, at: int, prev: tuple[int, int] | None) -> int:
        """The first occurrence at or after ``at`` that is not the previous chunk again."""
        s = hay.find(needle, at)
        if prev is not None and s == prev[0] and s + len(needle) == prev[1]:
            s = hay.find(needle, s + 1)
        return s


def _from(first: int, then: int) -> Iterator[int]:
    yield first
    if then < first:
        yield then


def place_rows(
    document: str, rows: list[Row], unit: str = "chars", tokenizer: str = DEFAULT_TOKENIZER
) -> Placement:
    """Place each row's text in ``document``; the chunks come back in document order,
    their lengths in ``unit`` (tokens by ``tokenizer``)."""
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {', '.join(UNITS)}, got {unit!r}")
    finder = _Finder(document)
    placed: list[tuple[int, int, Row, str]] = []
    unplaced: list[Unplaced] = []
    prev = (0, 0)
    for row in rows:
        if len(row.text) > len(document) and len(drop_whitespace(row.text)) > len(
            finder.normalised.text
        ):
            raise PlacementError(
                f"{row.where}: the chunk is longer than the document ({len(row.text):,} "
                f"characters against {len(document):,}); import it with the document it was "
                "made from"
            )
        found = finder.place(row, prev)
        if found is None:
            unplaced.append(
                Unplaced(row.where, f"its text is not in the document: {_preview(row.text)}")
            )
            continue
        s, e, how = found
        placed.append((s, e, row, how))
        prev = (s, e)
    return _assemble(document, placed, unplaced, unit, tokenizer)


def _assemble(
    document: str,
    placed: list[tuple[int, int, Row, str]],
    unplaced: list[Unplaced],
    unit: str,
    tokenizer: str,
) -> Placement:
    placed.sort(key=lambda p: (p[0], -p[1]))
    chunks: list[Chunk] = []
    sources: list[Source] = []
    overlaps: list[Span] = []
    contained: list[Span] = []
    gaps: list[Span] = []
    reach, reach_where = 0, ""  # the furthest any chunk so far ends, and which one
    for s, e, row, how in placed:
        between = document[reach:s]
        if reach < s and between.strip() and not _headings_of(between, row.heading_path):
            gaps.append(_gap(document, reach, s, reach_where, row.where))
        if e <= reach:
            contained.append(Span(s, e, row.where, reach_where))
            continue
        body_start = max(s, reach)
        if s < reach:
            overlaps.append(Span(s, reach, row.where, reach_where))
        body = document[body_start:e]
        chunks.append(
            Chunk(
                index=len(chunks),
                body=body,
                start=body_start,
                end=e,
                # counted as the lab's strategies count, on text with LF line ends
                length=count_units(body.replace("\r\n", "\n"), unit, tokenizer),
                heading_path=row.heading_path,
                overlap_prefix=document[s:body_start],
                overlap_start=s if s < body_start else body_start,
                overlap_end=body_start,
            )
        )
        # -- what the pipeline embeds is its own text, whatever span it was placed on
        embedded = count_units(row.text.replace("\r\n", "\n"), unit, tokenizer)
        sources.append(Source(row.where, how, row.metadata, embedded))
        reach, reach_where = e, row.where
    if document[reach:].strip():
        gaps.append(_gap(document, reach, len(document), reach_where, ""))
    return Placement(chunks, sources, unplaced, gaps, overlaps, contained)


_MD_HEADING = re.compile(r"#{1,6}\s*(.*?)[\s#]*")


def _headings_of(text: str, heading_path: tuple[str, ...]) -> bool:
    """Whether ``text`` is only Markdown heading lines the next chunk's heading path
    names: a splitter that strips headers (LangChain's default) carries them there."""
    titles = {drop_whitespace(h) for h in heading_path}
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return bool(titles) and all(
        (m := _MD_HEADING.fullmatch(ln)) is not None and drop_whitespace(m.group(1)) in titles
        for ln in lines
    )


def _gap(document: str, s: int, e: int, before: str, after: str) -> Span:
    """The uncovered text between s and e, trimmed of the whitespace around it."""
    seg = document[s:e]
    return Span(s + len(seg) - len(seg.lstrip()), s + len(seg.rstrip()), before, after)


def import_chunks(
    source: str | bytes,
    document: str,
    name: str = "the chunk file",
    unit: str = "chars",
    tokenizer: str = DEFAULT_TOKENIZER,
) -> Placement:
    """Read a chunk file and place its chunks in ``document`` (see the module's rules).

    Args:
        source: the file's content: JSON Lines, a JSON array or CSV.
        name: what messages call the file; its suffix picks the format, else the
            content does.
        unit: the unit the placed chunks' lengths are counted in (tokens by
            ``tokenizer``).

    Returns:
        The placed chunks in document order, with where each came from, and what
        could not be placed, what no chunk covers and what two chunks share.

    Raises:
        PlacementError: one line, for a file that cannot be read as chunks (not
            UTF-8, not JSON or CSV, no chunks, a row with no text) and for a chunk
            longer than the document.
    """
    return place_rows(document, read_rows(source, name), unit, tokenizer)


def import_chunk_file(
    path: str | os.PathLike[str],
    document: str,
    unit: str = "chars",
    tokenizer: str = DEFAULT_TOKENIZER,
) -> Placement:
    """import_chunks on a file, refusing in one line a file that is not there and a
    file none of whose chunks is in the document (the wrong document, or the wrong file).

    Raises:
        PlacementError: one line, as said, or as import_chunks raises it.
    """
    p = Path(path)
    placement = import_chunks(_read_file(p), document, p.name, unit, tokenizer)
    return require_placed(placement, p.name)


def _read_file(p: Path) -> bytes:
    try:
        return p.read_bytes()
    except OSError as exc:
        problem = "is a folder, not a file" if p.is_dir() else f"cannot be read ({exc.strerror})"
        raise PlacementError(
            f"{p} {problem}; give the JSONL or CSV file the chunks were exported to"
        ) from None


# -- where pipelines write the document a chunk came from: LangChain's loaders
# -- ("source"), LlamaIndex's readers ("file_path", "file_name"), and plain names
SOURCE_FIELDS = ("source", "file_path", "file_name", "filename", "document", "doc")


def import_chunk_folder(
    path: str | os.PathLike[str],
    documents: Mapping[str, str],
    unit: str = "chars",
    tokenizer: str = DEFAULT_TOKENIZER,
) -> dict[str, Placement]:
    """The chunks of a whole folder's documents, from one file: each row goes to the
    document its metadata names (SOURCE_FIELDS, matched on the path's last parts, so
    an absolute path from the pipeline's machine finds the document of that name
    here), and is placed there.

    Args:
        documents: the folder's documents, name (path relative to the folder) -> text.

    Returns:
        Every document's placement, by name (an empty one for a document no row names).

    Raises:
        PlacementError: one line, for a row that names no document or one that is
            not in ``documents``, and for a file none of whose chunks is placed.
    """
    p = Path(path)
    rows = read_rows(_read_file(p), p.name)
    by_doc: dict[str, list[Row]] = {name: [] for name in documents}
    for row in rows:
        by_doc[_document_of(row, documents, p.name)].append(row)
    placed = {n: place_rows(documents[n], rs, unit, tokenizer) for n, rs in by_doc.items()}
    if not any(pl.chunks for pl in placed.values()):
        require_placed(next(iter(placed.values())), p.name, "these documents")
    return placed


def _path_parts(path: str) -> list[str]:
    """A path's names, either slash, without the "." and ".." a relative path begins with."""
    return [p for p in path.replace("\\", "/").split("/") if p not in ("", ".", "..")]


def _document_of(row: Row, documents: Mapping[str, str], file: str) -> str:
    """The document ``row`` names: the one whose path its source ends with (the
    longest such, so "a/index.md" and "b/index.md" stay apart)."""
    source = next((row.metadata.get(k) for k in SOURCE_FIELDS if row.metadata.get(k)), None)
    if not isinstance(source, str):
        raise PlacementError(
            f"{file}, {row.where}: says no document (metadata {', '.join(SOURCE_FIELDS[:3])}); "
            "a chunk file for a folder names each chunk's document, or check one document"
        )
    path = _path_parts(source)
    found = [n for n in documents if path[-len(_path_parts(n)) :] == _path_parts(n)]
    if not found:
        raise PlacementError(
            f"{file}, {row.where}: its document {clip(source, _PREVIEW)!r} is none of the "
            f"{len(documents)} in this folder; check the folder its chunks were made from"
        )
    return max(found, key=len)


def require_placed(
    placement: Placement,
    name: str,
    document: str = "the document",
    fix: str = "import it with the document it was made from",
) -> Placement:
    """``placement``, or PlacementError, one line, when none of the chunks of the file
    ``name`` is in ``document`` (the wrong document, or the wrong file): the first
    chunk's reason, and ``fix``."""
    if not placement.chunks:
        first = placement.unplaced[0] if placement.unplaced else None
        why = f" ({first.where}: {first.reason})" if first else ""
        raise PlacementError(f"{name}: none of its chunks is in {document}{why}; {fix}")
    return placement
