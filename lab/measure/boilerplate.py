"""Boilerplate: lines repeated across the pages of a converted document or across the
documents of a folder (running headers, footers, disclaimers, navigation), found,
measured and stripped before chunking (see docs/concepts.md).

A line is a candidate when it belongs to running text (a paragraph, a list, an HTML
or quoted block; CommonMark's blocks, as the structural chunker parses them) and
carries at least two words. It is **boilerplate** when it recurs in at least half of
the units (pages or documents), and in at least three: compared case-, space- and
digit-blind, so "Page 3 of 12" and "Page 4 of 12" are one line. On a document's
pages a line is boilerplate too when it recurs at the same place (among the first
or the last three lines of its page) on a quarter of the pages, and on three at
least: a running header or footer (lab.inputs.running, the converter's own rule).

-- why headings and tables are never candidates -- a heading that recurs for a reason
("Parameters" under every endpoint, "Before you start" in every procedure) labels
different text each time, and a table header repeated on the next page is what
keeps that page's rows readable (the structural chunker repeats it on purpose).
Stripping either would cost meaning; what the specification warns of is text that
says the same thing everywhere, and that is running text.

Consecutive boilerplate lines of one block in one unit are reported together (a
two-line footer is one finding). Each finding says how many units carry it, how
many characters it adds to the index, and how many chunks consist mostly of it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from chunkers import Chunk, ChunkOptions, chunk_with, parse
from lab.inputs.running import MIN_UNITS, PLACED_SHARE, line_key, running_lines
from lab.retrieval.tokenize import tokenize

MIN_SHARE = 0.5  # boilerplate recurs in at least this share of the units ...
# ... and in at least MIN_UNITS; or, on pages, at one place on PLACED_SHARE of them
MIN_WORDS = 2  # a shorter line ("Notes", "—") says too little to call it boilerplate
MOSTLY = 0.5  # a chunk "consists mostly" of boilerplate from this share of its body on
RUNNING_TEXT = frozenset({"prose", "list", "html", "quote", "admonition", "footnote"})
PAGES, DOCUMENTS = "pages", "documents"

_PLACES = 3  # a running line is among a page's first or last three lines


class BoilerplateError(ValueError):
    """Nothing to compare: one line naming the problem and the fix."""


@dataclass(frozen=True, slots=True)
class Occurrence:
    doc: str
    unit: str  # "page 3" or the document's name
    start: int  # source offsets in the document: first line's start ...
    end: int  # ... last line's end (without its line break)


@dataclass(frozen=True)
class Finding:
    """One repeated block: its text, where it occurs and what it costs."""

    scope: str  # PAGES or DOCUMENTS
    where: str  # the document whose pages carry it, or the folder
    text: str  # the first occurrence, as written
    units: int  # pages (or documents) that carry it
    out_of: int  # pages (or documents) compared
    occurrences: list[Occurrence]
    chunks_mostly: int = 0  # chunks whose body is mostly this block

    @property
    def chars(self) -> int:
        """Characters it adds to the index, every occurrence counted."""
        return sum(o.end - o.start for o in self.occurrences)


@dataclass(frozen=True)
class Report:
    findings: list[Finding]
    documents: int
    chars: int  # all documents' characters
    chunks: int  # chunks of all documents, at the report's configuration
    chunks_mostly: int  # chunks whose body is mostly boilerplate (any finding)
    strategy: str = ""
    options: ChunkOptions | None = None
    notes: list[str] = field(default_factory=list)  # units too few to compare, etc.

    @property
    def boilerplate_chars(self) -> int:
        return sum(f.chars for f in self.findings)

    def spans(self) -> dict[str, list[tuple[int, int]]]:
        """Every document's boilerplate spans, sorted and merged."""
        return {doc: _merged(spans) for doc, spans in _spans_by_doc(self.findings).items()}

    def to_json(self) -> dict:
        return {
            "documents": self.documents,
            "chars": self.chars,
            "boilerplate_chars": self.boilerplate_chars,
            "chunks": self.chunks,
            "chunks_mostly_boilerplate": self.chunks_mostly,
            "strategy": self.strategy,
            "options": None if self.options is None else _options(self.options),
            "thresholds": {
                "min_share": MIN_SHARE,
                "placed_share": PLACED_SHARE,
                "min_units": MIN_UNITS,
                "mostly": MOSTLY,
            },
            "notes": self.notes,
            "findings": [
                {
                    "scope": f.scope,
                    "where": f.where,
                    "text": f.text,
                    "units": f.units,
                    "out_of": f.out_of,
                    "chars": f.chars,
                    "chunks_mostly": f.chunks_mostly,
                    "occurrences": [
                        {"doc": o.doc, "unit": o.unit, "start": o.start, "end": o.end}
                        for o in f.occurrences
                    ],
                }
                for f in self.findings
            ],
        }


def _options(o: ChunkOptions) -> dict:
    return {"size": o.size, "overlap": o.overlap, "unit": o.unit}


# --------------------------------------------------------------------------- lines and units


@dataclass(frozen=True, slots=True)
class _Line:
    key: str
    unit: str
    block: int  # the block it belongs to (lines of one block group together)
    start: int  # source offsets
    end: int
    place: int | None = None  # among its page's first (0, 1, 2) or last (-1, -2, -3) lines


def _lines(text: str, *, by_page: bool) -> tuple[list[_Line], list[str]]:
    """The candidate lines of a document, each with its unit (its page, when
    ``by_page``; else the document), and the units in order."""
    doc = parse(text)
    to_src, norm = doc.source.to_source, doc.text
    out: list[_Line] = []
    units: dict[str, None] = {}
    for n, block in enumerate(doc.blocks):
        page = doc.sections[block.section].page
        if by_page:
            if page is None:  # before the first page anchor: the document's front matter
                continue
            unit = f"page {page}"
            units[unit] = None
        else:
            unit = ""
        if block.kind not in RUNNING_TEXT:
            continue
        pos = block.start
        for raw in norm[block.start : block.end].split("\n"):
            s, e = pos, pos + len(raw)
            pos = e + 1
            key = line_key(raw)
            words = tokenize(key)
            if len(words) < MIN_WORDS or not any(w.isalpha() for w in words):
                continue
            out.append(_Line(key, unit, n, to_src(s), to_src(e)))
    return (_placed(out) if by_page else out), list(units)


def _placed(lines: list[_Line]) -> list[_Line]:
    """Each line with its place on its page, when it is among the first or last few."""
    by_unit: dict[str, list[int]] = defaultdict(list)
    for i, line in enumerate(lines):
        by_unit[line.unit].append(i)
    out = list(lines)
    for indices in by_unit.values():
        for n, i in enumerate(indices):
            back = n - len(indices)
            place = n if n < _PLACES else back if back >= -_PLACES else None
            if place is not None:
                out[i] = replace(out[i], place=place)
    return out


def _threshold(units: int) -> int:
    return max(MIN_UNITS, math.ceil(MIN_SHARE * units))


def _find(lines: Sequence[tuple[str, _Line]], units: int, scope: str, where: str) -> list[Finding]:
    """Findings among ``lines`` ((document, line) pairs) compared over ``units`` units."""
    carriers: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for doc, line in lines:
        carriers[line.key].add((doc, line.unit))
    need = _threshold(units)
    flagged = {k for k, c in carriers.items() if len(c) >= need}
    if scope == PAGES:  # a running header or footer: at one place on fewer pages
        by_page: dict[tuple[str, str], set[tuple[str, int]]] = defaultdict(set)
        for doc, line in lines:
            if line.place is not None:
                by_page[(doc, line.unit)].add((line.key, line.place))
        flagged |= {key for key, _ in running_lines(list(by_page.values()), units)}
    # consecutive flagged lines of one block, in one unit, make one occurrence
    runs: list[tuple[str, list[_Line]]] = []
    for doc, line in lines:
        if line.key not in flagged:
            continue
        last = runs[-1] if runs else None
        if last and last[0] == doc and last[1][-1].block == line.block:
            last[1].append(line)
        else:
            runs.append((doc, [line]))
    groups: dict[tuple[str, ...], list[tuple[str, list[_Line]]]] = defaultdict(list)
    for doc, run in runs:
        groups[tuple(li.key for li in run)].append((doc, run))
    findings = []
    for group in groups.values():
        occurrences = [
            Occurrence(doc, run[0].unit or doc, run[0].start, run[-1].end) for doc, run in group
        ]
        carried = {(o.doc, o.unit) for o in occurrences}
        findings.append(Finding(scope, where, "", len(carried), units, occurrences))
    return findings


def _with_text(f: Finding, documents: dict[str, str]) -> Finding:
    first = f.occurrences[0]
    return Finding(
        f.scope, f.where, documents[first.doc][first.start : first.end], f.units, f.out_of,
        f.occurrences,
    )  # fmt: skip


def find_boilerplate(
    documents: dict[str, str],
    *,
    strategy: str = "structural",
    options: ChunkOptions | None = None,
    chunked: dict[str, list[Chunk]] | None = None,
) -> Report:
    """Boilerplate across the pages of each converted document (its ``## Page N``
    sections) and, for two or more documents, across the documents.

    One document must have pages (BoilerplateError otherwise); in a folder, a document
    with fewer than MIN_UNITS pages is compared only with the others. Chunks are made
    at ``strategy`` and ``options`` (or taken from ``chunked``) to count the chunks
    that consist mostly of boilerplate.
    """
    if not documents:
        raise BoilerplateError("no documents to compare: give a document with pages or a folder")
    options = options or ChunkOptions()
    findings: list[Finding] = []
    notes: list[str] = []
    for name, text in documents.items():
        lines, units = _lines(text, by_page=True)
        if len(units) >= MIN_UNITS:
            findings += _find([(name, li) for li in lines], len(units), PAGES, name)
        elif len(documents) == 1:
            raise BoilerplateError(_no_pages(name, len(units)))
    if len(documents) >= MIN_UNITS:
        every = [(n, li) for n, t in documents.items() for li in _lines(t, by_page=False)[0]]
        # -- a line already found on a document's pages is not found again across documents
        seen = {(o.doc, o.start) for f in findings for o in f.occurrences}
        across = _find(every, len(documents), DOCUMENTS, "the folder")
        findings += [f for f in across if not all((o.doc, o.start) in seen for o in f.occurrences)]
    elif len(documents) > 1:
        notes.append(
            f"{len(documents)} documents are too few to compare across documents "
            f"(it takes {MIN_UNITS}); only their pages were compared"
        )
    if chunked is None:
        chunked = {n: chunk_with(t, strategy, options) for n, t in documents.items()}
    findings = [_with_text(f, documents) for f in findings]
    findings = [_counted(f, chunked) for f in findings]
    findings.sort(key=lambda f: (-f.chars, f.where, f.text))
    all_spans = {d: _merged(s) for d, s in _spans_by_doc(findings).items()}
    mostly = sum(
        share >= MOSTLY
        for name, cs in chunked.items()
        for share in shares(cs, all_spans.get(name, []))
    )
    return Report(
        findings,
        len(documents),
        sum(len(t) for t in documents.values()),
        sum(len(cs) for cs in chunked.values()),
        mostly,
        strategy,
        options,
        notes,
    )


def _no_pages(name: str, pages: int) -> str:
    has = "no '## Page N' sections" if not pages else f"only {pages} page(s)"
    return (
        f"{name} has {has}: per-page detection needs a converted document with at least "
        f"{MIN_UNITS} pages; run it on a folder to compare documents instead"
    )


def _spans_by_doc(findings: Sequence[Finding]) -> dict[str, list[tuple[int, int]]]:
    out: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for f in findings:
        for o in f.occurrences:
            out[o.doc].append((o.start, o.end))
    return out


def _merged(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def shares(chunks: Sequence[Chunk], spans: Sequence[tuple[int, int]]) -> list[float]:
    """Each chunk's share of body characters inside ``spans`` (sorted, disjoint)."""
    out = []
    for c in chunks:
        inside = sum(max(0, min(e, c.end) - max(s, c.start)) for s, e in spans)
        out.append(inside / (c.end - c.start) if c.end > c.start else 0.0)
    return out


def _counted(f: Finding, chunked: dict[str, list[Chunk]]) -> Finding:
    by_doc = {d: _merged(s) for d, s in _spans_by_doc([f]).items()}
    mostly = sum(
        share >= MOSTLY for d, spans in by_doc.items() for share in shares(chunked[d], spans)
    )
    return Finding(f.scope, f.where, f.text, f.units, f.out_of, f.occurrences, mostly)


# --------------------------------------------------------------------------- stripping


@dataclass(frozen=True)
class Stripped:
    """A document without its boilerplate, and where the removed text was."""

    original: str
    text: str
    removed: list[tuple[int, int]]  # source spans taken out, sorted and disjoint

    def inside_removed(self, start: int, end: int) -> int:
        """Characters of [start, end) that were taken out."""
        return sum(max(0, min(e, end) - max(s, start)) for s, e in self.removed)

    def to_stripped(self, i: int) -> int:
        """An offset of the original as an offset of the stripped text (an offset
        inside removed text maps to where the removal was)."""
        gone = 0
        for s, e in self.removed:
            if i <= s:
                break
            gone += min(i, e) - s
        return i - gone


def _line_breaks_after(text: str, i: int) -> int:
    j = i
    while j < len(text) and text[j] in "\r\n":
        j += 1
    return j


def strip(text: str, spans: Sequence[tuple[int, int]]) -> Stripped:
    """``text`` without the boilerplate ``spans`` (each taken with the line breaks after
    it, so no run of blank lines is left behind)."""
    removed = _merged([(s, _line_breaks_after(text, e)) for s, e in spans])
    parts, at = [], 0
    for s, e in removed:
        parts.append(text[at:s])
        at = e
    parts.append(text[at:])
    return Stripped(text, "".join(parts), removed)


def strip_all(documents: dict[str, str], report: Report) -> dict[str, Stripped]:
    spans = report.spans()
    return {n: strip(t, spans.get(n, [])) for n, t in documents.items()}


def write_stripped(stripped: dict[str, Stripped], out_dir: Path, sources: Sequence[Path]) -> int:
    """Write each stripped document under ``out_dir`` by its name (its path relative to
    the folder read); refuses to write over a file it read. Returns the files written."""
    out_dir = Path(out_dir)
    originals = {p.resolve() for p in sources}
    for name in stripped:
        target = (out_dir / name).resolve()
        if target in originals:
            raise BoilerplateError(
                f"--strip would write over the original {name}; give an output folder "
                "other than the one read"
            )
    for name, s in stripped.items():
        target = out_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        # bytes as read: CRLF stays CRLF
        target.write_bytes(s.text.encode("utf-8"))
    return len(stripped)
