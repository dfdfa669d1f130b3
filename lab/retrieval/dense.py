"""The dense judge: cosine similarity between a question's vector and each chunk's.

A vector collapses a chunk to one point. A chunk holding two unrelated things
lands between them, and a big chunk's vector drifts toward the document's
general topic: the opposite bias to BM25's, which favours short chunks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from lab.retrieval.bm25 import query_tokens

from .embedders import DEFAULT_EMBEDDER, Embedder, load_embedder, reading_note
from .interface import Index, Retrieval, Retriever

# float32 vectors hold about seven significant digits: a cosine past the sixth decimal
# is summation noise, and two chunks that differ only there are tied.
COSINE_DIGITS = 6


def cosines(embedder: Embedder, question: str, texts: Sequence[str]) -> np.ndarray:
    """The cosine between ``question`` and each text (0 for a text with no vector)."""
    if not texts:
        return np.zeros(0)
    vectors = embedder.embed([question, *texts])
    return (vectors[1:] @ vectors[0]).astype(np.float64)


class DenseIndex(Index):
    """Chunk vectors held as one matrix; a question costs one embedding and one product."""

    def __init__(self, texts: Sequence[str], embedder: Embedder, label: str) -> None:
        self.label = label
        self.size = len(texts)
        self.embedder = embedder
        self._vectors = embedder.embed(texts) if texts else np.zeros((0, 0), dtype=np.float32)
        self._texts_note = reading_note(embedder, "", texts)  # the texts' half, once

    def note(self, question: str) -> str:
        """The one line when the embedder cannot read this question or these texts."""
        return self._texts_note or reading_note(self.embedder, question)

    def _against(self, question_vectors: np.ndarray) -> list[np.ndarray]:
        """Each question's cosines, one matrix-vector product per question.

        -- why not one matrix product for all -- BLAS sums a batched product in
        another order than a single one, so the last bits of a float32 cosine
        depended on how many questions were asked at once (and on the machine's
        BLAS): two chunks tied for one question alone and not in a batch. Scoring
        each question the same way, rounded to what float32 holds, makes a batch
        give exactly the scores and ranks of its questions asked one by one."""
        if question_vectors.shape[1] != self._vectors.shape[1]:
            raise ValueError(
                f"embedder {self.embedder.name} gave the question {question_vectors.shape[1]} "
                f"numbers and the chunks {self._vectors.shape[1]}"
            )
        return [
            np.round((self._vectors @ q).astype(np.float64), COSINE_DIGITS)
            for q in question_vectors
        ]

    def scores(self, question: str) -> np.ndarray:
        return self._against(self._embed([question]))[0]

    def score(self, question: str) -> Retrieval:
        got = super().score(question)
        return Retrieval(got.retriever, got.scores, got.ranks, self.note(question))

    def score_all(self, questions: Sequence[str]) -> list[Retrieval]:
        """All questions embedded together, each scored as ``scores`` scores it alone."""
        for q in questions:
            query_tokens(q)
        if not questions or self.size == 0:
            return [Retrieval(self.label, (), ()) for _ in questions]
        return [
            Retrieval.of(self.label, row, self.note(q))
            for q, row in zip(questions, self._against(self._embed(questions)), strict=True)
        ]

    def _embed(self, questions: Sequence[str]) -> np.ndarray:
        """The questions' vectors, each as it would be embedded alone (an embedder may
        pad a batch; a question's vector must not depend on its neighbours)."""
        return np.vstack([self.embedder.embed([q]) for q in questions])


@dataclass(frozen=True)
class DenseRetriever(Retriever):
    """Cosine similarity with an embedder (default: the bundled wordllama model)."""

    embedder: Embedder = field(default_factory=lambda: load_embedder(DEFAULT_EMBEDDER))
    name = "dense"

    @property
    def label(self) -> str:
        return f"dense ({self.embedder.name})"

    def index(self, texts: Sequence[str]) -> DenseIndex:
        return DenseIndex(texts, self.embedder, self.label)
