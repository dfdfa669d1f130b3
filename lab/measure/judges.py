"""The two judges compared, as data for the lab: the muddy vector, two topics in one
chunk, and per-chunk ranks side by side.

BM25 divides by length, so short chunks (runts) win it; a vector averages a
chunk into one point, so big chunks lose the dense judge. The functions here
measure both on the same chunks of the same document.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from chunkers import Chunk, ChunkOptions, chunk, chunk_parsed, indexed_text, parse
from chunkers.tokens import DEFAULT_TOKENIZER
from lab.measure.survival import AnswerNotFound, answer_problem, find_answer, holds
from lab.retrieval.bm25 import query_tokens
from lab.retrieval.bm25_variants import Bm25Retriever
from lab.retrieval.dense import DenseRetriever, cosines
from lab.retrieval.embedders import Embedder, load_embedder, reading_note
from lab.retrieval.fusion import HybridRetriever

# --------------------------------------------------------------------------- the muddy vector


@dataclass(frozen=True, slots=True)
class MuddyPoint:
    """The chunk holding the answer at one chunk size, as each judge sees it."""

    size: int
    chunks: int  # how many chunks the document makes at this size
    answer_chunk: int | None  # position of the first chunk holding the answer; None: cut apart
    length: int | None  # that chunk's length, in the unit chunked by
    cosine: float | None  # the question's cosine with that chunk
    bm25: float | None  # that chunk's BM25 score among all chunks at this size
    cosine_scaled: float | None  # cosine placed in its own curve's range: 0 = lowest, 1 = highest
    bm25_scaled: float | None  # the same for the BM25 curve


@dataclass(frozen=True, slots=True)
class MuddyVector:
    question: str
    answer: str
    bm25: str  # the BM25 retriever's label
    embedder: str
    points: tuple[MuddyPoint, ...]  # one per size, smallest first
    # sizes (interpolated between measured ones) where the scaled curves cross
    crossings: tuple[float, ...]


def scaled(values: Sequence[float | None]) -> list[float | None]:
    """Each value placed in the range of the values given: 0 = the lowest, 1 = the highest.

    -- why scale -- a cosine lives in [-1, 1] and a BM25 score has no upper bound, so
    -- they share an axis only as "how far along its own range"; a flat curve sits at 0.5
    """
    known = [v for v in values if v is not None]
    if not known:
        return [None] * len(values)
    lo, hi = min(known), max(known)
    return [None if v is None else 0.5 if hi == lo else (v - lo) / (hi - lo) for v in values]


def crossings(
    xs: Sequence[float], a: Sequence[float | None], b: Sequence[float | None]
) -> list[float]:
    """Where curve a crosses curve b: where they swap order. Between two neighbouring
    points that swap, the x where the straight lines joining them meet; where the
    curves run equal for a stretch and come out swapped, the first x of it. Curves
    that touch and part in the same order do not cross (two curves scaled to their
    own ranges both start at 1 when both fall), nor do curves that start or end
    equal. A point missing from either curve breaks the lines."""
    found: list[float] = []
    prev: tuple[float, float] | None = None  # the last point where the curves differ
    equal_from: float | None = None  # where the current stretch of equal points began
    for x, ya, yb in zip(xs, a, b, strict=True):
        if ya is None or yb is None:
            prev = equal_from = None
            continue
        d = ya - yb
        if d == 0:
            equal_from = float(x) if equal_from is None else equal_from
            continue
        if prev is not None and (prev[1] < 0) != (d < 0):
            x0, d0 = prev
            found.append(equal_from if equal_from is not None else x0 + (x - x0) * d0 / (d0 - d))
        prev, equal_from = (float(x), d), None
    return found


def _sizes(sizes: Iterable[int], overlap: int) -> list[int]:
    out = sorted(set(sizes))
    if not out:
        raise ValueError("give at least one chunk size")
    if out[0] <= overlap:
        raise ValueError(f"every size must be larger than the overlap ({overlap}), got {out[0]}")
    return out


def muddy_vector(
    text: str,
    question: str,
    answer: str,
    sizes: Iterable[int],
    *,
    overlap: int = 0,
    unit: str = "chars",
    tokenizer: str = DEFAULT_TOKENIZER,
    bm25: Bm25Retriever | None = None,
    embedder: Embedder | None = None,
    heading_path: bool = True,
    overlap_in_index: bool = True,
) -> MuddyVector:
    """The question's cosine with the chunk holding the answer, and that chunk's BM25
    score, at each size (structural chunker, ``overlap`` in ``unit``).

    Both curves are also given scaled to their own range (``scaled``), and
    ``crossings`` says at which sizes the scaled curves cross: where the two
    judges' verdicts on the answer's chunk change places (none when either curve
    is flat). At a size where the answer is cut apart, no chunk holds it and the
    point has no values.
    Raises AnswerNotFound when the answer is not in the text, ValueError for a
    question with no searchable words or bad sizes.
    """
    query_tokens(question)
    problem = answer_problem(text, answer)
    if problem:
        raise AnswerNotFound(problem)
    sizes = _sizes(sizes, overlap)
    bm25 = bm25 or Bm25Retriever()
    embedder = embedder or load_embedder()
    parsed = parse(text)  # -- parse once, pack per size
    raw: list[tuple[int, int, int | None, int | None, float | None, float | None]] = []
    for size in sizes:
        opts = ChunkOptions(size=size, overlap=overlap, unit=unit, tokenizer=tokenizer)
        chunks = chunk_parsed(parsed, opts)
        held = [i for i, c in enumerate(chunks) if holds(c, answer)]
        if not held:
            raw.append((size, len(chunks), None, None, None, None))
            continue
        pos = held[0]
        texts = [
            indexed_text(c, heading_path=heading_path, overlap=overlap_in_index) for c in chunks
        ]
        score = bm25.score(texts, question).scores[pos]
        cosine = float(cosines(embedder, question, [texts[pos]])[0])
        raw.append((size, len(chunks), pos, chunks[pos].length, cosine, score))
    cos_s = scaled([r[4] for r in raw])
    bm_s = scaled([r[5] for r in raw])
    # -- a flat curve (one value, or one point) has no range to place the other in
    curves = len({r[4] for r in raw} - {None}) > 1 and len({r[5] for r in raw} - {None}) > 1
    points = tuple(MuddyPoint(*r, c, s) for r, c, s in zip(raw, cos_s, bm_s, strict=True))
    return MuddyVector(
        question,
        answer,
        bm25.label,
        embedder.name,
        points,
        tuple(crossings(sizes, cos_s, bm_s)) if curves else (),
    )


# --------------------------------------------------------------------------- two topics


@dataclass(frozen=True, slots=True)
class TopicPoint:
    """One step of a chunk growing from the first passage to both."""

    chars: int  # the chunk's length in characters
    second_chars: int  # how many of the second passage's characters it holds
    cosine_a: float  # with the first passage's question
    cosine_b: float  # with the second passage's question


@dataclass(frozen=True, slots=True)
class TwoTopics:
    points: tuple[TopicPoint, ...]  # shortest chunk (the first passage alone) first
    alone_a: float  # first question against the first passage alone
    alone_b: float  # second question against the second passage alone
    # each question against the midpoint of the two passages' vectors: where a chunk
    # holding both, and nothing else, tends to land
    midpoint_a: float
    midpoint_b: float


def _window_ends(doc: str, start: int, steps: int) -> list[int]:
    """``steps`` + 1 ends from ``start`` to the end of ``doc``, each moved on to a word's end."""
    ends: list[int] = []
    for i in range(steps + 1):
        end = start + round((len(doc) - start) * i / steps)
        while end < len(doc) and not doc[end].isspace():
            end += 1
        if not ends or end > ends[-1]:
            ends.append(end)
    return ends


def two_topics(
    passage_a: str,
    question_a: str,
    passage_b: str,
    question_b: str,
    *,
    filler: str = "",
    steps: int = 10,
    embedder: Embedder | None = None,
) -> TwoTopics:
    """A chunk that starts as passage A and grows, through ``filler``, until it holds
    passage B too: at each of ``steps`` steps, its cosine with each question.

    As B comes in, the chunk's vector moves toward the midpoint of the two
    topics: its cosine with A's question falls, with B's rises, and neither
    reaches what the passage alone would score.
    """
    for q in (question_a, question_b):
        query_tokens(q)
    passage_a, passage_b, filler = passage_a.strip(), passage_b.strip(), filler.strip()
    if not passage_a or not passage_b:
        raise ValueError("both passages need some text")
    if steps < 1:
        raise ValueError(f"steps must be at least 1, got {steps}")
    embedder = embedder or load_embedder()
    doc = "\n\n".join(p for p in (passage_a, filler, passage_b) if p)
    b_start = len(doc) - len(passage_b)
    chunks = [doc[:end] for end in _window_ends(doc, len(passage_a), steps)]
    vectors = embedder.embed([question_a, question_b, passage_a, passage_b, *chunks])
    qa, qb, va, vb, windows = vectors[0], vectors[1], vectors[2], vectors[3], vectors[4:]
    mid = va + vb
    norm = float(np.linalg.norm(mid))
    mid = mid / norm if norm else mid
    points = tuple(
        TopicPoint(len(c), max(0, len(c) - b_start), float(v @ qa), float(v @ qb))
        for c, v in zip(chunks, windows, strict=True)
    )
    return TwoTopics(points, float(va @ qa), float(vb @ qb), float(mid @ qa), float(mid @ qb))


@dataclass(frozen=True, slots=True)
class TopicPair:
    """Two gold questions whose answers sit in different sections of one document,
    in the document's order (``first`` is the earlier answer)."""

    first: int  # indices into the gold questions given
    second: int
    filler: str  # the document's text between the two answers


def _section(chunks: Sequence[Chunk], at: int) -> tuple[str, ...]:
    """The heading path of the structural chunk whose body covers offset ``at``."""
    return next((c.heading_path for c in chunks if c.start <= at < c.end), ())


def topic_pair(
    text: str, answers: Sequence[str], index: int, other: int | None = None
) -> TopicPair:
    """Answer ``index`` with answer ``other``, or, without one, with the nearest answer
    in another section (the structural chunker's heading path at its default size;
    the nearest answer at all when every answer shares one section). The pair is
    given in the document's order, with the text between the answers.

    AnswerNotFound when an answer is not in the text; ValueError when there is no
    other answer to pair with.
    """
    spans = []
    for n, answer in enumerate(answers):
        problem = answer_problem(text, answer)
        if problem:
            raise AnswerNotFound(f"gold answer {n + 1}: {problem}")
        spans.append(find_answer(text, answer))
    others = [n for n in range(len(answers)) if n != index]
    if not others:
        raise ValueError("two topics need two gold answers; this document has one")
    if other is None:
        chunks = chunk(text)
        mine = _section(chunks, spans[index][0])
        apart = [n for n in others if _section(chunks, spans[n][0]) != mine] or others
        other = min(apart, key=lambda n: (abs(spans[n][0] - spans[index][0]), n))
    elif other == index or not 0 <= other < len(answers):
        raise ValueError(f"pick another answer than {index + 1}, from 1 to {len(answers)}")
    first, second = sorted((index, other), key=lambda n: spans[n])
    gap = text[spans[first][1] : spans[second][0]] if spans[first][1] < spans[second][0] else ""
    return TopicPair(first, second, gap)


# --------------------------------------------------------------------------- side by side


@dataclass(frozen=True, slots=True)
class JudgeRow:
    """One chunk as the three judges rank it for one question."""

    number: int  # the chunk's number as shown (1-based)
    holds_answer: bool
    bm25_score: float
    bm25_rank: int
    dense_score: float  # the cosine
    dense_rank: int
    hybrid_score: float  # the reciprocal-rank fusion score
    hybrid_rank: int


def side_by_side(
    chunks: Sequence[Chunk],
    question: str,
    answer: str | None = None,
    *,
    hybrid: HybridRetriever | None = None,
    heading_path: bool = True,
    overlap: bool = True,
) -> list[JudgeRow]:
    """Every chunk's BM25, dense and hybrid score and rank for ``question``, in chunk
    order, with the chunks that hold ``answer`` whole marked (the lab's one rule,
    ``lab.measure.survival.holds``)."""
    hybrid = hybrid or HybridRetriever(Bm25Retriever(), DenseRetriever())
    query_tokens(question)
    texts = [indexed_text(c, heading_path=heading_path, overlap=overlap) for c in chunks]
    judged = hybrid.index(texts).judge(question)
    return [
        JudgeRow(
            c.index + 1,
            bool(answer and holds(c, answer)),
            judged.bm25.scores[i],
            judged.bm25.ranks[i],
            judged.dense.scores[i],
            judged.dense.ranks[i],
            judged.hybrid.scores[i],
            judged.hybrid.ranks[i],
        )
        for i, c in enumerate(chunks)
    ]


def reading_line(chunks: Sequence[Chunk], question: str, embedder: Embedder) -> str:
    """The one line shown over the judges' verdicts when ``embedder`` cannot read the
    question or the chunks (the hybrid then ranks as BM25 does); "" when it can."""
    return reading_note(embedder, question, [c.body for c in chunks])
