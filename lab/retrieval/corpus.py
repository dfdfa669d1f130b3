"""Every retriever over a whole index, with the gate's tie order: what `lab check` asks.

The integrity check ranks each gold question over all the chunks of all the
documents and reads a rank, the best of some positions and the top k
(``QueryScores``). ``corpus_index`` builds that for any retriever:

* BM25 okapi or lucene: the sparse postings of ``lab.retrieval.bm25_sparse``
  (rank-bm25's scores at corpus scale);
* BM25 fts5 and dense: the retriever's own index over the chunks' indexed texts;
  a dense index embeds every question of the gold set in one call first
  (``prepare``), then each question costs one matrix-vector product;
* hybrid: reciprocal-rank fusion of the two ranks above, each ranked with the
  gate's tie order, so the fused ranks agree with the ranks the check reports.

Equal scores rank by the chunk's own index (its number within its document),
then by position in the index, for every retriever.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from chunkers.model import Chunk, indexed_text

from .bm25 import RANK_BM25_VARIANTS, query_tokens
from .bm25_sparse import QueryScores, SparseIndex, tie_order
from .bm25_variants import Bm25Retriever
from .dense import DenseIndex
from .fusion import HybridRetriever, rrf_scores
from .interface import Index, Retriever
from .tokenize import tokenize


class CorpusIndex(ABC):
    """One retriever over an index's chunks, in index order."""

    label: str  # the retriever as shown: "bm25 (lucene)", "dense (wordllama)", ...

    def prepare(self, questions: Sequence[str]) -> None:  # noqa: B027 - most have nothing to do
        """Work that is cheaper for every question at once (the dense judge embeds them)."""

    @abstractmethod
    def scores(self, question: str) -> QueryScores:
        """Every chunk's score for ``question``; ValueError for a wordless question."""

    def note(self, question: str) -> str:
        """The line saying this judge cannot read the question or the chunks ("" if it can)."""
        return ""


class _Sparse(CorpusIndex):
    def __init__(
        self,
        retriever: Bm25Retriever,
        texts: Sequence[str],
        tie_keys: Sequence[int],
        tokens: Callable[[], Iterable[Sequence[str]]] | None = None,
    ):
        self.label = retriever.label
        docs = (tokenize(t) for t in texts) if tokens is None else tokens()
        self._index = SparseIndex(docs, tie_keys, retriever.params)

    def scores(self, question: str) -> QueryScores:
        return self._index.scores(question)


class _Whole(CorpusIndex):
    """A retriever's own index (fts5, dense), its scores put in the gate's tie order."""

    def __init__(self, index: Index, tie: np.ndarray) -> None:
        self.label = index.label
        self._index = index
        self._tie = tie

    def prepare(self, questions: Sequence[str]) -> None:
        if isinstance(self._index, DenseIndex) and self._index.size:
            # -- one embedding call for the whole gold set; the vectors wait in the
            # -- embedder's cache, so each question below finds its own there
            self._index.embedder.embed(list(dict.fromkeys(questions)))

    def note(self, question: str) -> str:
        return self._index.note(question) if isinstance(self._index, DenseIndex) else ""

    def scores(self, question: str) -> QueryScores:
        query_tokens(question)
        if self._index.size == 0:
            return QueryScores(np.zeros(0), self._tie)
        return QueryScores(np.asarray(self._index.scores(question), dtype=np.float64), self._tie)


class _Fused(CorpusIndex):
    def __init__(self, label: str, sparse: CorpusIndex, dense: CorpusIndex, k: int) -> None:
        self.label = label
        self._parts = (sparse, dense)
        self._k = k

    def prepare(self, questions: Sequence[str]) -> None:
        for part in self._parts:
            part.prepare(questions)

    def note(self, question: str) -> str:
        return self._parts[1].note(question)

    def scores(self, question: str) -> QueryScores:
        # -- as HybridIndex does: BM25's ranks alone where the dense judge cannot read
        parts = self._parts[:1] if self.note(question) else self._parts
        judged = [part.scores(question) for part in parts]
        fused = rrf_scores([j.ranks() for j in judged], self._k)
        return QueryScores(fused, judged[0].tie)


def corpus_index(
    retriever: Retriever,
    chunks: Sequence[Chunk],
    texts: Sequence[str] | None = None,
    tokens: Callable[[], Iterable[Sequence[str]]] | None = None,
) -> CorpusIndex:
    """``retriever`` over ``chunks`` (every document's, in index order), as the gate asks it;
    ``texts``: what to index for each (default: ``indexed_text``), and ``tokens``, when
    given, their tokens for BM25 (made once for several indexes)."""
    texts = [indexed_text(c) for c in chunks] if texts is None else list(texts)
    keys = [c.index for c in chunks]
    return _build(retriever, texts, keys, tie_order(keys), tokens)


def _build(
    retriever: Retriever,
    texts: list[str],
    keys: list[int],
    tie: np.ndarray,
    tokens: Callable[[], Iterable[Sequence[str]]] | None = None,
) -> CorpusIndex:
    if isinstance(retriever, HybridRetriever):
        return _Fused(
            retriever.label,
            _build(retriever.bm25, texts, keys, tie, tokens),
            _build(retriever.dense, texts, keys, tie),
            retriever.k,
        )
    if isinstance(retriever, Bm25Retriever) and retriever.variant in RANK_BM25_VARIANTS:
        return _Sparse(retriever, texts, keys, tokens)
    return _Whole(retriever.index(texts), tie)  # fts5, dense, or any other judge
