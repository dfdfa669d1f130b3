"""Atomic-element violations: what a chunking breaks that a reader needs whole.

Four elements of a markdown document should never be cut, and each has a
precise test on the chunks' body spans and the source text (the overlap
prefix is not counted: it is indexed, never shown, and cannot repair a cut):

- **table without header**: a chunk holds part of a table's data rows (a GFM
  table, with a header and a ``|---|`` separator) but neither the whole
  header + separator lines nor a repeated copy of them. Counted per such
  chunk, out of every chunk that holds data rows ("table fragments").
- **code split**: a chunk boundary (a body's start or end) lies strictly
  inside a fenced code block. Counted per code block.
- **heading stranded**: a chunk holds a heading's first character and nothing
  but whitespace after the heading (or it ends inside the heading line), while
  the document goes on after the chunk: the heading is cut off from the text
  it names. Counted per heading that has text after it.
- **lead-in stranded**: the same for what introduces the text after it: a
  paragraph ending in a colon before the block it introduces, a lone opening
  tag, anchors and comments, an admonition's title. Counted per lead-in.
  (A content tab's title counts as a heading.)
- **sentence cut**: a chunk boundary lies strictly inside a sentence. The
  sentences are those of prose paragraphs and lists (the segmenter the
  chunkers use ends a sentence where a list item starts, so a list may be cut
  between items but not inside a wrapped one). Counted per sentence.
- **over the size limit**: a chunk longer than the configuration allows (its
  effective maximum, size + floor - 1). Counted per chunk.
- **only markup**: a chunk with no word outside markup (HTML tags and comments,
  link reference definitions, link targets, attribute blocks): nothing a
  question could match. Counted per chunk.

The elements are found once per document (``elements``) and shared by every
configuration measured against it. The chunk-quality report (``findings``,
``python -m lab stats`` and Lab 6) lists the chunks these checks flag, one
document at a time; ``lab diff``'s rates are their totals.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from chunkers import Chunk, parse
from chunkers.segment import sentence_spans

TABLE = "table without header"
CODE = "code split"
HEADING = "heading stranded"
LEADIN = "lead-in stranded"
SENTENCE = "sentence cut"
OVERSIZE = "over the size limit"
MARKUP = "only markup"
KINDS = (TABLE, CODE, HEADING, LEADIN, SENTENCE, OVERSIZE, MARKUP)

# -- the chunk-quality report's checks, as a reader names them: each is one (or two)
# -- of the kinds above, so the report and the diff's rates cannot disagree
PASSES_SIZE = "passes the size"
ENDS_WITH_TITLE = "ends with a heading or lead-in"
ONLY_MARKUP = "is only markup"
CUTS_SENTENCE = "cuts a sentence"
REPORTED = {
    OVERSIZE: PASSES_SIZE,
    HEADING: ENDS_WITH_TITLE,
    LEADIN: ENDS_WITH_TITLE,
    MARKUP: ONLY_MARKUP,
    SENTENCE: CUTS_SENTENCE,
}
CHECKS = (PASSES_SIZE, ENDS_WITH_TITLE, ONLY_MARKUP, CUTS_SENTENCE)

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Table:
    header: Span  # header + separator lines, through the line break after the separator
    rows: Span  # first data row's start to last data row's end


@dataclass(frozen=True, slots=True)
class Elements:
    """One document's atomic elements, in offsets of the text as given."""

    text: str
    tables: tuple[Table, ...] = ()
    code: tuple[Span, ...] = ()
    headings: tuple[Span, ...] = ()  # only headings (and tab titles) with text after them
    sentences: tuple[Span, ...] = ()
    leads: tuple[Span, ...] = ()  # lead-ins, lone opening tags, anchors, admonition titles


def elements(text: str) -> Elements:
    """Find the tables, code blocks, headings, lead-ins and sentences of ``text``."""
    doc = parse(text)
    to_src = doc.source.to_source
    norm = doc.text
    tables, code, headings, sentences, leads = [], [], [], [], []
    last_text = len(norm.rstrip())  # a heading ending before this has text after it
    for i, block in enumerate(doc.blocks):
        kind, s, e = block.kind, block.start, block.end
        if e < last_text and (i in doc.leads or kind in ("anchor", "admonition")):
            # (an admonition's title is its first line)
            end = norm.find("\n", s, e) if kind == "admonition" else e
            leads.append((to_src(s), to_src(e if end < 0 else end)))
        if kind == "table" and block.header is not None and block.rows:
            hs, he = block.header
            rows = (block.rows[0][0], block.rows[-1][1])
            tables.append(Table((to_src(hs), to_src(he)), (to_src(rows[0]), to_src(rows[1]))))
        elif kind == "code":
            code.append((to_src(s), to_src(e)))
        elif kind in ("heading", "tab") and e < last_text:
            headings.append((to_src(s), to_src(e)))
        elif kind in ("prose", "list") and not only_markup(norm[s:e]):
            # (link reference definitions are no sentences)
            sentences += sentence_spans(norm, s, e)
    sentences = [(to_src(s), to_src(e)) for s, e in sentences]
    return Elements(
        text, tuple(tables), tuple(code), tuple(headings), tuple(sentences), tuple(leads)
    )


@dataclass(frozen=True, slots=True)
class KindCount:
    violations: int = 0
    out_of: int = 0  # how many elements (or, for tables, table fragments) could break

    @property
    def rate(self) -> Fraction:
        """Exact, so that two configurations compare without rounding."""
        return Fraction(self.violations, self.out_of) if self.out_of else Fraction(0)

    def __add__(self, other: KindCount) -> KindCount:
        return KindCount(self.violations + other.violations, self.out_of + other.out_of)


@dataclass(frozen=True)
class Violations:
    """One configuration's violations: counts per kind, and which chunks broke what."""

    counts: dict[str, KindCount] = field(default_factory=lambda: {k: KindCount() for k in KINDS})
    # (document, 0-based chunk index) -> the kinds that chunk breaks
    by_chunk: dict[tuple[str, int], tuple[str, ...]] = field(default_factory=dict)
    # of the elements cut at a boundary (code, sentences): how many no chunk holds
    # whole, overlap prefix included (a cut overlap repairs is still counted as cut)
    whole_in_no_chunk: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> KindCount:
        out = KindCount()
        for c in self.counts.values():
            out = out + c
        return out

    def merged(self, other: Violations) -> Violations:
        counts = {k: self.counts[k] + other.counts[k] for k in KINDS}
        lost = {
            k: self.whole_in_no_chunk.get(k, 0) + other.whole_in_no_chunk.get(k, 0)
            for k in {**self.whole_in_no_chunk, **other.whole_in_no_chunk}
        }
        return Violations(counts, {**self.by_chunk, **other.by_chunk}, lost)


def violations(
    doc: str, chunks: Sequence[Chunk], found: Elements, limit: int | None = None
) -> Violations:
    """Every violation of one document's chunks (``doc`` names the document);
    ``limit``: the longest a chunk may be (its configuration's effective maximum),
    None to leave sizes unchecked."""
    flagged: dict[int, list[str]] = {}

    def flag(i: int, kind: str) -> None:
        kinds = flagged.setdefault(i, [])
        if kind not in kinds:
            kinds.append(kind)

    lost: dict[str, int] = {}
    counts = {
        TABLE: _tables(chunks, found, flag),
        CODE: _cuts(chunks, found.code, CODE, flag, lost),
        HEADING: _stranded(chunks, found.text, found.headings, HEADING, flag),
        LEADIN: _stranded(chunks, found.text, found.leads, LEADIN, flag),
        SENTENCE: _cuts(chunks, found.sentences, SENTENCE, flag, lost),
        OVERSIZE: _each(chunks, lambda c: limit is not None and c.length > limit, OVERSIZE, flag),
        MARKUP: _each(chunks, lambda c: only_markup(c.body), MARKUP, flag),
    }
    by_chunk = {(doc, chunks[i].index): tuple(k) for i, k in sorted(flagged.items())}
    return Violations(counts, by_chunk, lost)


def _tables(chunks: Sequence[Chunk], found: Elements, flag) -> KindCount:
    starts = [c.start for c in chunks]
    fragments = bad = 0
    for table in found.tables:
        (hs, he), (rs, re_) = table.header, table.rows
        # the chunks whose body span meets the data rows
        first = max(0, bisect_right(starts, rs) - 1)
        for i in range(first, bisect_left(starts, re_)):
            c = chunks[i]
            if not (c.start < re_ and rs < c.end):
                continue
            fragments += 1
            if not (c.header_repeated or (c.start <= hs and he <= c.end)):
                bad += 1
                flag(i, TABLE)
    return KindCount(bad, fragments)


def _cuts(
    chunks: Sequence[Chunk], spans: Sequence[Span], kind: str, flag, lost: dict[str, int]
) -> KindCount:
    """Spans with a chunk boundary strictly inside them; ``lost[kind]``: how many of
    those no chunk holds whole, its overlap prefix included."""
    # each boundary with the chunk it belongs to: a body's start, then its end
    bounds = sorted((p, i) for i, c in enumerate(chunks) for p in (c.start, c.end))
    points = [p for p, _ in bounds]
    ends = [c.end for c in chunks]
    bad = gone = 0
    for s, e in spans:
        lo, hi = bisect_right(points, s), bisect_left(points, e)
        if lo < hi:
            bad += 1
            for _, i in bounds[lo:hi]:
                flag(i, kind)
            if not _held(chunks, ends, s, e):
                gone += 1
    lost[kind] = gone
    return KindCount(bad, len(spans))


def _retrievable(c: Chunk) -> Span:
    """The source span a chunk's retrievable text covers: overlap prefix and body."""
    has_prefix = c.overlap_start < c.overlap_end
    return (min(c.overlap_start, c.start) if has_prefix else c.start, c.end)


def _held(chunks: Sequence[Chunk], ends: list[int], s: int, e: int) -> bool:
    """Whether some chunk's retrievable text holds [s, e) whole: one ending at or after
    e and starting (body) before e, its prefix reaching back to s."""
    for c in chunks[bisect_left(ends, e) :]:
        if c.start >= e:
            return False
        lo, hi = _retrievable(c)
        if lo <= s and e <= hi:
            return True
    return False


def _stranded(chunks: Sequence[Chunk], text: str, spans: Sequence[Span], kind: str, flag):
    """Headings (or lead-ins) a chunk holds with nothing after them, or ends inside,
    while the document goes on: cut off from the text they name or introduce."""
    starts = [c.start for c in chunks]
    last_text = len(text.rstrip())
    bad = 0
    for hs, he in spans:
        i = bisect_right(starts, hs) - 1
        if i < 0 or not hs < chunks[i].end:
            continue  # no chunk holds it
        c = chunks[i]
        alone_at_end = c.end <= he or not text[he : c.end].strip()
        if alone_at_end and c.end < last_text:
            bad += 1
            flag(i, kind)
    return KindCount(bad, len(spans))


def _each(chunks: Sequence[Chunk], breaks, kind: str, flag) -> KindCount:
    """Chunks that break a rule of their own (``breaks``), out of every chunk."""
    bad = 0
    for i, c in enumerate(chunks):
        if breaks(c):
            bad += 1
            flag(i, kind)
    return KindCount(bad, len(chunks))


# what a reader never reads as words: HTML comments and tags, a link reference
# definition's line, a link's target, an attribute block
_MARKUP = re.compile(
    r"<!--.*?-->|<[^<>]*>|^[ \t]*\[[^\]\n]+\]:[^\n]*$|\]\([^()\s]*\)|\{[^{}\n]*\}",
    re.S | re.M,
)
_WORD = re.compile(r"\w")


def only_markup(body: str) -> bool:
    """Whether the text holds no word outside markup (nothing a question could match)."""
    return _WORD.search(_MARKUP.sub(" ", body)) is None


@dataclass(frozen=True, slots=True)
class Finding:
    """A chunk the quality report lists: its place, what it breaks, how it starts."""

    doc: str
    index: int  # 0-based, as Chunk.index
    checks: tuple[str, ...]  # CHECKS it fails
    first_line: str


def findings(doc: str, chunks: Sequence[Chunk], broken: Violations) -> list[Finding]:
    """The chunks of document ``doc`` that the report's checks flag, in order."""
    out = []
    for c in chunks:
        kinds = broken.by_chunk.get((doc, c.index), ())
        checks = tuple(ch for ch in CHECKS if any(REPORTED.get(k) == ch for k in kinds))
        if checks:
            out.append(Finding(doc, c.index, checks, first_line(c.body)))
    return out


def first_line(body: str) -> str:
    """A chunk's first non-blank line, as it starts."""
    return next((line.strip() for line in body.splitlines() if line.strip()), "")


def quality(
    documents: Mapping[str, str], chunked: Mapping[str, Sequence[Chunk]], limit: int | None
) -> tuple[dict[str, int], list[Finding]]:
    """The chunk-quality report over documents: how many chunks fail each check,
    and every chunk that fails one, document by document (``limit``: the
    configuration's effective maximum)."""
    counts = dict.fromkeys(CHECKS, 0)
    listed: list[Finding] = []
    for name, chunks in chunked.items():
        broken = violations(name, chunks, elements(documents[name]), limit)
        for f in findings(name, chunks, broken):
            listed.append(f)
            for check in f.checks:
                counts[check] += 1
    return counts, listed
