"""The chunk-integrity check (seed 002's diagnostic over seed 001's gold set).

For each question/answer pair: is the answer whole in some chunk, which chunk,
and where does BM25 rank it? Two failures that look the same from outside are
kept apart in every report: "the chunk does not exist" (the answer was cut,
no ranking can recover it) and "the chunk exists but ranks poorly".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from chunkers import ChunkOptions, chunk_with
from chunkers.model import Chunk

from .bm25 import DEFAULT_B, DEFAULT_K1, ChunkIndex
from .survival import AnswerNotFound, check_survival, collapse

RECALL_KS = (1, 3, 5, 10)

FOUND = "found"  # intact, and its chunk ranks within k
RANKS_POORLY = "chunk exists but ranks poorly"
NO_CHUNK = "chunk does not exist"


@dataclass(frozen=True, slots=True)
class Pair:
    question: str
    answer: str
    doc: str = ""  # which document of the index holds the answer ("" for one document)


@dataclass(frozen=True, slots=True)
class PairResult:
    question: str
    answer: str
    doc: str
    intact: bool
    chunk_index: int | None  # the best-ranked chunk holding the answer (0-based)
    rank: int | None  # its BM25 rank among all chunks of the index (1 = best)
    status: str  # FOUND, RANKS_POORLY or NO_CHUNK
    verdict: str  # seed 002's words, e.g. "answer split across chunks 4 and 5: ..."


@dataclass(frozen=True)
class IntegrityReport:
    strategy: str
    options: ChunkOptions
    k: int
    chunk_count: int
    results: list[PairResult] = field(default_factory=list)

    @property
    def intact_rate(self) -> float:
        return _share(r.intact for r in self.results)

    def recall_at(self, k: int) -> float:
        return _share(r.rank is not None and r.rank <= k for r in self.results)

    @property
    def recall(self) -> dict[int, float]:
        return {k: self.recall_at(k) for k in RECALL_KS}

    @property
    def mrr(self) -> float:
        if not self.results:
            return 0.0
        return sum(1.0 / r.rank for r in self.results if r.rank) / len(self.results)

    @property
    def missing(self) -> list[PairResult]:
        """The chunk does not exist: fix the chunking."""
        return [r for r in self.results if r.status == NO_CHUNK]

    @property
    def ranks_poorly(self) -> list[PairResult]:
        """The chunk exists but ranks below k: fix the ranking."""
        return [r for r in self.results if r.status == RANKS_POORLY]

    @property
    def passed(self) -> bool:
        """The index-time gate: every answer is whole in some chunk."""
        return not self.missing


def _share(flags) -> float:
    flags = list(flags)
    return sum(flags) / len(flags) if flags else 0.0


def check_index(
    documents: dict[str, str],
    pairs: Sequence[Pair],
    strategy: str,
    opts: ChunkOptions,
    *,
    k: int = 10,
    k1: float = DEFAULT_K1,
    b: float = DEFAULT_B,
) -> IntegrityReport:
    """Chunk every document, index all chunks together, and check every pair.

    Raises AnswerNotFound (naming the pair) when a gold answer is not in its
    document: that is a bad gold set, not a chunking failure.
    """
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    chunked: dict[str, list[Chunk]] = {
        name: chunk_with(text, strategy, opts) for name, text in documents.items()
    }
    index: list[tuple[str, Chunk]] = [(name, c) for name, cs in chunked.items() for c in cs]
    flat = [c for _, c in index]
    collapsed = [collapse(c.retrievable_text) for c in flat]
    results: list[PairResult] = []
    bm25: ChunkIndex | None = None
    for n, pair in enumerate(pairs, start=1):
        doc = pair.doc or next(iter(documents), "")
        if doc not in documents:
            raise AnswerNotFound(f"gold pair {n} names document {doc!r}, which is not in the index")
        try:
            survival = check_survival(chunked[doc], documents[doc], pair.answer)
        except AnswerNotFound:
            raise AnswerNotFound(
                f"gold pair {n}: answer {_clip(pair.answer)!r} is not in {doc or 'the document'}"
            ) from None
        rank: int | None = None
        holder: int | None = None
        if survival.intact:
            needle = collapse(pair.answer)
            if bm25 is None:  # built once, on the first intact answer
                bm25 = ChunkIndex(flat, k1=k1, b=b)
            scores = bm25.score(pair.question)
            holding = [
                i for i, (name, _) in enumerate(index) if name == doc and needle in collapsed[i]
            ]
            best = min(holding, key=lambda i: scores[i].rank)
            rank, holder = scores[best].rank, flat[best].index
        status = (
            NO_CHUNK
            if not survival.intact
            else (FOUND if rank is not None and rank <= k else RANKS_POORLY)
        )
        results.append(
            PairResult(
                pair.question,
                pair.answer,
                pair.doc,
                survival.intact,
                holder,
                rank,
                status,
                survival.verdict,
            )
        )
    return IntegrityReport(strategy, opts, k, len(flat), results)


def check_gold(
    text: str,
    pairs: Sequence[Pair],
    strategy: str,
    opts: ChunkOptions,
    *,
    k: int = 10,
    k1: float = DEFAULT_K1,
    b: float = DEFAULT_B,
) -> IntegrityReport:
    """The check for one document."""
    return check_index(
        {"": text}, [Pair(p.question, p.answer, "") for p in pairs], strategy, opts, k=k, k1=k1, b=b
    )


def _clip(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
