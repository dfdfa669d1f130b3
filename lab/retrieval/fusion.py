"""Hybrid retrieval: reciprocal-rank fusion (RRF) of the BM25 and the dense judge.

Each chunk scores ``sum over judges of 1 / (k + rank)``. Only ranks are fused,
never scores, because a BM25 score and a cosine have no common scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .bm25_variants import Bm25Retriever
from .dense import DenseRetriever
from .interface import Index, Retrieval, Retriever

# -- k = 60, from the paper that introduced RRF (Cormack, Clarke and Buettcher, 2009) and
# -- the default of Elasticsearch and OpenSearch: it damps a first place's lead, so a chunk
# -- both judges rank fairly high beats one that a single judge ranks first and the other low
RRF_K = 60


def rrf_scores(rank_lists: Sequence[Sequence[int] | np.ndarray], k: int = RRF_K) -> np.ndarray:
    """Per position, the sum over judges of 1 / (k + rank); every list ranks the same chunks."""
    if k < 0:
        raise ValueError(f"the fusion constant k must be >= 0, got {k}")
    if not rank_lists:
        return np.zeros(0)
    sizes = {len(r) for r in rank_lists}
    if len(sizes) > 1:
        raise ValueError("every judge must rank the same chunks")
    ranks = np.asarray(rank_lists, dtype=np.float64)
    return (1.0 / (k + ranks)).sum(axis=0)


@dataclass(frozen=True, slots=True)
class Judged:
    """One question judged three ways over the same chunks."""

    bm25: Retrieval
    dense: Retrieval
    hybrid: Retrieval


class HybridIndex(Index):
    def __init__(self, bm25: Index, dense: Index, k: int, label: str) -> None:
        self.label = label
        self.size = bm25.size
        self.k = k
        self.bm25, self.dense = bm25, dense

    def _fuse(self, sparse: Retrieval, dense: Retrieval) -> Retrieval:
        """RRF of the two; BM25's ranks alone (with the dense judge's note) where the
        dense judge cannot read the text: noise fused in would only blur BM25's verdict."""
        if self.size == 0:
            return Retrieval(self.label, (), ())
        if dense.note:
            return Retrieval.of(self.label, rrf_scores([sparse.ranks], self.k), dense.note)
        return Retrieval.of(self.label, rrf_scores([sparse.ranks, dense.ranks], self.k))

    def judge(self, question: str) -> Judged:
        """The BM25, dense and fused verdicts for one question."""
        sparse, dense = self.bm25.score(question), self.dense.score(question)
        return Judged(sparse, dense, self._fuse(sparse, dense))

    def scores(self, question: str) -> np.ndarray:
        return np.asarray(self.judge(question).hybrid.scores)

    def score(self, question: str) -> Retrieval:
        return self.judge(question).hybrid  # -- with its note, when it fell back to BM25

    def score_all(self, questions: Sequence[str]) -> list[Retrieval]:
        """The dense half batched (one embedding call for every question)."""
        sparse = self.bm25.score_all(questions)
        dense = self.dense.score_all(questions)
        return [self._fuse(s, d) for s, d in zip(sparse, dense, strict=True)]


@dataclass(frozen=True)
class HybridRetriever(Retriever):
    """RRF of a BM25 retriever (default: lucene) and a dense one (default: wordllama)."""

    bm25: Bm25Retriever = field(default_factory=Bm25Retriever)
    dense: DenseRetriever = field(default_factory=DenseRetriever)
    k: int = RRF_K
    name = "hybrid"

    def __post_init__(self) -> None:
        if self.k < 0:
            raise ValueError(f"the fusion constant k must be >= 0, got {self.k}")

    @property
    def label(self) -> str:
        return f"hybrid ({self.bm25.variant} + {self.dense.embedder.name}, k={self.k})"

    def index(self, texts: Sequence[str]) -> HybridIndex:
        return HybridIndex(self.bm25.index(texts), self.dense.index(texts), self.k, self.label)
