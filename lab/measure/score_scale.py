"""Why a BM25 score from one chunking says nothing about another's.

BM25 weighs each term by its IDF, and the IDF is computed over the chunks: how
many chunks there are and how many hold the term. Chunk the same document
another way and every term's weight changes, and so does the average length
each chunk is divided by. The same question's top score under configuration A
and under B are two numbers on two scales: a higher one is not a better
chunking. Compare chunkings by where the answer ranks (recall@k, MRR over a
gold set), which is a rank in each and means the same in both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chunkers import Chunk
from lab.measure.survival import holds
from lab.retrieval.bm25 import DEFAULT_VARIANT, FTS5, ChunkIndex, query_tokens
from lab.retrieval.bm25_variants import chunk_scores

from .diff import ChunkConfig


@dataclass(frozen=True, slots=True)
class TopScore:
    """One question's BM25 verdict over one configuration's chunks."""

    config: str  # STRATEGY:UNIT:SIZE:OVERLAP
    variant: str
    chunks: int
    top_score: float | None  # None: no chunks
    top_chunk: int | None  # 1-based
    answer_rank: int | None  # the best rank of a chunk holding the answer; None: none does
    answer_score: float | None
    # the weight of each of the question's words over these chunks (question order,
    # each once); empty for fts5, whose IDF stays inside SQLite
    idf: dict[str, float]
    avgdl: float | None  # the mean chunk length in tokens BM25 divides by; None for fts5


def top_score(
    text: str,
    config: ChunkConfig,
    question: str,
    answer: str | None = None,
    *,
    variant: str = DEFAULT_VARIANT,
    placed: list[Chunk] | None = None,
) -> TopScore:
    """``question`` scored over ``text`` chunked by ``config``: its top score, where the
    answer's chunk ranks, and the weights the chunks gave the question's words.
    ``placed``: an imported config's chunks, already placed in ``text``."""
    words = list(dict.fromkeys(query_tokens(question)))
    chunks = placed if config.imported and placed is not None else config.chunk("", text)
    scores = chunk_scores(chunks, question, variant=variant)
    top = min(scores, key=lambda s: s.rank, default=None)
    held = [s for c, s in zip(chunks, scores, strict=True) if answer and holds(c, answer)]
    best = min(held, key=lambda s: s.rank, default=None)
    idf: dict[str, float] = {}
    avgdl = None
    if variant != FTS5 and chunks:
        index = ChunkIndex(chunks, variant=variant)
        idf = {w: index.idf(w) for w in words}
        avgdl = index.avgdl
    return TopScore(
        str(config),
        variant,
        len(chunks),
        top.score if top else None,
        top.index + 1 if top else None,
        best.rank if best else None,
        best.score if best else None,
        idf,
        avgdl,
    )


def top_scores(
    text: str,
    configs: Sequence[ChunkConfig],
    question: str,
    answer: str | None = None,
    *,
    variant: str = DEFAULT_VARIANT,
    placed: list[Chunk] | None = None,
) -> list[TopScore]:
    """``top_score`` under each configuration (A, then B)."""
    return [top_score(text, c, question, answer, variant=variant, placed=placed) for c in configs]
