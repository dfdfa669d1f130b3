"""Seed 000's structural chunker: parse once (parse.py), pack many (pack.py)."""

from __future__ import annotations

from .. import speedups
from ..options import ChunkOptions
from ..spans import Draft
from ..text import SourceText
from .pack import pack_drafts as pack_python
from .parse import ParsedDocument, parse
from .runts import sweep, sweep_lengths

__all__ = ["ParsedDocument", "parse", "pack_drafts", "structural_drafts", "sweep", "sweep_lengths"]


def pack_drafts(
    doc: ParsedDocument, opts: ChunkOptions, compiled: bool | None = None
) -> list[Draft]:
    """Pack a parse into drafts for one size and overlap.

    ``compiled``: None uses pack.py's compiled build when it is built, True
    insists on it, False runs pack.py as Python. Their output is the same.
    """
    fast, why = speedups.pack_drafts()
    if speedups.use_twin(fast, compiled, why):
        return fast(doc, opts)
    return pack_python(doc, opts)


def structural_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    return pack_drafts(parse(src), opts)
