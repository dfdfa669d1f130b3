"""The Chunk record every strategy returns.

Offsets are the truth: ``start``/``end`` index the body's source span in the
text as given (CRLF included), and ``overlap_start``/``overlap_end`` index the
span the overlap prefix was copied from. Overlap lives in its own field
(as Chonkie does), so body spans of consecutive chunks never overlap and the
displayed text is never duplicated.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

UNITS = ("words", "chars", "tokens")

# -- what happened to overlap at the boundary before a structural chunk (Chunk.overlap_outcome);
# -- the packer records it where it decides, so nothing downstream re-derives it
OVERLAP_APPLIED = "applied"  # an overlap prefix was copied from the chunk before
OVERLAP_OFF = "off"  # overlap is 0
OVERLAP_TRANSCRIBED = "transcribed"  # refused: transcribed text on one side
OVERLAP_TABLE = "table"  # refused: a table on one side
OVERLAP_NEW_SECTION = "new section"  # none: the chunk opens with a heading
OVERLAP_NOT_PROSE = "not prose"  # none: code or another block that is not prose on one side
OVERLAP_EMPTY = "empty"  # none: the chunk before ends in nothing a prefix could hold
OVERLAP_OUTCOMES = (
    OVERLAP_APPLIED,
    OVERLAP_OFF,
    OVERLAP_TRANSCRIBED,
    OVERLAP_TABLE,
    OVERLAP_NEW_SECTION,
    OVERLAP_NOT_PROSE,
    OVERLAP_EMPTY,
)


@dataclass(frozen=True, slots=True)
class Chunk:
    index: int
    body: str  # displayed and cited
    start: int  # body's source span; for a table fragment, its own rows
    end: int
    # body length in the configured unit (repeated header included); in tokens, the
    # body's own count by the configured tokenizer
    length: int
    kind: str = "prose"
    heading_path: tuple[str, ...] = ()
    overlap_prefix: str = ""  # indexed, never displayed
    overlap_start: int = 0  # source span of overlap_prefix (empty span when none)
    overlap_end: int = 0
    transcribed: bool = False  # some of its text lies under a transcribed heading
    page: int | None = None  # the page of its first character (the first page it reaches)
    header_repeated: bool = False  # body begins with a copy of its table's header
    runt_excuse: str = ""  # why a below-floor chunk was left alone, if it is one
    # a sentence too long for a chunk was cut at this chunk's start or end: the
    # seam the cut fell on ("line", "stop", "clause", "word" or "char"; the weaker
    # of the two when both ends cut one). Empty when the chunk cuts no sentence.
    # The sentence strategy sets it; chunkers.seams names the seams.
    sentence_cut: str = ""
    last_page: int | None = None  # the page of its last character (== page unless it spans)
    # what overlap did at the boundary before it (OVERLAP_OUTCOMES; "" first, or not recorded)
    overlap_outcome: str = ""

    @property
    def retrievable_text(self) -> str:
        """What a query can match without the heading path: overlap prefix + body."""
        if not self.overlap_prefix:
            return self.body
        return self.overlap_prefix + self._joiner + self.body

    @property
    def _joiner(self) -> str:
        # A prefix that runs straight into the body (a fixed chars window) joins
        # with nothing, so a word cut between them is whole again, as the window
        # was; otherwise whitespace lay between them in the source.
        return "" if self.overlap_end == self.start else "\n"

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["heading_path"] = list(self.heading_path)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Chunk:
        d = dict(d)
        d["heading_path"] = tuple(d.get("heading_path", ()))
        if "seam" in d:  # the field's former name, in chunks exported before
            d.setdefault("overlap_outcome", d.pop("seam"))
        return cls(**d)


HEADING_SEPARATOR = " > "


def indexed_text(chunk: Chunk, *, heading_path: bool = True, overlap: bool = True) -> str:
    """The text a retriever indexes: heading path + overlap prefix + body.

    The switches exist so the lab can show what each part does to ranking.
    """
    parts: list[str] = []
    if heading_path and chunk.heading_path:
        parts.append(HEADING_SEPARATOR.join(chunk.heading_path))
    body = chunk.retrievable_text if overlap else chunk.body
    parts.append(body)
    return "\n".join(parts)
