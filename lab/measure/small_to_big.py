"""Small-to-big retrieval (parent-document retrieval): match on small chunks, deliver
their parents (see docs/concepts.md).

Two tiers come from two configurations. The **parents** are a chunking of each
document at the larger size; the **children** are a chunking of each parent's own
text at the smaller size, so every child lies inside its parent's span (containment
by construction: a child never straddles two parents, as it could if both tiers
were cut from the whole document independently). A question ranks the children;
the top k resolve to their parents, **deduplicated at the parent level** (three
sibling children give one parent, not three copies), and the parents are delivered.

-- why the cap is a tier -- the structural chunker never packs across a heading and
splits an oversized section at its own seams (rows, items, paragraphs), each piece
carrying its heading path, so structural parents are sections, or pieces of one
no longer than the parent size's effective maximum: the intermediate tier a
forty-page chapter needs. A parent that still passes that cap (a strategy that
ignores its size) is delivered as a window of the cap's length around the matched
child, never whole.

Every figure is measured the way the integrity check measures chunks: an answer is
found when a delivered text holds it whole, a passage when a delivered text meets
it; coverage is the share of the gold text inside what is delivered; context is
counted in the plain configuration's unit (``chunkers.text.count_units``). The
retriever is a parameter: any ``lab.retrieval.interface.Retriever`` (dense, hybrid,
a BM25 variant) judges the chunks' indexed texts; without one, the sparse BM25 the
integrity check ranks with, so the plain chunks' figures are the check's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np

from chunkers import Chunk, chunk_with, indexed_text
from chunkers.text import count_units
from lab.inputs.gold import GoldQuestion
from lab.retrieval.bm25_sparse import chunk_index
from lab.retrieval.interface import Index, Retriever
from lab.retrieval.retrievers import get_retriever

from .diff import CONFIG_FORM, ChunkConfig, ConfigError, parse_config
from .integrity import DEFAULT_K, GoldRun, document_of
from .survival import AnswerNotFound, DocumentLayout

CHUNKS = "chunks"  # the plain configuration's top k
CHILDREN = "children"  # the children's top k, delivered as they are
PARENTS = "parents"  # the children's top k resolved to parents, deduplicated
BUDGET = "chunks at the parents' budget"  # plain chunks, best first, within the parents' size
ARMS = (CHUNKS, CHILDREN, PARENTS, BUDGET)
SPEC_FORM = (
    "CHILD_SIZE:PARENT_SIZE (structural, in the check's unit), or CHILD_CONFIG/PARENT_CONFIG "
    f"with each config as {CONFIG_FORM.split(', e.g.')[0]}, e.g. 300:1800 or "
    "structural:chars:300:0/structural:chars:1800:0"
)


class SmallToBigError(ConfigError):
    """Two tiers that make no small-to-big: one line, naming the fix."""


class Ranking(Protocol):
    """One question's scores over an index: every chunk's score, and the best k."""

    @property
    def scores(self) -> Sequence[float] | np.ndarray: ...  # one per chunk, in index order

    def top(self, k: int) -> Sequence[int]: ...


class Searcher(Protocol):
    def scores(self, question: str, /) -> Ranking: ...


class _Judged:
    """A retriever's index over chunks, asked as the sparse BM25 index is."""

    def __init__(self, index: Index) -> None:
        self._index = index

    def scores(self, question: str) -> Ranking:
        return self._index.score(question)


def searcher(chunks: Sequence[Chunk], retriever: Retriever | None = None) -> Searcher:
    """An index over ``chunks`` for ``retriever`` (their indexed texts, as every
    retriever sees them); None: the sparse BM25 of the integrity check."""
    if retriever is None:
        return chunk_index(chunks)
    return _Judged(retriever.index([indexed_text(c) for c in chunks]))


@dataclass(frozen=True, slots=True)
class Tiers:
    """The child and parent configurations, checked against each other."""

    child: ChunkConfig
    parent: ChunkConfig

    def __post_init__(self) -> None:
        c, p = self.child, self.parent
        if c.unit != p.unit:
            raise SmallToBigError(
                f"children count {c.unit} and parents {p.unit}: give both tiers the same unit"
            )
        if c.size >= p.size:
            raise SmallToBigError(
                f"children ({c}) are not smaller than their parents ({p}): give the children "
                f"the smaller size, e.g. {min(c.size, p.size) // 4 or 1}:{max(c.size, p.size)}"
            )

    @property
    def cap(self) -> int:
        """The longest parent delivered whole (the parent size's effective maximum)."""
        return self.parent.options.effective_max

    def __str__(self) -> str:
        return f"{self.child}/{self.parent}"


def parse_tiers(spec: str, unit: str = "chars") -> Tiers:
    """``300:1800`` (structural tiers in ``unit``, no overlap) or ``CHILD/PARENT`` with
    two full configurations; ConfigError names what is wrong."""
    text = spec.strip()
    if "/" in text:
        child_spec, _, parent_spec = text.partition("/")
        return Tiers(parse_config(child_spec), parse_config(parent_spec))
    parts = text.split(":")
    if len(parts) == 8:  # CHILD_CONFIG:PARENT_CONFIG, both written out
        return Tiers(parse_config(":".join(parts[:4])), parse_config(":".join(parts[4:])))
    if len(parts) == 2:
        child, parent = (parse_config(f"structural:{unit}:{p.strip()}:0") for p in parts)
        return Tiers(child, parent)
    raise ConfigError(f"small-to-big {spec!r} must be {SPEC_FORM}")


# --------------------------------------------------------------------------- the two tiers


def _joined_path(outer: tuple[str, ...], inner: tuple[str, ...]) -> tuple[str, ...]:
    """The parent's heading path, then the child's own, without repeating the headings
    both name (a parent that opens with its section's heading carries it already)."""
    for n in range(min(len(outer), len(inner)), 0, -1):
        if outer[-n:] == inner[:n]:
            return outer + inner[n:]
    return outer + inner


def _children_of(parent: Chunk, config: ChunkConfig, first_index: int) -> list[Chunk]:
    """The children of one parent: its body chunked at the child size, offsets mapped
    back into the document (a table fragment's repeated header maps to its start)."""
    header = len(parent.body) - (parent.end - parent.start) if parent.header_repeated else 0

    def at(i: int) -> int:
        return parent.start + max(0, i - header)

    out = []
    for n, c in enumerate(chunk_with(parent.body, config.strategy, config.options)):
        out.append(
            replace(
                c,
                index=first_index + n,
                start=at(c.start),
                end=at(c.end),
                overlap_start=at(c.overlap_start),
                overlap_end=at(c.overlap_end),
                heading_path=_joined_path(parent.heading_path, c.heading_path),
                header_repeated=c.header_repeated or c.start < header,
                transcribed=c.transcribed or parent.transcribed,
                page=parent.page if c.page is None else c.page,
                last_page=parent.last_page if c.last_page is None else c.last_page,
            )
        )
    return out


@dataclass(frozen=True)
class Hierarchy:
    """One document's parents and children; ``parent_of[i]`` is child i's parent."""

    text: str
    parents: list[Chunk]
    children: list[Chunk]
    parent_of: list[int]


def hierarchy(text: str, tiers: Tiers) -> Hierarchy:
    parents = chunk_with(text, tiers.parent.strategy, tiers.parent.options)
    children: list[Chunk] = []
    parent_of: list[int] = []
    for i, p in enumerate(parents):
        mine = _children_of(p, tiers.child, len(children))
        children += mine
        parent_of += [i] * len(mine)
    return Hierarchy(text, parents, children, parent_of)


def window(text: str, parent: Chunk, child: Chunk, cap: int, unit: str) -> Chunk:
    """``parent`` cut to about ``cap`` units centred on ``child`` (and inside the parent);
    the parent itself when it is within the cap."""
    if parent.length <= cap:
        return parent
    per_unit = (parent.end - parent.start) / max(parent.length, 1)  # characters per unit
    width = max(child.end - child.start, math.floor(cap * per_unit))
    middle = (child.start + child.end) // 2
    start = max(parent.start, min(middle - width // 2, parent.end - width))
    end = min(parent.end, start + width)
    body = text[start:end]
    return replace(
        parent,
        body=body,
        start=start,
        end=end,
        length=count_units(body, unit),
        overlap_prefix="",
        overlap_start=start,
        overlap_end=start,
        header_repeated=False,
    )


# --------------------------------------------------------------------------- one question


@dataclass(frozen=True, slots=True)
class Hit:
    """One of the top-k children and the parent it resolves to."""

    rank: int  # 1 = best
    doc: str
    child: Chunk
    parent: Chunk  # as delivered: the parent, or a window of it over the cap
    parent_number: int  # the parent's position in its document, 0-based
    duplicate: bool  # an earlier child already brought this parent


@dataclass(frozen=True)
class Resolution:
    """What small-to-big sends for one question, and the plain chunks beside it."""

    question: str
    unit: str
    hits: list[Hit]  # the top-k children, best first
    chunks: list[tuple[str, Chunk]]  # the plain configuration's top k
    budget: list[tuple[str, Chunk]]  # plain chunks, best first, within the parents' size

    @property
    def parents(self) -> list[tuple[str, Chunk]]:
        """The parents delivered: deduplicated, in the order their best child ranks."""
        return [(h.doc, h.parent) for h in self.hits if not h.duplicate]

    @property
    def children(self) -> list[tuple[str, Chunk]]:
        return [(h.doc, h.child) for h in self.hits]

    @property
    def duplicates(self) -> int:
        """Parents the dedupe left out (a sibling child had already brought them)."""
        return sum(h.duplicate for h in self.hits)

    def delivered(self, arm: str) -> list[tuple[str, Chunk]]:
        return {
            CHUNKS: self.chunks,
            CHILDREN: self.children,
            PARENTS: self.parents,
            BUDGET: self.budget,
        }[arm]

    def size(self, arm: str) -> int:
        return sum(_size(c, self.unit) for _, c in self.delivered(arm))

    @property
    def size_without_dedupe(self) -> int:
        """The context had every child sent its parent, duplicates and all."""
        return sum(_size(h.parent, self.unit) for h in self.hits)


def _size(c: Chunk, unit: str) -> int:
    return count_units(c.body, unit)


class SmallToBig:
    """Documents chunked in both tiers and in the plain configuration, each tier
    indexed once; ask it any number of questions."""

    def __init__(
        self,
        documents: dict[str, str],
        tiers: Tiers,
        plain: ChunkConfig,
        *,
        retriever: Retriever | None = None,
        plain_chunks: dict[str, list[Chunk]] | None = None,
    ) -> None:
        self.documents = documents
        self.tiers = tiers
        self.plain = plain
        self.unit = plain.unit
        self.trees = {name: hierarchy(text, tiers) for name, text in documents.items()}
        if plain_chunks is None:
            plain_chunks = {
                name: chunk_with(text, plain.strategy, plain.options)
                for name, text in documents.items()
            }
        self.children = [(n, i) for n, t in self.trees.items() for i in range(len(t.children))]
        self.plain_chunks = [(n, c) for n, cs in plain_chunks.items() for c in cs]
        children = [self.trees[n].children[i] for n, i in self.children]
        self._children_index = searcher(children, retriever)
        self._plain_index = searcher([c for _, c in self.plain_chunks], retriever)

    @property
    def parent_count(self) -> int:
        return sum(len(t.parents) for t in self.trees.values())

    @property
    def over_cap(self) -> int:
        """Parents longer than the cap (delivered as a window when they match)."""
        cap = self.tiers.cap
        return sum(p.length > cap for t in self.trees.values() for p in t.parents)

    def resolve(self, question: str, k: int = DEFAULT_K) -> Resolution:
        """The top-k children and their parents, the plain top k, and plain chunks
        within the parents' budget. ValueError for a question with no searchable words."""
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        hits: list[Hit] = []
        seen: set[tuple[str, int]] = set()
        cap = self.tiers.cap
        top = self._children_index.scores(question).top(k)
        for rank, position in enumerate(top, start=1):
            name, i = self.children[position]
            tree = self.trees[name]
            child, number = tree.children[i], tree.parent_of[i]
            # -- a window is its own parent: two children far apart in one long parent
            # -- deliver two windows, the same window twice is a duplicate
            parent = window(tree.text, tree.parents[number], child, cap, self.tiers.parent.unit)
            key = (name, parent.start)
            hits.append(Hit(rank, name, child, parent, number, key in seen))
            seen.add(key)
        plain = [self.plain_chunks[p] for p in self._plain_index.scores(question).top(k)]
        budget_size = sum(_size(h.parent, self.unit) for h in hits if not h.duplicate)
        return Resolution(question, self.unit, hits, plain, self._within(question, budget_size))

    def _within(self, question: str, budget: int) -> list[tuple[str, Chunk]]:
        """Plain chunks in rank order while they fit in ``budget`` units."""
        out, used = [], 0
        for p in self._plain_index.scores(question).top(len(self.plain_chunks)):
            name, c = self.plain_chunks[p]
            size = _size(c, self.unit)
            if used + size > budget:
                break
            out.append((name, c))
            used += size
        return out


# --------------------------------------------------------------------------- a gold set


@dataclass(frozen=True, slots=True)
class Delivered:
    """One arm's result for one question."""

    found: bool  # the answer whole in a delivered text (a passage: met by one)
    coverage: float  # share of the gold text inside what is delivered
    size: int  # context sent, in the unit
    items: int  # texts sent


@dataclass(frozen=True)
class QuestionResult:
    question: str
    doc: str
    arms: dict[str, Delivered]
    duplicates: int  # parents the dedupe removed
    size_without_dedupe: int  # the parents' context had every child sent its own


@dataclass(frozen=True)
class SmallToBigReport:
    tiers: Tiers
    plain: ChunkConfig
    k: int
    unit: str
    chunks: int  # plain chunks in the index
    children: int
    parents: int
    over_cap: int  # parents past the cap, delivered as windows
    results: list[QuestionResult] = field(default_factory=list)
    retriever: str = ""  # who ranked the children and the plain chunks, as shown

    def recall(self, arm: str) -> float:
        return _mean([r.arms[arm].found for r in self.results])

    def coverage(self, arm: str) -> float:
        return _mean([r.arms[arm].coverage for r in self.results])

    def mean_size(self, arm: str) -> float:
        return _mean([r.arms[arm].size for r in self.results])

    @property
    def duplicates(self) -> int:
        return sum(r.duplicates for r in self.results)

    @property
    def mean_size_without_dedupe(self) -> float:
        return _mean([r.size_without_dedupe for r in self.results])

    def to_json(self) -> dict:
        """JSON-ready: the configurations, the overall figures and each question's."""
        return {
            "children": str(self.tiers.child),
            "parents": str(self.tiers.parent),
            "plain": str(self.plain),
            "cap": self.tiers.cap,
            "k": self.k,
            "unit": self.unit,
            "retriever": self.retriever,
            "counts": {
                "chunks": self.chunks,
                "children": self.children,
                "parents": self.parents,
                "parents_over_cap": self.over_cap,
            },
            "overall": {
                arm: {
                    "recall": self.recall(arm),
                    "coverage": self.coverage(arm),
                    "mean_context": self.mean_size(arm),
                }
                for arm in ARMS
            },
            "duplicates_removed": self.duplicates,
            "mean_context_without_dedupe": self.mean_size_without_dedupe,
            "questions": [
                {
                    "question": r.question,
                    "doc": r.doc,
                    "duplicates_removed": r.duplicates,
                    "context_without_dedupe": r.size_without_dedupe,
                    **{
                        arm: {
                            "found": d.found,
                            "coverage": d.coverage,
                            "context": d.size,
                            "items": d.items,
                        }
                        for arm, d in r.arms.items()
                    },
                }
                for r in self.results
            ],
        }


def _mean(values: Sequence[float]) -> float:
    return float(sum(values) / len(values)) if values else 0.0


Span = tuple[int, int]


def _gold_spans(layout: DocumentLayout, pair: GoldQuestion) -> tuple[list[list[Span]], bool]:
    """Each gold text's occurrences, and whether it must be held whole (an answer)."""
    if pair.answer or not pair.passages:
        return [layout.spans(pair.answer)], True
    out = []
    for p in pair.passages:
        if p.text is not None:
            out.append(layout.spans(p.text))
        else:
            s, e = int(p.start or 0), int(p.end or 0)
            if e > len(layout.text):
                raise AnswerNotFound(f"span {s}-{e} runs outside {pair.doc or 'the document'}")
            out.append([(s, e)])
    return out, False


def _spans_of(c: Chunk) -> list[Span]:
    spans = [(c.start, c.end)]
    if c.overlap_end > c.overlap_start:
        spans.append((c.overlap_start, c.overlap_end))
    return spans


def _covered(span: Span, delivered: Sequence[Chunk]) -> int:
    s, e = span
    mask = np.zeros(e - s, dtype=bool)
    for c in delivered:
        for lo, hi in _spans_of(c):
            lo, hi = max(lo, s), min(hi, e)
            if lo < hi:
                mask[lo - s : hi - s] = True
    return int(mask.sum())


def measure(text: str, pair: GoldQuestion, delivered: Sequence[Chunk], unit: str) -> Delivered:
    """One arm's figures for one question, on the delivered texts of its document."""
    layout = DocumentLayout(text, delivered)
    gold, whole = _gold_spans(layout, pair)
    if whole:
        found = bool(layout.holders(pair.answer))
    else:
        found = any(
            lo < e and s < hi
            for spans in gold
            for s, e in spans
            for c in delivered
            for lo, hi in _spans_of(c)
        )
    covered = total = 0
    for spans in gold:
        best = max(spans, key=lambda sp: _covered(sp, delivered))
        covered += _covered(best, delivered)
        total += best[1] - best[0]
    return Delivered(
        found,
        covered / total if total else 0.0,
        sum(_size(c, unit) for c in delivered),
        len(delivered),
    )


def evaluate(
    gold: GoldRun,
    tiers: Tiers,
    plain: ChunkConfig,
    *,
    plain_chunks: dict[str, list[Chunk]] | None = None,
) -> SmallToBigReport:
    """Every gold question through the four arms (ARMS). A pair's ``doc`` names its
    document ("" for the first).

    Args:
        gold: the documents, the questions, k and the retriever (None: sparse BM25).
        plain: the one-tier configuration the tiers are measured against.
        plain_chunks: ``plain``'s chunks already made, per document.

    Raises:
        AnswerNotFound: a question's gold text is not in its document.
    """
    documents, k, retriever = gold.documents, gold.k, gold.retriever
    s2b = SmallToBig(documents, tiers, plain, retriever=retriever, plain_chunks=plain_chunks)
    results = []
    for pair in gold.pairs:
        name = document_of(pair, documents)
        text = documents[name]
        res = s2b.resolve(pair.question, k)
        arms = {
            arm: measure(text, pair, [c for n, c in res.delivered(arm) if n == name], s2b.unit)
            for arm in ARMS
        }
        # context is what is sent, whichever document it comes from
        arms = {
            arm: replace(d, size=res.size(arm), items=len(res.delivered(arm)))
            for arm, d in arms.items()
        }
        results.append(
            QuestionResult(pair.question, name, arms, res.duplicates, res.size_without_dedupe)
        )
    return SmallToBigReport(
        tiers,
        plain,
        k,
        s2b.unit,
        len(s2b.plain_chunks),
        len(s2b.children),
        s2b.parent_count,
        s2b.over_cap,
        results,
        (retriever or get_retriever()).label,
    )
