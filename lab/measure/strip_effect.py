"""What stripping boilerplate before chunking changes: the gold set measured on the
text as given and on the stripped text, which boilerplate-heavy chunks rank for
questions they do not answer, and how alike the chunks' scores are.

Gold passages that lie in stripped text cannot be found in the stripped index: they
are set aside and listed (``SetAside``), never dropped without a word, and both
sides are measured on the same remaining questions. The gold set is measured by the
integrity check; the intercepting chunks and the spread of scores by the gold run's
retriever (any ``lab.retrieval.interface.Retriever``; the check's sparse BM25 without one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from chunkers import Chunk, ChunkOptions, chunk_with
from lab.inputs.gold import GoldQuestion

from .boilerplate import MOSTLY, Report, Stripped, find_boilerplate, shares, strip_all
from .integrity import GoldRun, IntegrityReport, check_index, document_of
from .small_to_big import searcher
from .survival import AnswerNotFound, DocumentLayout


@dataclass(frozen=True, slots=True)
class SetAside:
    """A gold question left out of the stripped measurement, and why."""

    question: str
    doc: str
    line: int | None
    reason: str


def _overlaps_removed(s: Stripped, spans: Sequence[tuple[int, int]]) -> bool:
    """True when every occurrence touches removed text (none is left whole)."""
    return all(s.inside_removed(a, b) for a, b in spans)


def map_gold(
    stripped: dict[str, Stripped], pairs: Sequence[GoldQuestion]
) -> tuple[list[GoldQuestion], list[SetAside]]:
    """The gold pairs as they apply to the stripped documents (character spans moved
    to the stripped text), and those whose answer or a passage lies in stripped text."""
    kept, aside = [], []
    for pair in pairs:
        name = document_of(pair, stripped)
        s = stripped.get(name)
        if s is None or not s.removed:
            kept.append(pair)
            continue
        layout = DocumentLayout(s.original, [])
        if pair.answer or not pair.passages:
            spans = layout.spans(pair.answer)
            if _overlaps_removed(s, spans):
                aside.append(SetAside(pair.question, name, pair.line, _why("answer", s, spans)))
            else:
                kept.append(pair)
            continue
        moved, reason = [], ""
        for n, p in enumerate(pair.passages, start=1):
            spans = layout.spans(p.text) if p.text is not None else [(p.start or 0, p.end or 0)]
            if _overlaps_removed(s, spans):
                reason = _why(f"passage {n}", s, spans)
                break
            if p.text is None:
                a, b = spans[0]
                moved.append(replace(p, start=s.to_stripped(a), end=s.to_stripped(b)))
            else:
                moved.append(p)
        if reason:
            aside.append(SetAside(pair.question, name, pair.line, reason))
        else:
            kept.append(replace(pair, passages=tuple(moved)))
    return kept, aside


def _why(what: str, s: Stripped, spans: Sequence[tuple[int, int]]) -> str:
    a, b = spans[0]
    gone = s.inside_removed(a, b)
    where = "lies in" if gone == b - a else "runs into"
    return f"its {what} {where} text stripped as boilerplate"


@dataclass(frozen=True, slots=True)
class Intercept:
    """A chunk that is mostly boilerplate, ranking for a question it does not answer."""

    question: str
    rank: int  # in the index over the text as given (1 = best), within k
    chunk: Chunk
    share: float  # of its body that is boilerplate


@dataclass(frozen=True, slots=True)
class Spread:
    """How alike one question's scores are: 1.0 is a tie with the best chunk."""

    question: str
    best: float
    runner_up: float  # the second-best score as a share of the best
    median: float  # the median chunk's score as a share of the best


@dataclass(frozen=True)
class StripEffect:
    report: Report  # the boilerplate found
    before: IntegrityReport  # on the text as given
    after: IntegrityReport  # on the stripped text
    set_aside: list[SetAside]
    intercepts: list[Intercept]  # on the text as given, within k
    spread_before: list[Spread]
    spread_after: list[Spread]
    chunks_before: int
    chunks_after: int
    removed_chars: int

    @staticmethod
    def mean(spreads: Sequence[Spread], field: str) -> float:
        values = [getattr(s, field) for s in spreads]
        return float(np.mean(values)) if values else 0.0


def _spread(question: str, scores: np.ndarray) -> Spread:
    ordered = np.sort(scores)[::-1]
    best = float(ordered[0]) if len(ordered) else 0.0
    if best <= 0:
        return Spread(question, best, 1.0, 1.0)  # nothing matches: every chunk ties
    runner = float(ordered[1]) / best if len(ordered) > 1 else 0.0
    return Spread(question, best, runner, float(np.median(ordered)) / best)


def _holds(pair: GoldQuestion, chunk: Chunk, text: str) -> bool:
    """Does the chunk meet the pair's answer (or a passage)?"""
    layout = DocumentLayout(text, [chunk])
    try:
        if pair.answer or not pair.passages:
            return bool(layout.holders(pair.answer)) or any(
                s < chunk.end and chunk.start < e for s, e in layout.spans(pair.answer)
            )
        for p in pair.passages:
            spans = layout.spans(p.text) if p.text is not None else [(p.start or 0, p.end or 0)]
            if any(s < chunk.end and chunk.start < e for s, e in spans):
                return True
    except AnswerNotFound:
        return False
    return False


def strip_effect(gold: GoldRun, strategy: str, options: ChunkOptions) -> StripEffect:
    """The gold set and the scores before and after stripping the boilerplate that
    find_boilerplate finds.

    Returns:
        The boilerplate found, the integrity check before and after, the questions
        set aside (their text was stripped), the chunks that are mostly
        boilerplate yet rank in a question's top k without answering it, and each
        question's score spread before and after.

    Raises:
        BoilerplateError: a lone document has no pages to compare.
    """
    documents, k, retriever = gold.documents, gold.k, gold.retriever
    before_chunks = {n: chunk_with(t, strategy, options) for n, t in documents.items()}
    report = find_boilerplate(documents, strategy=strategy, options=options, chunked=before_chunks)
    stripped = strip_all(documents, report)
    after_docs = {n: s.text for n, s in stripped.items()}
    after_chunks = {n: chunk_with(t, strategy, options) for n, t in after_docs.items()}
    kept, aside = map_gold(stripped, gold.pairs)
    named = replace(gold, pairs=[replace(p, doc=document_of(p, documents)) for p in kept])
    before = check_index(named, strategy, options, chunked=before_chunks)
    after = check_index(
        replace(named, documents=after_docs), strategy, options, chunked=after_chunks
    )

    flat = [(n, c) for n, cs in before_chunks.items() for c in cs]
    spans = report.spans()
    share = {
        (n, c.index): s
        for n, cs in before_chunks.items()
        for c, s in zip(cs, shares(cs, spans.get(n, [])), strict=True)
    }
    ix_before = searcher([c for _, c in flat], retriever)
    ix_after = searcher([c for cs in after_chunks.values() for c in cs], retriever)
    intercepts, spread_before, spread_after = [], [], []
    for pair in named.pairs:
        scores = ix_before.scores(pair.question)
        spread_before.append(_spread(pair.question, np.asarray(scores.scores)))
        after_scores = ix_after.scores(pair.question).scores
        spread_after.append(_spread(pair.question, np.asarray(after_scores)))
        for rank, pos in enumerate(scores.top(k), start=1):
            name, c = flat[pos]
            heavy = share[(name, c.index)]
            if heavy >= MOSTLY and not (name == pair.doc and _holds(pair, c, documents[name])):
                intercepts.append(Intercept(pair.question, rank, c, heavy))
    return StripEffect(
        report,
        before,
        after,
        aside,
        intercepts,
        spread_before,
        spread_after,
        len(flat),
        sum(len(cs) for cs in after_chunks.values()),
        sum(s.inside_removed(0, len(s.original)) for s in stripped.values()),
    )
