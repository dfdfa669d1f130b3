"""BM25 over a whole index with sparse postings: rank-bm25's scores, at corpus scale.

Both rank-bm25 variants, okapi and lucene (the default), with the IDF table
(``idf_table``) and the term weight (``term_weight``) of lab.retrieval.bm25: the
formulas are written there once, and here only applied to arrays.

rank-bm25 (lab/retrieval/bm25.py, the app's per-chunk teaching score) walks every chunk's
term dictionary for every question term: fine for one document, hours for an
index of 100,000 chunks and 1,000 questions. Here the index is built once as
postings (per term: the chunks holding it and how often, numpy arrays, the
layout of a compressed sparse column matrix), and a question touches only the
postings of its own terms.

-- why not bm25s or SQLite FTS5 --
Both are fast, but neither scores like rank-bm25: bm25s has no epsilon floor
for negative IDF, FTS5 normalises length per column and clamps IDF. The gate's
ranks must equal the app's, so this engine repeats rank-bm25's arithmetic
operation for operation (same IDF sum order, same float expression, terms added
in question order) and its scores are bit-for-bit rank-bm25's; the tests hold
the ranks equal on the sample documents and the corpus. docs/gate.md has the
timings that chose it.

Tie order (the same rule as lab.retrieval.bm25.ranks_from): a higher score first; equal
scores by the chunk's own index (its number within its document), then by its
position in the index (documents in the order given).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from chunkers.model import Chunk, indexed_text

from .bm25 import (
    DEFAULT_PARAMS,
    RANK_BM25_VARIANTS,
    Bm25Params,
    check_variant,
    idf_table,
    length_factor,
    query_tokens,
    term_weight,
)
from .tokenize import tokenize


@dataclass(frozen=True, slots=True)
class QueryScores:
    """One question's scores over the whole index, with the tie order to rank them."""

    scores: np.ndarray  # float64, one per chunk position
    tie: np.ndarray  # int64: each position's place in the tie order (0 = first)

    def _order(self, positions: np.ndarray) -> np.ndarray:
        """``positions`` sorted best first."""
        return positions[np.lexsort((self.tie[positions], -self.scores[positions]))]

    def rank(self, position: int) -> int:
        """1-based rank of one chunk position among all chunks."""
        s, t = self.scores[position], self.tie[position]
        better = np.count_nonzero(self.scores > s)
        tied_before = np.count_nonzero((self.scores == s) & (self.tie < t))
        return int(better + tied_before + 1)

    def best(self, positions: Sequence[int] | np.ndarray) -> tuple[int, int] | None:
        """(position, rank) of the best-ranked of ``positions``; None if empty."""
        if len(positions) == 0:
            return None
        first = int(self._order(np.asarray(positions, dtype=np.int64))[0])
        return first, self.rank(first)

    def top(self, k: int) -> list[int]:
        """The positions of the k best chunks, best first."""
        n = len(self.scores)
        k = min(k, n)
        if k <= 0:
            return []
        # every chunk scoring at least the k-th best score is a candidate; sort those only
        kth = np.partition(self.scores, n - k)[n - k]
        candidates = np.flatnonzero(self.scores >= kth)
        return [int(p) for p in self._order(candidates)[:k]]

    def ranks(self) -> np.ndarray:
        """Every position's 1-based rank (for tests and small indexes)."""
        order = self._order(np.arange(len(self.scores), dtype=np.int64))
        out = np.empty(len(order), dtype=np.int64)
        out[order] = np.arange(1, len(order) + 1)
        return out


def tie_order(tie_keys: Sequence[int]) -> np.ndarray:
    """Each position's place in the tie order (0 = first): by the chunk's own index,
    then by position (lexsort: the last key is the primary one)."""
    n = len(tie_keys)
    order = np.lexsort((np.arange(n), np.asarray(tie_keys, dtype=np.int64)))
    tie = np.empty(n, dtype=np.int64)
    tie[order] = np.arange(n)
    return tie


class SparseIndex:
    """rank-bm25 (okapi or lucene) over token lists (one per chunk, read once, in
    order), as postings; build once, ask many questions."""

    def __init__(
        self,
        docs: Iterable[Sequence[str]],
        tie_keys: Sequence[int],
        params: Bm25Params = DEFAULT_PARAMS,
    ) -> None:
        check_variant(params.variant, RANK_BM25_VARIANTS)
        self.variant = params.variant
        self.k1 = params.k1
        n = len(tie_keys)
        self.size = n
        self._tie = tie_order(tie_keys)
        # term ids in first-seen order: rank-bm25 sums IDF over its dict in that order.
        # Each chunk's tokens become an array of ids at once and are let go: a corpus
        # held as Python strings, one per token, would cost many times its size
        vocab: dict[str, int] = {}
        parts: list[np.ndarray] = []
        for d in docs:
            unseen = [t for t in dict.fromkeys(d) if t not in vocab]
            vocab.update(zip(unseen, range(len(vocab), len(vocab) + len(unseen)), strict=True))
            parts.append(np.fromiter(map(vocab.__getitem__, d), dtype=np.int64, count=len(d)))
        if len(parts) != n:
            raise ValueError("one tie key per document is needed")
        lengths = np.fromiter((len(p) for p in parts), dtype=np.int64, count=n)
        ids = np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)
        del parts
        self.vocab = vocab
        self._empty = n == 0 or not ids.size  # rank-bm25 cannot be built: all scores 0
        if self._empty:
            return
        doc_of = np.repeat(np.arange(n, dtype=np.int64), lengths)
        pairs, tf = np.unique(ids * n + doc_of, return_counts=True)  # sorted by term, then doc
        terms = pairs // n
        self._docs = pairs % n
        self._tf = tf.astype(np.int64)
        df = np.bincount(terms, minlength=len(vocab))
        self._bounds = np.concatenate(([0], np.cumsum(df)))
        avgdl = int(lengths.sum()) / n
        self._factor = length_factor(lengths, avgdl, params.b)  # elementwise, as rank-bm25
        self._idf = idf_table(n, df.tolist(), params.variant, params.epsilon)

    def scores(self, query: str) -> QueryScores:
        """Every chunk's BM25 score for ``query``; ValueError for a wordless question."""
        q = query_tokens(query)
        score = np.zeros(self.size)
        if self._empty:
            return QueryScores(score, self._tie)
        # -- only the chunks that hold a term get its weight: a term a chunk lacks adds
        # -- nothing (where k1 * length term is 0 that is rank-bm25's 0/0, made 0 as
        # -- lab.retrieval.bm25.model_scores does)
        for token in q:
            term = self.vocab.get(token)
            if term is not None:
                lo, hi = self._bounds[term], self._bounds[term + 1]
                docs, tf = self._docs[lo:hi], self._tf[lo:hi]
                idf = self._idf[term] or 0
                score[docs] += idf * term_weight(tf, self._factor[docs], self.k1)
        return QueryScores(score, self._tie)


def chunk_index(chunks: Sequence[Chunk], params: Bm25Params = DEFAULT_PARAMS) -> SparseIndex:
    """The index ChunkIndex builds (heading path + overlap prefix + body), sparse."""
    docs = (tokenize(indexed_text(c)) for c in chunks)
    return SparseIndex(docs, [c.index for c in chunks], params)
