"""Three BM25s over the same tokens: okapi (rank-bm25), lucene (never negative), fts5 (SQLite).

All three see the same indexed texts, the same tokens (``lab.retrieval.tokenize``:
FTS5's unicode61 approximated, CJK runs as bigrams; FTS5 is handed them) and the same k1 and b
(``lab.retrieval.bm25``'s defaults), so a difference between them is a difference of
scoring alone. Each scores a term ``idf * tf*(k1+1) / (tf + k1*(1 - b + b*|D|/avgdl))``
summed over the question's tokens; they differ in the IDF:

* ``okapi``: rank-bm25's BM25Okapi, as the rest of the lab scores.
  ``idf = log((N - n + 0.5) / (n + 0.5))``, negative for a term in more than
  half the chunks, where rank-bm25 puts ``epsilon * average idf`` instead. On a
  short document (two chunks) every shared word's IDF is negative and so is the
  floor, and a chunk that says the question's words more often scores lower:
  the answer can rank last.
* ``lucene``: ``idf = log(1 + (N - n + 0.5) / (n + 0.5))``, as Lucene,
  Elasticsearch and OpenSearch score. Always above zero, so every score is
  zero or more and a match never counts against a chunk. (Lucene since 8.0
  leaves out the constant factor (k1 + 1), which scales every score alike and
  moves no rank; it is kept here so okapi and lucene differ in IDF only.)
* ``fts5``: SQLite's own bm25() over the FTS5 index ``lab.retrieval.fts5`` builds, the
  whole indexed text in one column. Its IDF is okapi's, a non-positive value
  clamped to 1e-6; SQLite returns it negated (lower is better), so it is
  negated back here. k1 = 1.2 and b = 0.75 are compiled into SQLite.

The length-normalisation lesson (k1, b and the inflation cap of ``lab.retrieval.theory``)
is the tf part, the same in all three.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rank_bm25 import BM25Okapi

from chunkers import Chunk, indexed_text
from lab.retrieval.bm25 import (
    BM25_VARIANTS,
    DEFAULT_B,
    DEFAULT_K1,
    DEFAULT_PARAMS,
    DEFAULT_VARIANT,
    FTS5,
    LUCENE,
    OKAPI,
    Bm25Params,
    ChunkIndex,
    ChunkScore,
    LuceneBM25,
    lucene_idf,
    model_scores,
    query_tokens,
    rank_bm25,
    ranks_from,
)
from lab.retrieval.fts5 import Fts5Index
from lab.retrieval.tokenize import tokenize

from .interface import Index, Retriever

# -- the names a caller has always imported from here; they live in lab.retrieval.bm25
__all__ = [
    "BM25_VARIANTS",
    "DEFAULT_VARIANT",
    "Bm25Params",
    "FTS5",
    "LUCENE",
    "OKAPI",
    "Bm25Index",
    "Bm25Retriever",
    "LuceneBM25",
    "chunk_scores",
    "lucene_idf",
]


class Bm25Index(Index):
    """One BM25 variant over fixed texts."""

    def __init__(self, texts: Sequence[str], params: Bm25Params, label: str):
        self.label = label
        self.size = len(texts)
        self.variant = params.variant
        self._model: BM25Okapi | None = None
        self._fts5: Fts5Index | None = None
        if params.variant == FTS5:
            self._fts5 = Fts5Index(texts)
            return
        docs = [tokenize(t) for t in texts]
        # rank-bm25 divides by zero over no texts or no tokens at all; nothing can match then
        if any(docs):
            self._model = rank_bm25(docs, params)

    def scores(self, question: str) -> np.ndarray:
        if self._fts5 is not None:
            # no match: 0, below every match (FTS5's clamped IDF keeps a match above 0)
            out = np.zeros(self.size)
            for pos, s in self._fts5.raw(question).items():
                out[pos] = -s
            return out
        if self._model is None:
            return np.zeros(self.size)
        return model_scores(self._model, tokenize(question))


@dataclass(frozen=True)
class Bm25Retriever(Retriever):
    """BM25 in one of BM25_VARIANTS, with k1 and b (fts5: SQLite's own, fixed)."""

    variant: str = DEFAULT_VARIANT
    k1: float = DEFAULT_K1
    b: float = DEFAULT_B
    name = "bm25"

    def __post_init__(self) -> None:
        _ = self.params  # -- the settings' rules live with Bm25Params: a bad one fails here

    @property
    def params(self) -> Bm25Params:
        return Bm25Params(self.variant, self.k1, self.b)

    @property
    def label(self) -> str:
        return f"bm25 ({self.variant})"

    def index(self, texts: Sequence[str]) -> Bm25Index:
        return Bm25Index(texts, self.params, self.label)


def chunk_scores(
    chunks: Sequence[Chunk],
    question: str,
    params: Bm25Params = DEFAULT_PARAMS,
    *,
    heading_path: bool = True,
    overlap: bool = True,
) -> list[ChunkScore]:
    """One ChunkScore per chunk, in the order given (so results align with ``chunks``),
    in any of BM25_VARIANTS; ValueError for a question with no searchable words.

    The indexed text is ``indexed_text(chunk, heading_path=..., overlap=...)``, the
    switches showing what heading paths and overlap prefixes do to ranking. fts5 scores
    the same texts in one column, turned round so higher is better (SQLite's own k1, b).
    """
    query_tokens(question)  # a bad question is an error even with no chunks
    if params.variant != FTS5:
        index = ChunkIndex(chunks, params, heading_path=heading_path, overlap=overlap)
        return index.score(question)
    texts = [indexed_text(c, heading_path=heading_path, overlap=overlap) for c in chunks]
    scores = Bm25Retriever(FTS5).score(texts, question).scores if chunks else ()
    ranks = ranks_from(scores, [c.index for c in chunks])
    return [
        ChunkScore(c.index, s, r, c.length, len(tokenize(t)))
        for c, s, r, t in zip(chunks, scores, ranks, texts, strict=True)
    ]
