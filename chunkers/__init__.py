"""Pure chunking: the Chunk model, the strategies, parse once / pack many."""

from .limit import Fitted, LimitUnreachable
from .model import Chunk, indexed_text
from .options import ChunkOptions
from .registry import (
    STRATEGIES,
    Strategy,
    chunk,
    chunk_fitted,
    chunk_parsed,
    chunk_sweep,
    chunk_sweep_near,
    chunk_with,
    get_strategy,
)
from .structural import ParsedDocument, merge_runt_lengths, parse

__all__ = [
    "Chunk",
    "ChunkOptions",
    "STRATEGIES",
    "Strategy",
    "chunk",
    "chunk_fitted",
    "chunk_parsed",
    "Fitted",
    "LimitUnreachable",
    "chunk_sweep",
    "chunk_sweep_near",
    "parse",
    "ParsedDocument",
    "merge_runt_lengths",
    "chunk_with",
    "get_strategy",
    "indexed_text",
]
