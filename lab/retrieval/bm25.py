"""Score chunks for a question with rank-bm25, in one of two IDFs.

We call rank-bm25 rather than re-implementing BM25 so the lab shows what a
widely used library actually does, quirks included. The two variants differ in
the IDF only (the IDF functions live here, once: the sparse index of the gate
reads them too):

* ``lucene`` (the default): ``log(1 + (N - n + 0.5) / (n + 0.5))``, as Lucene,
  Elasticsearch and OpenSearch score. Above zero for every term, so no score is
  ever negative and a match never counts against a chunk.
* ``okapi``: rank-bm25's BM25Okapi, ``log((N - n + 0.5) / (n + 0.5))``. For a
  term in more than half the chunks that is negative; BM25Okapi then replaces
  it with ``epsilon * average_idf`` (average over the whole vocabulary), a
  small positive floor - or a negative one if the average itself is negative.
  With exactly half the chunks containing a term (e.g. 1 of 2) the IDF is 0
  and the term contributes nothing; on a two-chunk document the answer's chunk
  can score below zero and rank last.

SQLite FTS5's bm25(), the third variant, is in ``lab.retrieval.fts5``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from rank_bm25 import BM25Okapi

from chunkers.model import Chunk, indexed_text

from .tokenize import tokenize

# The lab's BM25 settings, here and nowhere else (the theory curve, the CLI's
# defaults and the app's sliders read them): FTS5 and the usual BM25 use k1=1.2,
# b=0.75; rank-bm25's own k1 default is 1.5.
DEFAULT_K1 = 1.2
DEFAULT_B = 0.75
DEFAULT_EPSILON = 0.25  # rank-bm25's default IDF floor factor

OKAPI = "okapi"
LUCENE = "lucene"
FTS5 = "fts5"
BM25_VARIANTS = (LUCENE, OKAPI, FTS5)
# -- the default never scores below zero: a short upload's answer cannot rank last
# -- for saying the question's words, and a bar chart of scores never dips under its axis
DEFAULT_VARIANT = LUCENE
RANK_BM25_VARIANTS = (LUCENE, OKAPI)  # the two rank-bm25 computes (fts5 is SQLite's)


def okapi_idf(n_chunks: int, n_holding: int) -> float:
    """rank-bm25's BM25Okapi IDF before its floor: log((N - n + 0.5) / (n + 0.5)),
    as rank-bm25 writes it (a difference of logs: the same float, bit for bit)."""
    return math.log(n_chunks - n_holding + 0.5) - math.log(n_holding + 0.5)


def lucene_idf(n_chunks: int, n_holding: int) -> float:
    """Lucene's BM25 IDF: log(1 + (N - n + 0.5) / (n + 0.5)), above zero for any n <= N."""
    return math.log(1 + (n_chunks - n_holding + 0.5) / (n_holding + 0.5))


def idf_table(n_chunks: int, holding: Iterable[int], variant: str, epsilon: float) -> list[float]:
    """Each term's IDF, the terms in vocabulary (first-seen) order, ``holding`` the
    number of chunks holding each.

    lucene: ``lucene_idf``, never below zero, so no floor. okapi: ``okapi_idf``, a
    negative value replaced by ``epsilon * average IDF``, the average summed one by one
    in vocabulary order, as rank-bm25's BM25Okapi does (the tests hold the two equal).
    """
    if variant == LUCENE:
        return [lucene_idf(n_chunks, n) for n in holding]
    idf = [okapi_idf(n_chunks, n) for n in holding]
    idf_sum = 0.0
    for v in idf:  # -- one by one, not sum(): the same float rank-bm25 gets
        idf_sum += v
    floor = epsilon * (idf_sum / len(idf)) if idf else 0.0
    return [floor if v < 0 else v for v in idf]


def length_factor(length: Any, avgdl: float, b: float) -> Any:
    """``1 - b + b*|D|/avgdl``: how much longer than average a chunk is, softened by b
    (a float, or a numpy array of lengths)."""
    return 1 - b + b * length / avgdl


def term_weight(tf: Any, factor: Any, k1: float) -> Any:
    """A term's BM25 weight before IDF, ``tf*(k1+1) / (tf + k1*factor)``, ``factor``
    from ``length_factor`` (floats or numpy arrays).

    -- why here -- the sparse index and the theory curve compute with it; rank-bm25,
    the scores the app shows, writes the same expression in its own loop, and the
    tests hold the sparse index's scores equal to rank-bm25's, bit for bit."""
    return tf * (k1 + 1) / (tf + k1 * factor)


def check_variant(variant: str, allowed: Sequence[str] = BM25_VARIANTS) -> None:
    """ValueError, one line, unless ``variant`` is one of ``allowed``."""
    if variant not in allowed:
        raise ValueError(f"BM25 variant must be one of {', '.join(allowed)}, got {variant!r}")


class LuceneBM25(BM25Okapi):
    """rank-bm25's BM25Okapi with Lucene's IDF and no epsilon floor (none is needed).

    Only the IDF table changes; rank-bm25's own scoring loop does the rest, so
    okapi and lucene cannot drift apart anywhere else.
    """

    def __init__(self, corpus: Sequence[Sequence[str]], k1: float, b: float) -> None:
        super().__init__(corpus, k1=k1, b=b, epsilon=0.0)

    def _calc_idf(self, nd: dict[str, int]) -> None:  # rank-bm25's hook for its IDF table
        self.idf = dict(zip(nd, idf_table(self.corpus_size, nd.values(), LUCENE, 0.0), strict=True))
        self.average_idf = sum(self.idf.values()) / len(self.idf) if self.idf else 0.0


def model_scores(model: BM25Okapi, tokens: Sequence[str]) -> np.ndarray:
    """rank-bm25's scores for ``tokens``, summed term by term.

    -- why not get_scores(tokens) -- a term's weight is 0/0 where its tf is 0 and
    the length term is 0 (k1 = 0, or b = 1 with an empty chunk). Such a term adds
    nothing, but rank-bm25 adds the NaN into the chunk's sum, which then wipes the
    terms the chunk does match: each term's NaN is made 0 before the sum."""
    total = np.zeros(model.corpus_size)
    with np.errstate(divide="ignore", invalid="ignore"):
        for t in tokens:
            total += np.nan_to_num(model.get_scores([t]), nan=0.0)
    return total


def rank_bm25(docs: Sequence[Sequence[str]], params: Bm25Params) -> BM25Okapi:
    """rank-bm25 over token lists in ``params.variant`` (okapi or lucene)."""
    check_variant(params.variant, RANK_BM25_VARIANTS)
    if params.variant == LUCENE:
        return LuceneBM25(docs, k1=params.k1, b=params.b)
    return BM25Okapi(docs, k1=params.k1, b=params.b, epsilon=params.epsilon)


@dataclass(frozen=True, slots=True)
class ChunkScore:
    index: int  # the chunk's own index field
    score: float
    rank: int  # 1 = best; ties go to the lower chunk index
    length: int  # the chunk's length field (configured unit)
    indexed_tokens: int  # tokens BM25 saw: what its length normalisation uses


def check_parameters(k1: float, b: float, epsilon: float = DEFAULT_EPSILON) -> None:
    """ValueError unless k1 >= 0, 0 <= b <= 1 and epsilon is finite."""
    if not (
        math.isfinite(k1)
        and k1 >= 0
        and math.isfinite(b)
        and 0 <= b <= 1
        and math.isfinite(epsilon)
    ):
        raise ValueError(f"need k1 >= 0 and 0 <= b <= 1, got k1={k1}, b={b}")


@dataclass(frozen=True, slots=True)
class Bm25Params:
    """The BM25 settings, checked once: every index and scorer takes one of these.

    fts5 scores with SQLite's own k1 and b, so only the defaults go with it."""

    variant: str = DEFAULT_VARIANT
    k1: float = DEFAULT_K1
    b: float = DEFAULT_B
    epsilon: float = DEFAULT_EPSILON  # okapi's IDF floor factor (lucene needs none)

    def __post_init__(self) -> None:
        check_variant(self.variant)
        check_parameters(self.k1, self.b, self.epsilon)
        if self.variant == FTS5 and (self.k1, self.b) != (DEFAULT_K1, DEFAULT_B):
            raise ValueError(
                f"fts5 scores with SQLite's own k1={DEFAULT_K1} and b={DEFAULT_B}; "
                "use the lucene or okapi variant to change them"
            )


DEFAULT_PARAMS = Bm25Params()


def query_tokens(query: str) -> list[str]:
    """Tokens of a question; ValueError when there is nothing to search for."""
    tokens = tokenize(query)
    if not tokens:
        raise ValueError("question has no searchable words (only punctuation, symbols or spaces)")
    return tokens


def ranks_from(scores: Sequence[float], indices: Sequence[int]) -> list[int]:
    """1-based ranks, higher score first; ties by chunk index, then position (deterministic)."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], indices[i], i))
    ranks = [0] * len(scores)
    for rank, pos in enumerate(order, start=1):
        ranks[pos] = rank
    return ranks


class ChunkIndex:
    """rank-bm25 over chunks, built once and asked many questions (a gold set)."""

    def __init__(
        self,
        chunks: Sequence[Chunk],
        params: Bm25Params = DEFAULT_PARAMS,
        *,
        heading_path: bool = True,
        overlap: bool = True,
    ) -> None:
        check_variant(params.variant, RANK_BM25_VARIANTS)
        self.variant = params.variant
        self.chunks = list(chunks)
        self.docs = [
            tokenize(indexed_text(c, heading_path=heading_path, overlap=overlap))
            for c in self.chunks
        ]
        # rank-bm25 divides by zero on an all-empty corpus; nothing can match then
        self._bm25 = rank_bm25(self.docs, params) if any(self.docs) else None

    def idf(self, token: str) -> float:
        """The weight this index gives one token (0 for a token no chunk holds).

        -- why it is asked for -- it is computed over these chunks: chunk the same
        document another way and every token's weight changes, so two chunkings'
        scores share no scale."""
        return float(self._bm25.idf.get(token) or 0.0) if self._bm25 is not None else 0.0

    @property
    def avgdl(self) -> float:
        """The mean chunk length in tokens, which BM25 divides each length by."""
        return float(self._bm25.avgdl) if self._bm25 is not None else 0.0

    def score(self, query: str) -> list[ChunkScore]:
        """One ChunkScore per chunk, in the order given; ValueError for a question
        with no searchable words."""
        q = query_tokens(query)
        if not self.chunks:
            return []
        if self._bm25 is None:
            raw = np.zeros(len(self.docs))
        else:
            raw = model_scores(self._bm25, q)
        scores = [float(s) for s in raw]
        ranks = ranks_from(scores, [c.index for c in self.chunks])
        return [
            ChunkScore(c.index, s, r, c.length, len(d))
            for c, s, r, d in zip(self.chunks, scores, ranks, self.docs, strict=True)
        ]
