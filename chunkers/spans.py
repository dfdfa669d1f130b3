"""Turning spans over the normalised text into Chunk records.

Strategies decide spans; this module is the one place that slices text, so
``body == text[start:end]`` holds by construction for every strategy.
"""
from __future__ import annotations

from dataclasses import dataclass

from .model import Chunk
from .text import SourceText, count_units


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


def finish(src: SourceText, drafts: list[Draft], unit: str) -> list[Chunk]:
    """Slice bodies from the caller's text and number the chunks."""
    out: list[Chunk] = []
    orig, norm, to_src = src.original, src.norm, src.to_source
    for draft in drafts:
        s, e = to_src(draft.start), to_src(draft.end)
        header = norm_header = ""
        if draft.header is not None:
            # copied from the source by span, so CRLF stays CRLF
            hs, he = draft.header
            header = orig[to_src(hs) : to_src(he)]
            norm_header = norm[hs:he]
        body = header + orig[s:e]
        if draft.overlap_end > draft.overlap_start:
            os_, oe = to_src(draft.overlap_start), to_src(draft.overlap_end)
            prefix = orig[os_:oe]
        else:
            os_ = oe = s
            prefix = ""
        norm_body = norm_header + norm[draft.start : draft.end]
        out.append(
            Chunk(
                index=len(out),
                body=body,
                start=s,
                end=e,
                length=count_units(norm_body, unit),
                kind=draft.kind,
                heading_path=draft.heading_path,
                overlap_prefix=prefix,
                overlap_start=os_,
                overlap_end=oe,
                transcribed=draft.transcribed,
                page=draft.page,
                header_repeated=draft.header is not None,
                runt_excuse=draft.runt_excuse,
            )
        )
    return out
