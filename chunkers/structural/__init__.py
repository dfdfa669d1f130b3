"""Seed 000's structural chunker: parse once (parse.py), pack many (pack.py)."""
from __future__ import annotations

from ..options import ChunkOptions
from ..spans import Draft
from ..text import SourceText
from .pack import pack_drafts
from .parse import ParsedDocument, parse
from .runts import sweep, sweep_lengths

__all__ = ["ParsedDocument", "parse", "pack_drafts", "structural_drafts", "sweep", "sweep_lengths"]


def structural_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    return pack_drafts(parse(src), opts)
