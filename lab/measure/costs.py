"""What a chunking configuration costs: vectors, storage and the context budget.

Decimal units throughout (1 MB = 10**6 bytes), as the published cost table's figures are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

DIMS = 1536
BYTES_PER_DIM = 4  # float32
HNSW_FACTOR = 1.5  # an HNSW index adds roughly half again to the vectors' bytes
# English prose runs about 4 tokens per 3 words (2,500 words ~ 3,300 tokens).
TOKENS_PER_WORD = 4 / 3


def chunks_for(total_units: int, size: int, overlap: int = 0) -> int:
    """Fixed-stride estimate: ceil(total / (size - overlap)), over the whole corpus
    as the published cost table computes it (per-document rounding would add up to a chunk each)."""
    if total_units < 0 or overlap < 0 or size <= overlap:
        raise ValueError(
            f"need total >= 0 and 0 <= overlap < size (got {total_units}, {size}, {overlap})"
        )
    return -(-total_units // (size - overlap))


def vector_bytes(n_chunks: int, dims: int = DIMS, bytes_per_dim: int = BYTES_PER_DIM) -> int:
    """Raw vector storage: exact, chunks x dims x bytes (6,144 bytes per 1536-d float32)."""
    return n_chunks * dims * bytes_per_dim


def with_hnsw(nbytes: float, factor: float = HNSW_FACTOR) -> float:
    """Vectors plus an HNSW index, estimated as a multiple of the vector bytes."""
    return nbytes * factor


@dataclass(frozen=True, slots=True)
class ContextBudget:
    words: int
    tokens: int


def context_budget(
    k: int, chunk_size_words: int, tokens_per_word: float = TOKENS_PER_WORD
) -> ContextBudget:
    """Per-request context for k retrieved chunks; overlap does not change it."""
    words = k * chunk_size_words
    return ContextBudget(words, round(words * tokens_per_word))


def round_sig(x: float, digits: int = 3) -> float:
    """Round to significant figures, as the published cost table does (133,334 -> 133,000)."""
    if x == 0:
        return 0.0
    return float(round(x, digits - 1 - math.floor(math.log10(abs(x)))))


def human_bytes(nbytes: float, digits: int = 3) -> str:
    """Decimal MB/GB to ``digits`` significant figures: 614400000 -> '614 MB'."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if abs(nbytes) >= scale:
            return f"{round_sig(nbytes / scale, digits):g} {unit}"
    return f"{nbytes:g} B"


@dataclass(frozen=True, slots=True)
class CostRow:
    total_words: int
    size: int
    overlap: int
    chunks: int  # exact ceil estimate
    vector_bytes: int  # vectors only, as in the published cost table
    hnsw_bytes: float  # vectors + HNSW estimate
    context: ContextBudget  # k chunks of `size` words


def cost_row(
    docs: int,
    words_per_doc: int,
    size: int,
    overlap: int = 0,
    *,
    k: int = 5,
    dims: int = DIMS,
    bytes_per_dim: int = BYTES_PER_DIM,
    hnsw_factor: float = HNSW_FACTOR,
    tokens_per_word: float = TOKENS_PER_WORD,
) -> CostRow:
    total = docs * words_per_doc
    n = chunks_for(total, size, overlap)
    vb = vector_bytes(n, dims, bytes_per_dim)
    return CostRow(
        total,
        size,
        overlap,
        n,
        vb,
        with_hnsw(vb, hnsw_factor),
        context_budget(k, size, tokens_per_word),
    )
