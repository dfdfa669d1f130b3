"""The structural chunker: parse once (blocks.py), pack many (pack.py)."""

from __future__ import annotations

from ..options import ChunkOptions
from ..spans import Draft
from ..text import SourceText
from .blocks import ParsedDocument, parse
from .pack import pack_drafts, pack_drafts_near
from .runts import merge_runt_lengths, merge_runts

__all__ = [
    "ParsedDocument",
    "parse",
    "pack_drafts",
    "pack_drafts_near",
    "structural_drafts",
    "merge_runts",
    "merge_runt_lengths",
]


def structural_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    return pack_drafts(parse(src), opts)
