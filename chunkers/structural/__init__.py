"""The structural chunker: parse once (blocks.py), pack many (pack.py)."""

from __future__ import annotations

from .. import speedups
from ..options import ChunkOptions
from ..spans import Draft
from ..text import SourceText
from .blocks import ParsedDocument, parse
from .pack import pack_drafts as pack_python
from .runts import merge_runt_lengths, merge_runts

__all__ = [
    "ParsedDocument",
    "parse",
    "pack_drafts",
    "structural_drafts",
    "merge_runts",
    "merge_runt_lengths",
]

try:  # pack.py compiled as it stands (setup.py)
    from . import _pack_compiled as _module
except ImportError:
    _module = None
_compiled, WHY_NOT = speedups.load(_module, speedups.HERE / "structural" / "pack.py")
# pack.py's compiled pack_drafts, or None (WHY_NOT says why)
pack_compiled = _compiled.pack_drafts if _compiled else None


def pack_drafts(doc: ParsedDocument, opts: ChunkOptions) -> list[Draft]:
    """Pack a parse into drafts for one size and overlap (pack.py's compiled
    build when it is built: the same output)."""
    if speedups.use_twin(pack_compiled, WHY_NOT):
        return pack_compiled(doc, opts)
    return pack_python(doc, opts)


def structural_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    return pack_drafts(parse(src), opts)
