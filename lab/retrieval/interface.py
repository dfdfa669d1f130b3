"""What every retriever is: indexed texts and a question in, per-chunk scores and ranks out.

A retriever sees what an index sees, the chunks' indexed texts (heading path +
overlap prefix + body, ``chunkers.indexed_text``), never the Chunk objects, so
BM25, a vector store and their fusion judge exactly the same strings.

Build an index once and ask it many questions (a gold set); ``Retriever.score``
is the one-question shortcut. Scores are "higher is better" for every
retriever (SQLite FTS5's own negative bm25() is turned round), and ranks follow
the lab's one tie rule, ``lab.retrieval.bm25.ranks_from``: higher score first, equal
scores in chunk order.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from lab.retrieval.bm25 import query_tokens, ranks_from


@dataclass(frozen=True, slots=True)
class Retrieval:
    """One question judged over a list of chunks, aligned with the texts given."""

    retriever: str  # who judged, as shown: "bm25 (lucene)", "dense (wordllama)", "hybrid"
    scores: tuple[float, ...]  # one per chunk, in the order given; higher is better
    ranks: tuple[int, ...]  # 1 = best; equal scores in chunk order
    # -- one line when the verdict means less than it seems ("" when it stands): a dense
    # -- judge that cannot read the text's script, and a hybrid that fell back to BM25
    note: str = ""

    @classmethod
    def of(cls, retriever: str, scores: ArrayLike, note: str = "") -> Retrieval:
        """Rank ``scores`` (one per chunk, in chunk order) with the lab's tie rule."""
        values = np.asarray(scores, dtype=np.float64).reshape(-1).tolist()
        return cls(retriever, tuple(values), tuple(ranks_from(values, range(len(values)))), note)

    def top(self, k: int) -> tuple[int, ...]:
        """Positions of the k best chunks, best first."""
        order = sorted(range(len(self.ranks)), key=self.ranks.__getitem__)
        return tuple(order[: max(0, k)])


def judge_name(label: str) -> str:
    """A retriever's name without its settings, as a column is headed:
    "dense (wordllama)" -> "dense", "bm25 (lucene)" -> "bm25"."""
    return label.split(" (")[0]


class Index(ABC):
    """A retriever's index over fixed texts: built once, asked many questions."""

    label: str  # the Retrieval.retriever its answers carry
    size: int  # how many texts it holds

    @abstractmethod
    def scores(self, question: str) -> np.ndarray:
        """One score per text (higher is better) for a question already checked."""

    def score(self, question: str) -> Retrieval:
        """The question judged over every text; ValueError (one line) for a
        question with no searchable words, even over no texts."""
        query_tokens(question)  # -- one rule for what a question is, for every judge
        if self.size == 0:
            return Retrieval(self.label, (), ())
        return Retrieval.of(self.label, self.scores(question))

    def score_all(self, questions: Sequence[str]) -> list[Retrieval]:
        """Each question judged in turn (an index may batch the work)."""
        return [self.score(q) for q in questions]


class Retriever(ABC):
    """A named judge with its settings; ``index`` builds it over a list of texts."""

    name: str  # the registry's name: "bm25", "dense" or "hybrid"

    @property
    @abstractmethod
    def label(self) -> str:
        """The name with the settings that change its ranks, as shown to a user."""

    @abstractmethod
    def index(self, texts: Sequence[str]) -> Index:
        """An index over ``texts`` (the chunks' indexed texts, in chunk order)."""

    def score(self, texts: Sequence[str], question: str) -> Retrieval:
        """One question over ``texts``: ``index(texts).score(question)``."""
        query_tokens(question)  # a bad question is an error before any indexing work
        return self.index(texts).score(question)
