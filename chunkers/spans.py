"""Turning spans over the normalised text into Chunk records.

Strategies decide spans; this module is the one place that slices text, so
``body == text[start:end]`` holds by construction for every strategy.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Chunk
from .pages import PageMarks, page_marks, page_span
from .text import SourceText, count_units
from .tokens import DEFAULT_TOKENIZER


@dataclass(slots=True)
class Draft:
    """A chunk under construction, in normalised-text offsets."""

    start: int
    end: int
    kind: str = "prose"
    heading_path: tuple[str, ...] = ()
    transcribed: bool = False
    page: int | None = None
    # span of the table header + separator lines (through the line break after
    # the separator) that this fragment repeats; None when it repeats nothing
    header: tuple[int, int] | None = None
    overlap_start: int = 0
    overlap_end: int = 0
    runt_excuse: str = ""
    sentence_cut: str = ""
    last_page: int | None = None
    overlap_outcome: str = ""
    # the body's length when the strategy has counted it exactly already (in
    # tokens, the structural packer); -1: finish counts it
    length: int = -1


def finish(
    src: SourceText,
    drafts: list[Draft],
    unit: str,
    tokenizer: str = DEFAULT_TOKENIZER,
    first: int = 0,
) -> list[Chunk]:
    """Slice bodies from the caller's text and number the chunks, from ``first``
    (the number of chunks before them, when only some of a chunking are made)."""
    out: list[Chunk] = []
    orig, norm = src.original, src.norm
    # no CR was dropped (the usual case): offsets map to themselves, skip the map
    to_src = src.to_source if len(orig) != len(norm) else None
    chars = unit == "chars"
    # a strategy that reads no headings gets its pages from the page marks
    marks = None if any(d.page is not None for d in drafts) else _marks(src)
    for index, draft in enumerate(drafts):
        ds, de = draft.start, draft.end
        page, last_page = draft.page, draft.last_page
        if marks:
            page, last_page = page_span(marks, ds, de)
        s, e = (to_src(ds), to_src(de)) if to_src else (ds, de)
        header = norm_header = ""
        if draft.header is not None:
            # copied from the source by span, so CRLF stays CRLF
            hs, he = draft.header
            header = orig[to_src(hs) : to_src(he)] if to_src else orig[hs:he]
            norm_header = norm[hs:he]
        body = header + orig[s:e]
        if draft.overlap_end > draft.overlap_start:
            os_, oe = draft.overlap_start, draft.overlap_end
            if to_src:
                os_, oe = to_src(os_), to_src(oe)
            prefix = orig[os_:oe]
        else:
            os_ = oe = s
            prefix = ""
        # the length is counted on the normalised text (chars: no need to slice it);
        # in tokens, the body's own count, repeated header included
        if chars:
            length = len(norm_header) + de - ds
        elif draft.length >= 0:
            length = draft.length
        else:
            length = count_units(norm_header + norm[ds:de], unit, tokenizer)
        out.append(
            Chunk(
                index=first + index,
                body=body,
                start=s,
                end=e,
                length=length,
                kind=draft.kind,
                heading_path=draft.heading_path,
                overlap_prefix=prefix,
                overlap_start=os_,
                overlap_end=oe,
                transcribed=draft.transcribed,
                page=page,
                header_repeated=draft.header is not None,
                runt_excuse=draft.runt_excuse,
                sentence_cut=draft.sentence_cut,
                last_page=last_page,
                overlap_outcome=draft.overlap_outcome,
            )
        )
    return out


def _marks(src: SourceText) -> PageMarks | None:
    """The text's page marks, found once per text (a sweep finishes it at many sizes)."""
    if "page_marks" not in src.cache:
        marks = page_marks(src.norm)
        src.cache["page_marks"] = marks if marks[0] else None
    return src.cache["page_marks"]
