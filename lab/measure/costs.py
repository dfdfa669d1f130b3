"""What a chunking configuration costs: vectors, storage and the context budget.

Decimal units throughout (1 MB = 10**6 bytes), as the published cost table's figures are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from chunkers.text import count_units
from chunkers.tokens import DEFAULT_TOKENIZER

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


@dataclass(frozen=True, slots=True)
class CostRow:
    """The published cost table's row: a corpus in words, chunked at ``size`` words."""

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


def tokens_per_word(text: str, tokenizer: str = DEFAULT_TOKENIZER) -> float:
    """The document's own tokens per (whitespace-delimited) word by ``tokenizer``: what
    turns a size or a corpus in words into tokens, where TOKENS_PER_WORD only estimates.
    0.0 for a text with no word."""
    words = count_units(text, "words")
    return count_units(text, "tokens", tokenizer) / words if words else 0.0


@dataclass(frozen=True, slots=True)
class TokenBill:
    """A corpus and its context budget counted in one tokenizer's tokens."""

    tokenizer: str
    total_tokens: int
    chunks: int  # ceil(total / (size - overlap))
    vector_bytes: int
    hnsw_bytes: float
    k: int
    context_tokens: int  # k chunks x size tokens, per request


def token_bill(
    docs: int,
    words_per_doc: int,
    size: int,
    overlap: int,
    tokens_per_word: float,
    tokenizer: str = DEFAULT_TOKENIZER,
    *,
    k: int = 5,
) -> TokenBill:
    """The cost table's corpus in tokens (its words times a document's tokens per
    word), chunked at ``size`` tokens with ``overlap``: the vectors it stores and
    the context k chunks fill per request (overlap does not change that)."""
    total = round(docs * words_per_doc * tokens_per_word)
    n = chunks_for(total, size, overlap)
    vb = vector_bytes(n)
    return TokenBill(tokenizer, total, n, vb, with_hnsw(vb), k, k * size)


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
