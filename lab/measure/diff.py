"""The chunk-population diff: two chunking configurations over the same documents.

Before a chunking change ships, compare the chunks the old configuration (A)
and the new one (B) make: their size distributions, chunk counts per
document, atomic-element violations (lab.measure.atomic), gold metrics when a gold
set is given (lab.measure.integrity), and the chunks that changed most, to be read by
hand. Data in, report out: rendering lives in lab.report.diff_render.

"Changed" is measured on body spans. Within each document every chunk of A is
paired with the chunk of B that shares the most characters with it, and every
chunk of B that no A chunk chose is paired with its own best A chunk. A pair's
``moved`` is how many characters lie in one span and not the other (union -
shared), and its ``change`` is that share of the union (0: the same span; 1:
nothing in common, or no partner at all). The most-changed pairs are those
with the most characters moved, the larger change first among equals.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from chunkers import Chunk, ChunkOptions, chunk_with
from chunkers.limit import over_limit
from chunkers.model import UNITS
from chunkers.registry import OFFERED
from chunkers.tokens import DEFAULT_TOKENIZER, tokenizer_for
from lab.inputs.gold import GoldQuestion
from lab.inputs.placement import (
    IMPORTED,
    Placement,
    PlacementError,
    import_chunk_file,
    import_chunk_folder,
)
from lab.retrieval.bm25_variants import Bm25Retriever
from lab.retrieval.interface import Retriever

from .atomic import KINDS, Elements, Violations, elements, violations
from .budget import BudgetFigures
from .context import DEFAULT_CONTEXT
from .fair import EQUAL_COST_TOLERANCE, EqualCost, cheaper_cost
from .integrity import DEFAULT_K, check_judged
from .paired import PairedDifference, found_within, paired_difference, reciprocal_ranks
from .stats import Distribution, distribution

DEFAULT_LIMIT = 20
CONFIG_FORM = (
    "STRATEGY:UNIT:SIZE:OVERLAP[:TOKENIZER], e.g. structural:chars:1800:150 or "
    "structural:tokens:512:50:o200k_base"
)
IMPORTED_FORM = "chunks:FILE, e.g. chunks:my_chunks.jsonl"


class ConfigError(ValueError):
    """A configuration string that names no chunking: one line, naming the bad part."""


@dataclass(frozen=True, slots=True)
class ChunkConfig:
    """A chunking by name, or (``strategy`` "chunks") the chunks a file holds.

    Written ``STRATEGY:UNIT:SIZE:OVERLAP``, with the tokenizer as a fifth part when
    the unit is tokens and the tokenizer is not the default, or ``chunks:FILE``:
    ``str(parse_config(s)) == s``. An imported set is measured in the unit, and
    judged at the size, of the configuration it is compared with (``measured_as``).
    """

    strategy: str
    unit: str
    size: int
    overlap: int
    tokenizer: str = DEFAULT_TOKENIZER
    chunks: str = ""  # the chunk file, when strategy is "chunks"
    headings_embedded: bool = False  # its pipeline embeds the heading path with the text

    @property
    def options(self) -> ChunkOptions:
        return ChunkOptions(
            size=self.size, overlap=self.overlap, unit=self.unit, tokenizer=self.tokenizer
        )

    @property
    def imported(self) -> bool:
        return self.strategy == IMPORTED

    def measured_as(self, other: ChunkConfig) -> ChunkConfig:
        """An imported set measured like ``other`` (its unit, tokenizer and size)."""
        if not self.imported or other.imported:
            return self
        return replace(self, unit=other.unit, size=other.size, overlap=0, tokenizer=other.tokenizer)

    def chunk(self, name: str, text: str) -> list[Chunk]:
        """The configuration's chunks of one document (an imported set: placed in it)."""
        if not self.imported:
            return chunk_with(text, self.strategy, self.options)
        return self.placement(text).chunks

    def placement(self, text: str) -> Placement:
        """An imported set placed in one document (its chunks, and each row's source)."""
        try:
            return import_chunk_file(
                self.chunks, text, self.unit, self.tokenizer, self.headings_embedded
            )
        except PlacementError as exc:
            raise ConfigError(f"{self}: {exc}") from None

    def place(self, documents: Mapping[str, str]) -> dict[str, Placement]:
        """An imported set placed in a folder's documents: each row in the document its
        ``source`` names (the placement ``check --chunks`` uses on a folder)."""
        try:
            return import_chunk_folder(
                self.chunks, documents, self.unit, self.tokenizer, self.headings_embedded
            )
        except PlacementError as exc:
            raise ConfigError(f"{self}: {exc}") from None

    def __str__(self) -> str:
        if self.imported:
            return f"{IMPORTED}:{self.chunks}"
        named = f":{self.tokenizer}" if self.tokenizer != DEFAULT_TOKENIZER else ""
        return f"{self.strategy}:{self.unit}:{self.size}:{self.overlap}{named}"


def parse_config(spec: str) -> ChunkConfig:
    """``structural:chars:1800:150``, ``structural:tokens:512:50:o200k_base`` or
    ``chunks:FILE`` as a ChunkConfig.

    Raises:
        ConfigError: one line naming the part that is wrong.
    """
    head, _, rest = spec.partition(":")
    if head.strip() == IMPORTED:
        if not rest.strip():
            raise ConfigError(f"config {spec!r} must be {IMPORTED_FORM}")
        return ChunkConfig(IMPORTED, "chars", 1, 0, chunks=rest.strip())
    # -- a tokenizer.json's path may hold colons (C:\\models\\tokenizer.json): the fifth
    # -- part is kept whole
    parts = spec.split(":", 4)
    if len(parts) not in (4, 5):
        raise ConfigError(f"config {spec!r} must be {CONFIG_FORM}, or {IMPORTED_FORM}")
    strategy, unit, size_text, overlap_text = (p.strip() for p in parts[:4])
    if strategy not in OFFERED:
        raise ConfigError(
            f"config {spec!r}: strategy {strategy!r} is not one of {', '.join(OFFERED)}, "
            f"or {IMPORTED}"
        )
    if unit not in UNITS:
        raise ConfigError(f"config {spec!r}: unit {unit!r} is not one of {', '.join(UNITS)}")
    tokenizer = parts[4].strip() if len(parts) == 5 else DEFAULT_TOKENIZER
    if len(parts) == 5 and unit != "tokens":
        raise ConfigError(
            f"config {spec!r}: a tokenizer ({tokenizer!r}) applies only to the unit tokens; "
            f"write {strategy}:tokens:{size_text}:{overlap_text}:{tokenizer}, or leave it out"
        )
    if unit == "tokens":
        try:
            tokenizer_for(tokenizer)
        except ValueError as exc:
            raise ConfigError(f"config {spec!r}: {exc}") from None
    size = _whole(size_text)
    if size is None or size < 1:
        raise ConfigError(
            f"config {spec!r}: size {size_text!r} must be a whole number of at least 1"
        )
    overlap = _whole(overlap_text)
    if overlap is None or not 0 <= overlap < size:
        raise ConfigError(
            f"config {spec!r}: overlap {overlap_text!r} must be a whole number from 0 to "
            f"{size - 1}, below the size"
        )
    return ChunkConfig(strategy, unit, size, overlap, tokenizer)


def _whole(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() else None


@dataclass(frozen=True, slots=True)
class GoldSummary:
    questions: int
    intact: int  # answers whole in some chunk (whoever ranks)
    k: int
    recall: dict[int, float]  # recall@k for the report's ks
    mrr: float
    retriever: str = ""  # who ranked: recall and MRR are this retriever's
    # token efficiency of the top k (lab.measure.efficiency): precision, token_recall,
    # iou, precision_omega, context_cost, each a mean over questions
    tokens: dict[str, float] = field(default_factory=dict)
    ranks: tuple[int | None, ...] = ()  # each question's rank (None: not ranked), in order
    budget: BudgetFigures | None = None  # the figures at the run's budget, when one was set

    @property
    def intact_rate(self) -> float:
        return self.intact / self.questions if self.questions else 0.0


@dataclass(frozen=True, slots=True)
class RankDifference:
    """One figure's difference B - A by one judge, with its paired bootstrap interval."""

    retriever: str
    figure: str  # "MRR" or "recall@K"
    a: float
    b: float
    paired: PairedDifference


def rank_differences(ja: GoldSummary, jb: GoldSummary) -> list[RankDifference]:
    """MRR and recall at each k, A against B, each with how sure the difference is
    (lab.measure.paired): the same questions, scored question by question."""
    if not ja.ranks or len(ja.ranks) != len(jb.ranks):
        return []
    out = [
        RankDifference(
            ja.retriever,
            "MRR",
            ja.mrr,
            jb.mrr,
            paired_difference(reciprocal_ranks(ja.ranks), reciprocal_ranks(jb.ranks)),
        )
    ]
    for k in ja.recall:
        out.append(
            RankDifference(
                ja.retriever,
                f"recall@{k}",
                ja.recall[k],
                jb.recall[k],
                paired_difference(found_within(ja.ranks, k), found_within(jb.ranks, k)),
            )
        )
    return out


@dataclass(frozen=True)
class Side:
    """One configuration's figures over all documents."""

    config: ChunkConfig
    sizes: Distribution
    violations: Violations
    gold: GoldSummary | None = None  # the first retriever's
    judged: tuple[GoldSummary, ...] = ()  # every retriever's, in the order named
    # chunks whose indexed text passes the embedder's limit (None: no limit given)
    over_limit: int | None = None


@dataclass(frozen=True, slots=True)
class DocCounts:
    doc: str
    a: int
    b: int


@dataclass(frozen=True, slots=True)
class ChangedPair:
    doc: str
    a: Chunk | None  # None: this B chunk shares no character with any A chunk
    b: Chunk | None
    shared: int  # characters the two body spans share
    change: float  # 1 - shared / union

    @property
    def moved(self) -> int:
        """Characters in one span and not the other."""
        return _span(self.a) + _span(self.b) - 2 * self.shared


def _span(c: Chunk | None) -> int:
    return 0 if c is None else c.end - c.start


@dataclass(frozen=True)
class DiffReport:
    a: Side
    b: Side
    documents: list[DocCounts]
    changed: list[ChangedPair]  # the most-changed pairs, most changed first
    pairs: int  # all pairs made
    unchanged: int  # pairs whose spans are the same
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    embedder_limit: int | None = None  # each side's over_limit is counted against it
    equal_cost: EqualCost | None = None  # both sides at the cheaper one's context cost

    @property
    def regressions(self) -> list[str]:
        """Why B is worse than A, one line each; empty when it is not."""
        out = []
        ga, gb = self.a.gold, self.b.gold
        if ga and gb and gb.intact < ga.intact:
            out.append(
                f"intact share fell from {ga.intact_rate:.1%} to {gb.intact_rate:.1%} "
                f"({ga.intact} to {gb.intact} of {ga.questions} answers)"
            )
        for kind in KINDS:
            ra, rb = self.a.violations.counts[kind].rate, self.b.violations.counts[kind].rate
            if rb > ra:
                out.append(f"{kind} rate rose from {_pct(ra)} to {_pct(rb)}")
        return out

    @property
    def worse(self) -> bool:
        return bool(self.regressions)

    @property
    def differences(self) -> list[RankDifference]:
        """Each judge's MRR and recall@k differences, with their intervals."""
        pairs = list(zip(self.a.judged, self.b.judged, strict=True))
        return [d for ja, jb in pairs for d in rank_differences(ja, jb)]


def _pct(rate: Fraction) -> str:
    return f"{float(rate):.1%}"


def build_diff(
    documents: dict[str, str],
    a: ChunkConfig,
    b: ChunkConfig,
    *,
    gold: Sequence[GoldQuestion] | None = None,
    k: int = DEFAULT_K,
    limit: int = DEFAULT_LIMIT,
    unreadable: Sequence[tuple[str, str]] = (),
    retrievers: Sequence[Retriever] = (),
    placed: Mapping[str, list[Chunk]] | None = None,
    embedder_limit: int | None = None,
    budget: int | None = None,
    context: str = DEFAULT_CONTEXT,
) -> DiffReport:
    """Chunk every document with A and with B and compare the two populations.

    Args:
        documents: name -> text.
        gold: questions that name their document (``GoldQuestion.doc``).
        k: how many top chunks count as retrieved, for the gold metrics.
        limit: how many of the most-changed chunk pairs the report keeps.
        unreadable: (path, message) of the documents that could not be read,
            carried into the report.
        retrievers: who the gold metrics are given for (default: BM25 at its
            defaults).
        placed: the imported side's chunks already placed in each document,
            measured in the other side's unit (an app's upload); without it they
            are read from the config's file.
        embedder_limit: count each side's chunks whose indexed text (heading path
            + overlap + body) passes it, in that side's unit
            (chunkers.limit.over_limit).
        budget: also measure each side at a context of this many units
            (lab.measure.budget); both sides are compared at it as at equal cost.
        context: what is indexed beside each chunk (lab.measure.context).

    Raises:
        AnswerNotFound: a gold answer is not in its document (a bad gold set, not
            a chunking result).
        ValueError: ``limit`` below 0 or ``embedder_limit`` below 1.
    """
    if limit < 0:
        raise ValueError(f"limit must be at least 0, got {limit}")
    if embedder_limit is not None and embedder_limit < 1:
        raise ValueError(f"embedder limit must be at least 1, got {embedder_limit}")
    a, b = a.measured_as(b), b.measured_as(a)
    # -- a folder: an imported file's rows go to the documents they name, once per side
    folder = {
        c: c.place(documents)
        for c in (a, b)
        if c.imported and placed is None and len(documents) > 1
    }
    found = {name: elements(text) for name, text in documents.items()}
    # -- an imported side's placements: what its pipeline embeds, row by row
    embedded: dict[ChunkConfig, list[int]] = {}

    def chunked(config: ChunkConfig, name: str, text: str) -> list[Chunk]:
        if config.imported and placed is not None:
            return placed[name]
        if not config.imported:
            return config.chunk(name, text)
        p = folder[config][name] if config in folder else config.placement(text)
        embedded.setdefault(config, []).extend(src.length for src in p.sources)
        return p.chunks

    chunks_a = {name: chunked(a, name, text) for name, text in documents.items()}
    chunks_b = {name: chunked(b, name, text) for name, text in documents.items()}
    pairs: list[ChangedPair] = []
    for name in documents:
        pairs += match_chunks(name, chunks_a[name], chunks_b[name])
    pairs.sort(key=_most_changed_first)
    fair = _Fair(documents, gold, k, retrievers, budget, context)
    side_a = _side(
        a, chunks_a, found, documents, gold, k, retrievers, embedder_limit, embedded.get(a), fair
    )
    side_b = _side(
        b, chunks_b, found, documents, gold, k, retrievers, embedder_limit, embedded.get(b), fair
    )
    return DiffReport(
        side_a,
        side_b,
        [DocCounts(n, len(chunks_a[n]), len(chunks_b[n])) for n in documents],
        pairs[:limit],
        len(pairs),
        sum(p.change == 0 for p in pairs),
        list(unreadable),
        embedder_limit,
        fair.equal_cost(side_a, side_b, chunks_a, chunks_b),
    )


@dataclass(frozen=True)
class _Fair:
    """How the gold check is run on each side (context, budget), and the comparison of
    the two at equal cost."""

    documents: dict[str, str]
    gold: Sequence[GoldQuestion] | None
    k: int
    retrievers: Sequence[Retriever]
    budget: int | None = None
    context: str = DEFAULT_CONTEXT

    def check(
        self, config: ChunkConfig, chunked: dict[str, list[Chunk]], budget: int | None
    ) -> list:
        return check_judged(
            self.documents,
            list(self.gold or ()),
            str(config),
            config.options,
            retrievers=list(self.retrievers) or [Bm25Retriever()],
            k=self.k,
            chunked=chunked,
            context=self.context,
            budget=budget,
            whole_first=self.budget is not None,
        )

    def equal_cost(
        self, a: Side, b: Side, chunks_a: dict[str, list[Chunk]], chunks_b: dict[str, list[Chunk]]
    ) -> EqualCost | None:
        """Both sides at the cheaper one's context cost at k (or at the budget given),
        when they count in the same unit."""
        unit = a.config.options.unit_name
        if a.gold is None or b.gold is None or unit != b.config.options.unit_name:
            return None
        found = cheaper_cost(
            a.gold.tokens.get("context_cost", 0), b.gold.tokens.get("context_cost", 0)
        )
        if found is None:
            return None
        side, units, ratio = found
        if self.budget is None and ratio <= EQUAL_COST_TOLERANCE:
            return None  # they cost about the same at k: the figures at k are fair
        if self.budget is not None:  # each side was measured at it already
            units = self.budget
            at_a = tuple(g.budget for g in a.judged if g.budget is not None)
            at_b = tuple(g.budget for g in b.judged if g.budget is not None)
        else:
            at_a = tuple(r.at_budget for r in self.check(a.config, chunks_a, units) if r.at_budget)
            at_b = tuple(r.at_budget for r in self.check(b.config, chunks_b, units) if r.at_budget)
        return EqualCost(units, unit, side, ratio, at_a, at_b, self.budget is not None)


def _most_changed_first(p: ChangedPair) -> tuple:
    first = p.a if p.a is not None else p.b
    return (-p.moved, -p.change, p.doc, first.start if first else 0)


def _side(
    config: ChunkConfig,
    chunked: dict[str, list[Chunk]],
    found: dict[str, Elements],
    documents: dict[str, str],
    gold: Sequence[GoldQuestion] | None,
    k: int,
    retrievers: Sequence[Retriever],
    embedder_limit: int | None = None,
    embedded: list[int] | None = None,  # an imported side's rows as its pipeline embeds them
    fair: _Fair | None = None,
) -> Side:
    opts = config.options
    broken = Violations()
    for name, chunks in chunked.items():
        broken = broken.merged(violations(name, chunks, found[name], opts.effective_max))
    everything = [c for cs in chunked.values() for c in cs]
    judged: list[GoldSummary] = []
    if gold:
        fair = fair or _Fair(documents, gold, k, retrievers)
        reports = fair.check(config, chunked, fair.budget)
        judged = [
            GoldSummary(
                len(report.results),
                sum(r.intact for r in report.results),
                k,
                report.recall,
                report.mrr,
                report.retriever,
                report.token_figures(),
                tuple(r.rank for r in report.results),
                report.at_budget,
            )
            for report in reports
        ]
    return Side(
        config,
        distribution(everything, opts),
        broken,
        judged[0] if judged else None,
        tuple(judged),
        _over_limit(everything, opts, embedder_limit, embedded),
    )


def _over_limit(
    chunks: list[Chunk], opts: ChunkOptions, limit: int | None, embedded: list[int] | None
) -> int | None:
    """Chunks past the embedder's limit: on their indexed text, or for an imported side
    on the text its pipeline embeds (each row's own)."""
    if limit is None:
        return None
    if embedded is not None:
        return sum(n > limit for n in embedded)
    return len(over_limit(chunks, opts, limit))


def match_chunks(doc: str, a: Sequence[Chunk], b: Sequence[Chunk]) -> list[ChangedPair]:
    """Pair the chunks of one document (see the module's docstring)."""
    ends_a, ends_b = [c.end for c in a], [c.end for c in b]
    best_b = [_best(c, b, ends_b) for c in a]
    chosen = {j for j, _ in best_b if j is not None}
    out = [
        _pair(doc, c, None if j is None else b[j], shared)
        for c, (j, shared) in zip(a, best_b, strict=True)
    ]
    for j, c in enumerate(b):
        if j in chosen:
            continue
        i, shared = _best(c, a, ends_a)
        out.append(_pair(doc, None if i is None else a[i], c, shared))
    return out


def _best(c: Chunk, others: Sequence[Chunk], ends: list[int]) -> tuple[int | None, int]:
    """The chunk of ``others`` (in text order, ``ends`` their ends) sharing the most
    characters with ``c``."""
    best, most = None, 0
    i = bisect_right(ends, c.start)  # the first that ends after c starts
    while i < len(others) and others[i].start < c.end:
        shared = min(c.end, others[i].end) - max(c.start, others[i].start)
        if shared > most:
            best, most = i, shared
        i += 1
    return best, most


def _pair(doc: str, a: Chunk | None, b: Chunk | None, shared: int) -> ChangedPair:
    union = _span(a) + _span(b) - shared
    change = 1.0 - shared / union if union else 0.0
    return ChangedPair(doc, a, b, shared, change)
