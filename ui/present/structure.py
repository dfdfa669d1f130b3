"""Lab 5 as data: table fragments, overlap refusals and heading inheritance; and the
chunk-quality report's rows (Lab 6).

The structural chunker's rules made visible on real chunks: a table fragment repeats its
header; overlap never crosses into or out of a table or transcribed text; a
transcribed heading is never carried into a later section's heading path.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import pairwise

from chunkers import Chunk, ChunkOptions, model
from lab.measure.atomic import Finding
from lab.text import clip

APPLIED = "overlap applied"
REFUSED_TABLE = "refused: a table on one side"
REFUSED_TRANSCRIBED = "refused: transcribed text on one side"
NEW_SECTION = "none: a new section starts"
NOT_PROSE = "none: code or another block that is not prose on one side"
EMPTY = "none: nothing to copy"
NOT_ASKED = "none: overlap is 0"
NONE = "none"
# the structural packer records overlap's outcome at each boundary on the chunk
# after it (Chunk.overlap_outcome): what it decided is what the lab shows, never re-derived here
OUTCOMES = {
    model.OVERLAP_APPLIED: APPLIED,
    model.OVERLAP_OFF: NOT_ASKED,
    model.OVERLAP_TRANSCRIBED: REFUSED_TRANSCRIBED,
    model.OVERLAP_TABLE: REFUSED_TABLE,
    model.OVERLAP_NEW_SECTION: NEW_SECTION,
    model.OVERLAP_NOT_PROSE: NOT_PROSE,
    model.OVERLAP_EMPTY: EMPTY,
}


# what a table fragment carries as its header, as the lab's table says it
HEADER_REPEATED = "repeated"  # the chunker copied the table's header row into it
HEADER_OWN = "its own"  # the fragment starts with the table's own header rows
HEADER_NONE = "✗ none"  # data rows with no header: nothing says what the numbers are


@dataclass(frozen=True, slots=True)
class TableFragment:
    number: int
    length: int
    header_repeated: bool
    first_line: str  # the fragment's first line, as a reader sees it
    header: str = HEADER_OWN  # HEADER_REPEATED, HEADER_OWN or HEADER_NONE


def table_fragments(
    chunks: Sequence[Chunk], headerless: Collection[int] = frozenset()
) -> list[TableFragment]:
    """The chunks that hold a table. ``headerless``: the indexes of chunks holding a
    table's data rows without its header (``lab.measure.atomic``'s "table without
    header", the one rule for it)."""
    return [
        TableFragment(
            c.index + 1,
            c.length,
            c.header_repeated,
            c.body.lstrip().splitlines()[0] if c.body.strip() else "",
            HEADER_REPEATED
            if c.header_repeated
            else HEADER_NONE
            if c.index in headerless
            else HEADER_OWN,
        )
        for c in chunks
        if c.kind == "table"
    ]


@dataclass(frozen=True, slots=True)
class Boundary:
    before: int  # 1-based chunk numbers either side of the boundary
    after: int
    outcome: str
    overlap_chars: int


def boundaries(chunks: Sequence[Chunk], opts: ChunkOptions) -> list[Boundary]:
    """What happened to overlap at every boundary between consecutive chunks."""
    out = []
    for prev, cur in pairwise(chunks):
        if cur.overlap_outcome:
            outcome = OUTCOMES[cur.overlap_outcome]
        elif cur.overlap_prefix:  # a strategy that records no outcomes (fixed, sentence...)
            outcome = APPLIED
        elif opts.overlap == 0:
            outcome = NOT_ASKED
        else:
            outcome = NONE
        out.append(Boundary(prev.index + 1, cur.index + 1, outcome, len(cur.overlap_prefix)))
    return out


def refusals(chunks: Sequence[Chunk], opts: ChunkOptions) -> list[Boundary]:
    return [
        s for s in boundaries(chunks, opts) if s.outcome in (REFUSED_TABLE, REFUSED_TRANSCRIBED)
    ]


@dataclass(frozen=True, slots=True)
class Inheritance:
    number: int
    transcribed: bool
    page: int | None
    heading_path: str
    note: str


def heading_inheritance(chunks: Sequence[Chunk]) -> list[Inheritance]:
    """Each transcribed chunk and the chunk right after it: the transcribed
    heading names its own chunk but never the next section's."""
    out: list[Inheritance] = []
    seen: set[int] = set()
    for i, c in enumerate(chunks):
        if not c.transcribed:
            continue
        for j in (i, i + 1):
            if j >= len(chunks) or j in seen:
                continue
            seen.add(j)
            d = chunks[j]
            if d.transcribed:
                note = "transcribed: its own heading is in its path"
            else:
                heads = [h for h in c.heading_path if h not in d.heading_path]
                note = (
                    f"next section: the transcribed heading {heads[-1]!r} is not inherited"
                    if heads
                    else "next section"
                )
            out.append(
                Inheritance(
                    d.index + 1,
                    d.transcribed,
                    d.page,
                    model.HEADING_SEPARATOR.join(d.heading_path),
                    note,
                )
            )
    return out


def quality_rows(findings: Sequence[Finding]) -> list[dict[str, object]]:
    """One row per flagged chunk: its number (from 1), what it breaks, its first line."""
    return [
        {"chunk": f.index + 1, "what": ", ".join(f.checks), "first line": clip(f.first_line, 80)}
        for f in findings
    ]
