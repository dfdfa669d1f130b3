"""Three BM25s over the same tokens: okapi (rank-bm25), lucene (never negative), fts5 (SQLite).

All three see the same indexed texts and, for okapi and lucene, the same tokens
(``lab.tokenize``, FTS5's unicode61 approximated) and the same k1 and b
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

The length-normalisation lesson (k1, b and the inflation cap of ``lab.theory``)
is the tf part, the same in all three.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rank_bm25 import BM25Okapi

from chunkers import Chunk
from lab.retrieval.bm25 import DEFAULT_B, DEFAULT_EPSILON, DEFAULT_K1, check_parameters
from lab.retrieval.fts5 import fts5_scores
from lab.retrieval.tokenize import tokenize

from .interface import Index, Retriever

OKAPI = "okapi"
LUCENE = "lucene"
FTS5 = "fts5"
BM25_VARIANTS = (LUCENE, OKAPI, FTS5)
# -- the default never scores below zero: a short upload's answer cannot rank last
# -- for saying the question's words, and a bar chart of scores never dips under its axis
DEFAULT_VARIANT = LUCENE


def lucene_idf(n_chunks: int, n_holding: int) -> float:
    """Lucene's BM25 IDF: log(1 + (N - n + 0.5) / (n + 0.5)), above zero for any n <= N."""
    return math.log(1 + (n_chunks - n_holding + 0.5) / (n_holding + 0.5))


class LuceneBM25(BM25Okapi):
    """rank-bm25's BM25Okapi with Lucene's IDF and no epsilon floor (none is needed).

    Only the IDF table changes; rank-bm25's own scoring loop does the rest, so
    okapi and lucene cannot drift apart anywhere else.
    """

    def __init__(self, corpus: Sequence[Sequence[str]], k1: float, b: float) -> None:
        super().__init__(corpus, k1=k1, b=b, epsilon=0.0)

    def _calc_idf(self, nd: dict[str, int]) -> None:  # rank-bm25's hook for its IDF table
        for word, n_holding in nd.items():
            self.idf[word] = lucene_idf(self.corpus_size, n_holding)
        self.average_idf = sum(self.idf.values()) / len(self.idf) if self.idf else 0.0


def _as_chunks(texts: Sequence[str]) -> list[Chunk]:
    """Each text as the body of a chunk of its own: FTS5's body column holds all of it."""
    return [Chunk(index=i, body=t, start=0, end=len(t), length=len(t)) for i, t in enumerate(texts)]


class Bm25Index(Index):
    """One BM25 variant over fixed texts."""

    def __init__(self, texts: Sequence[str], variant: str, k1: float, b: float, label: str):
        self.label = label
        self.size = len(texts)
        self.variant = variant
        self._model: BM25Okapi | None = None
        self._chunks: list[Chunk] = []
        if variant == FTS5:
            self._chunks = _as_chunks(texts)
            return
        docs = [tokenize(t) for t in texts]
        # rank-bm25 divides by zero over no texts or no tokens at all; nothing can match then
        if any(docs):
            if variant == LUCENE:
                self._model = LuceneBM25(docs, k1=k1, b=b)
            else:
                self._model = BM25Okapi(docs, k1=k1, b=b, epsilon=DEFAULT_EPSILON)

    def scores(self, question: str) -> np.ndarray:
        if self.variant == FTS5:
            found = fts5_scores(self._chunks, question, heading_path=False, overlap=False)
            # no match: 0, below every match (FTS5's clamped IDF keeps a match above 0)
            return np.array([0.0 if s.score is None else -s.score for s in found])
        if self._model is None:
            return np.zeros(self.size)
        # 0/0 only where tf = 0 and the length term is 0 (k1 = 0, or b = 1 with an
        # empty text): such a term contributes nothing, so NaN -> 0, as lab.retrieval.bm25 does
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.nan_to_num(self._model.get_scores(tokenize(question)), nan=0.0)


@dataclass(frozen=True)
class Bm25Retriever(Retriever):
    """BM25 in one of BM25_VARIANTS, with k1 and b (fts5: SQLite's own, fixed)."""

    variant: str = DEFAULT_VARIANT
    k1: float = DEFAULT_K1
    b: float = DEFAULT_B
    name = "bm25"

    def __post_init__(self) -> None:
        if self.variant not in BM25_VARIANTS:
            raise ValueError(
                f"BM25 variant must be one of {', '.join(BM25_VARIANTS)}, got {self.variant!r}"
            )
        check_parameters(self.k1, self.b)
        if self.variant == FTS5 and (self.k1, self.b) != (DEFAULT_K1, DEFAULT_B):
            raise ValueError(
                f"fts5 scores with SQLite's own k1={DEFAULT_K1} and b={DEFAULT_B}; "
                "use the lucene or okapi variant to change them"
            )

    @property
    def label(self) -> str:
        return f"bm25 ({self.variant})"

    def index(self, texts: Sequence[str]) -> Bm25Index:
        return Bm25Index(texts, self.variant, self.k1, self.b, self.label)
