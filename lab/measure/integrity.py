"""The chunk-integrity check (survival and ranking over a gold set; see docs/concepts.md).

For each question/answer pair: is the answer whole in some chunk, which chunk,
and where does a retriever rank it? Two failures that look the same from
outside are kept apart in every report: "the chunk does not exist" (the answer
was cut, no ranking can recover it) and "the chunk exists but ranks poorly".
The first is one figure, whoever judges; the second, with recall, coverage and
MRR, is the retriever's: ``check_judged`` gives one report per retriever.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from chunkers import ChunkOptions, chunk_with
from chunkers.model import Chunk
from lab.inputs.gold import GoldQuestion, Passage
from lab.retrieval.bm25_sparse import QueryScores
from lab.retrieval.bm25_variants import Bm25Retriever
from lab.retrieval.corpus import corpus_index
from lab.retrieval.interface import Retriever, judge_name
from lab.text import clip, collapse_whitespace

from .budget import AtBudget, BudgetFigures, check_budget, figures, fill, first_units
from .context import DEFAULT_CONTEXT, IndexTexts, Titles, TokenCache, context_texts
from .efficiency import (
    Efficiency,
    Span,
    common,
    merged,
    token_efficiency,
    unit_counts,
    units_in,
)
from .survival import AnswerNotFound, DocumentLayout
from .verdict import gate_verdict

RECALL_KS = (1, 3, 5, 10)
FAILURE_K = 20  # top-20 failures: the depth contextual retrieval is reported at
DEFAULT_K = 10  # a question is found when a chunk holding its answer ranks within k

FOUND = "found"  # a chunk relevant to a passage ranks within k
RANKS_POORLY = "chunk exists but ranks poorly"
NO_CHUNK = "chunk does not exist"


@dataclass(frozen=True, slots=True)
class GoldRun:
    """What every gold-set measurement starts from: the documents indexed together,
    their gold questions, and how a question is judged found (a chunk that holds its
    answer ranks within the top ``k`` of ``retriever``; None: BM25 at the default
    settings, the sparse engine: the same ranks as rank-bm25)."""

    documents: dict[str, str]
    pairs: Sequence[GoldQuestion]
    k: int = DEFAULT_K
    retriever: Retriever | None = None
    budget: int | None = None  # also measure at a context of this many units
    context: str = DEFAULT_CONTEXT  # what is indexed beside each chunk


def document_of(pair: GoldQuestion, documents: Mapping[str, object]) -> str:
    """The document a gold question asks about: the one its ``doc`` names, or the first."""
    return pair.doc or next(iter(documents), "")


class GoldLineError(AnswerNotFound):
    """A gold line that does not fit its document (text not there, span outside)."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line  # None when the pair came without a line number
        self.reason = message


@dataclass(frozen=True, slots=True)
class PassageResult:
    start: int  # the passage's span in its document (a text's first occurrence)
    end: int
    intact: bool  # whole in one chunk's retrievable text
    chunk_index: int | None  # first chunk holding it whole (0-based)
    verdict: str
    # a chunk boundary (a body's start or end) falls inside it: cut at a boundary,
    # whether or not overlap keeps it whole in some chunk (``intact``)
    cut: bool = False


@dataclass(frozen=True, slots=True)
class PairResult:
    """One gold question checked: is its answer whole in a chunk, and where does that chunk rank."""

    question: str
    answer: str
    doc: str
    intact: bool  # every passage whole in some chunk
    chunk_index: int | None  # the best-ranked relevant chunk (0-based)
    rank: int | None  # its rank among all chunks of the index (1 = best), by the report's judge
    status: str  # FOUND, RANKS_POORLY or NO_CHUNK
    verdict: str  # in the verdict's words, e.g. "answer split across chunks 4 and 5: ..."
    coverage: dict[int, float] = field(default_factory=dict)  # k -> share of passage chars
    passages: list[PassageResult] = field(default_factory=list)
    efficiency: Efficiency | None = None  # tokens of the top k (lab.measure.efficiency)
    budget: AtBudget | None = None  # the context at the run's budget (lab.measure.budget)


@dataclass(frozen=True)
class IntegrityReport:
    strategy: str
    options: ChunkOptions
    k: int
    chunk_count: int
    results: list[PairResult] = field(default_factory=list)
    retriever: str = ""  # who ranked: the retriever's label, e.g. "bm25 (lucene)"
    note: str = ""  # one line when the judge cannot read the text (its ranks are noise)
    context: str = DEFAULT_CONTEXT  # what was indexed beside each chunk (lab.measure.context)
    budget: int | None = None  # the context budget in the unit, when one was set
    titles: Titles | None = None  # the titles indexed (context title+path)
    baseline: str | None = None  # another context the questions were also ranked under
    baseline_ranks: tuple[int | None, ...] = ()  # each question's best relevant rank there

    @property
    def at_budget(self) -> BudgetFigures | None:
        """The gold set's figures at the budget (None without one)."""
        if self.budget is None:
            return None
        return figures(self.budget, [r.budget for r in self.results], self.options.unit_name)

    @property
    def failure_at_20(self) -> float:
        """Top-20 retrieval failures: the share of questions with no relevant chunk in
        the top 20 (1 - recall@20), as contextual retrieval's results are given."""
        return 1.0 - self.recall_at(FAILURE_K) if self.results else 0.0

    @property
    def baseline_failure_at_20(self) -> float | None:
        """Top-20 failures under the baseline context (None when none was ranked)."""
        if self.baseline is None:
            return None
        return 1.0 - _share(r is not None and r <= FAILURE_K for r in self.baseline_ranks)

    @property
    def intact_rate(self) -> float:
        return _share(r.intact for r in self.results)

    @property
    def passage_intact_rate(self) -> float:
        return _share(p.intact for r in self.results for p in r.passages)

    @property
    def passages_cut(self) -> int:
        """Passages a chunk boundary falls inside (overlap may still hold them whole)."""
        return sum(p.cut for r in self.results for p in r.passages)

    @property
    def passages_in_no_chunk(self) -> int:
        """Passages whole in no chunk: cut, and no overlap or copy repaired the cut."""
        return sum(not p.intact for r in self.results for p in r.passages)

    def recall_at(self, k: int) -> float:
        """Share of questions with a relevant chunk in the top k."""
        return _share(r.rank is not None and r.rank <= k for r in self.results)

    @property
    def recall(self) -> dict[int, float]:
        return {k: self.recall_at(k) for k in self.ks}

    def coverage_at(self, k: int) -> float:
        """Mean over questions of the share of passage characters in the top k chunks."""
        if not self.results:
            return 0.0
        return sum(r.coverage.get(k, 0.0) for r in self.results) / len(self.results)

    @property
    def coverage(self) -> dict[int, float]:
        return {k: self.coverage_at(k) for k in self.ks}

    def _mean(self, figure: Callable[[Efficiency], float]) -> float:
        shown = [figure(r.efficiency) for r in self.results if r.efficiency is not None]
        return sum(shown) / len(shown) if shown else 0.0

    # -- the token-efficiency means by name, each over the questions: what of the top k's
    # -- units answers (precision), what of the passage arrives (token_recall), their
    # -- IoU, precision were every chunk meeting a passage retrieved and no other
    # -- (precision_omega), and the units the top k cost the context (context_cost)
    precision = property(lambda self: self._mean(lambda e: e.precision))
    token_recall = property(lambda self: self._mean(lambda e: e.recall))
    iou = property(lambda self: self._mean(lambda e: e.iou))
    precision_omega = property(lambda self: self._mean(lambda e: e.precision_omega))
    context_cost = property(lambda self: self._mean(lambda e: float(e.cost)))

    def token_figures(self) -> dict[str, float]:
        """The token-efficiency means by name, as reports and the app show them."""
        names = ("precision", "token_recall", "iou", "precision_omega", "context_cost")
        return {name: getattr(self, name) for name in names}

    @property
    def ks(self) -> tuple[int, ...]:
        return metric_ks(self.k)

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
        """The gate on this report alone: every answer is whole in some chunk (the
        rule lives in lab.measure.verdict, with the gate's others)."""
        return gate_verdict(missing=len(self.missing), strategy=self.strategy).passed


def status_by(statuses: Mapping[str, str]) -> str:
    """One pair's status over several retrievers (label -> status): the chunk does not
    exist (whoever ranks), found by every one, or which of them rank it poorly."""
    if len(statuses) == 1 or NO_CHUNK in statuses.values():
        return next(iter(statuses.values()))
    poorly = [judge_name(label) for label, s in statuses.items() if s == RANKS_POORLY]
    return f"ranks poorly: {', '.join(poorly)}" if poorly else FOUND


def metric_ks(k: int) -> tuple[int, ...]:
    """The k's recall and coverage are reported at: the usual ones and the run's own."""
    return tuple(sorted({*RECALL_KS, k}))


def _share(flags) -> float:
    flags = list(flags)
    return sum(flags) / len(flags) if flags else 0.0


# --------------------------------------------------------------------------- one document


class _Document:
    """One document's chunks, laid out once, and where they sit in the whole index."""

    def __init__(
        self, text: str, chunks: Sequence[Chunk], offset: int, opts: ChunkOptions | None = None
    ) -> None:
        self.text = text
        self.opts = opts or ChunkOptions()
        self._counts: np.ndarray | None = None
        self.layout = DocumentLayout(text, chunks)
        self.offset = offset  # position of its first chunk in the index
        self.body = np.array([(c.start, c.end) for c in chunks], dtype=np.int64).reshape(-1, 2)
        self.prefix = np.array(
            [(c.overlap_start, c.overlap_end) for c in chunks], dtype=np.int64
        ).reshape(-1, 2)

    def overlapping(self, s: int, e: int) -> np.ndarray:
        """Positions of the chunks whose source text (body or overlap prefix) meets [s, e)."""
        b, p = self.body, self.prefix
        hit = ((b[:, 0] < e) & (s < b[:, 1])) | (
            (p[:, 0] < e) & (s < p[:, 1]) & (p[:, 0] < p[:, 1])
        )
        return np.flatnonzero(hit)

    @property
    def counts(self) -> np.ndarray:
        """The document's units counted by offset: made once, when a measure needs it."""
        if self._counts is None:
            self._counts = unit_counts(self.text, self.opts.unit, self.opts.tokenizer)
        return self._counts

    def cut_inside(self, s: int, e: int) -> bool:
        """Whether a chunk's body starts or ends strictly inside [s, e)."""
        b = self.body
        return bool((((s < b[:, 0]) & (b[:, 0] < e)) | ((s < b[:, 1]) & (b[:, 1] < e))).any())

    def spans_of(self, position: int) -> list[tuple[int, int]]:
        """One chunk's source text: its body and its overlap prefix."""
        return [(int(lo), int(hi)) for lo, hi in (self.body[position], self.prefix[position])]

    def covered(self, s: int, e: int, positions: Iterable[int]) -> int:
        """How many characters of [s, e) lie inside the given chunks' source text."""
        mask = np.zeros(e - s, dtype=bool)
        for i in positions:
            for lo, hi in (self.body[i], self.prefix[i]):
                lo, hi = max(lo, s), min(hi, e)
                if lo < hi:
                    mask[lo - s : hi - s] = True
        return int(mask.sum())


@dataclass(frozen=True, slots=True)
class _Located:
    """A passage found in its document: every span it may stand for, and its chunks."""

    spans: list[tuple[int, int]]
    whole: bool  # an answer: only a chunk holding it whole is relevant
    holders: list[int]  # positions in the document of chunks holding it whole
    relevant: np.ndarray  # positions in the document of chunks relevant to it
    verdict: str


def _where(pair: GoldQuestion, n: int, line: int | None = None) -> str:
    line = line or pair.line
    return f"gold pair {n} (line {line})" if line else f"gold pair {n}"


def _locate_answer(doc: _Document, pair: GoldQuestion, n: int, name: str) -> _Located:
    try:
        survival = doc.layout.survival(pair.answer)
    except AnswerNotFound:
        raise GoldLineError(
            pair.line,
            f"{_where(pair, n)}: answer {clip(pair.answer)!r} is not in {name or 'the document'}",
        ) from None
    holders = doc.layout.holders(pair.answer)
    spans = doc.layout.spans(pair.answer)
    return _Located(spans, True, holders, np.array(holders, dtype=np.int64), survival.verdict)


def _locate_passage(doc: _Document, p: Passage, pair: GoldQuestion, n: int, name: str) -> _Located:
    where = _where(pair, n, p.line)
    label = name or "the document"
    if p.text is not None:
        try:
            spans = doc.layout.spans(p.text)
        except AnswerNotFound:
            raise GoldLineError(
                p.line or pair.line, f"{where}: passage {clip(p.text)!r} is not in {label}"
            ) from None
        text = p.text
    else:
        s, e = int(p.start or 0), int(p.end or 0)
        if e > len(doc.text):
            raise GoldLineError(
                p.line or pair.line,
                f"{where}: span {s}-{e} runs outside {label} ({len(doc.text)} characters)",
            )
        text = doc.text[s:e]
        if not collapse_whitespace(text):
            raise GoldLineError(p.line or pair.line, f"{where}: span {s}-{e} holds only spaces")
        spans = [(s, e)]
    holders = doc.layout.holders(text)
    relevant = np.unique(np.concatenate([doc.overlapping(s, e) for s, e in spans]))
    survival = doc.layout.survival(text, span=spans[0])
    verdict = survival.verdict.replace("answer ", "passage ", 1).split(":")[0]
    return _Located(spans, False, holders, relevant, verdict)


def _coverage(doc: _Document, located: Sequence[_Located], top: Sequence[int]) -> float:
    """Share of the passages' characters inside the given chunks (each passage at
    its best-covered occurrence)."""
    covered = total = 0
    for loc in located:
        if not top:  # nothing of this document in the top k: every occurrence scores 0
            total += loc.spans[0][1] - loc.spans[0][0]
            continue
        best = max(((doc.covered(s, e, top), e - s) for s, e in loc.spans), key=lambda t: t[0])
        covered += best[0]
        total += best[1]
    return covered / total if total else 0.0


def _efficiency(
    doc: _Document,
    located: Sequence[_Located],
    top: Sequence[int],
    docs: Sequence[_Document],
    offsets: Sequence[int] = (),
    cut: Mapping[int, list[Span]] | None = None,
) -> Efficiency:
    """The top k's tokens against the passages' (each at its best-covered occurrence);
    ``cut``: the spans sent of a chunk a budget cut (index position -> spans)."""
    cut = cut or {}

    def spans_of(d: _Document, i: int) -> list[Span]:
        return cut.get(d.offset + i) or d.spans_of(i)

    mine = [p - doc.offset for p in top if doc.offset <= p < doc.offset + len(doc.body)]
    passages = [max(loc.spans, key=lambda se: doc.covered(se[0], se[1], mine)) for loc in located]
    relevant = [s for loc in located for i in loc.relevant for s in doc.spans_of(int(i))]
    elsewhere = cost = 0
    offsets = offsets or [d.offset for d in docs]
    theirs: dict[int, list[int]] = {}  # what the top k brought from the other documents
    for p in top:
        at = bisect_right(offsets, int(p)) - 1
        if docs[at] is not doc:
            theirs.setdefault(at, []).append(int(p) - docs[at].offset)
    for at, positions in theirs.items():
        other = docs[at]
        spans = merged(s for i in positions for s in spans_of(other, i))
        elsewhere += units_in(other.counts, spans)
        cost += sum(units_in(other.counts, merged(spans_of(other, i))) for i in positions)
    retrieved = [spans_of(doc, i) for i in mine]
    return token_efficiency(doc.counts, passages, retrieved, relevant, elsewhere, cost)


def _result(
    pair: GoldQuestion,
    doc: _Document,
    located: list[_Located],
    scores: QueryScores,
    chunks: Sequence[Chunk],
    k: int,
    docs: Sequence[_Document] = (),
    offsets: Sequence[int] = (),  # each document's first position in the index
) -> PairResult:
    relevant = np.concatenate([loc.relevant for loc in located]) + doc.offset
    best = scores.best(relevant)
    rank, holder = (best[1], chunks[best[0]].index) if best else (None, None)
    ks = metric_ks(k)
    top = scores.top(max(ks))
    coverage = {}
    for kk in ks:
        mine = [p - doc.offset for p in top[:kk] if doc.offset <= p < doc.offset + len(doc.body)]
        coverage[kk] = _coverage(doc, located, mine)
    if any(len(loc.relevant) == 0 for loc in located):
        status = NO_CHUNK
    else:
        status = FOUND if rank is not None and rank <= k else RANKS_POORLY
    passages = [
        PassageResult(
            loc.spans[0][0],
            loc.spans[0][1],
            bool(loc.holders),
            doc.layout.chunks[loc.holders[0]].index if loc.holders else None,
            loc.verdict,
            doc.cut_inside(*loc.spans[0]),
        )
        for loc in located
    ]
    verdict = "; ".join(loc.verdict for loc in located)
    return PairResult(
        pair.question,
        pair.answer,
        pair.doc,
        all(p.intact for p in passages),
        holder,
        rank,
        status,
        verdict,
        coverage,
        passages,
        _efficiency(doc, located, top[:k], docs or [doc], offsets),
    )


class _Costs:
    """What each chunk of the index costs a context, worked out when first asked."""

    def __init__(self, docs: Sequence[_Document], offsets: Sequence[int]) -> None:
        self.docs, self.offsets = docs, offsets
        self._known: dict[int, int] = {}

    def doc(self, position: int) -> _Document:
        return self.docs[bisect_right(self.offsets, position) - 1]

    def __call__(self, position: int) -> int:
        if position not in self._known:
            d = self.doc(position)
            self._known[position] = units_in(d.counts, merged(d.spans_of(position - d.offset)))
        return self._known[position]


def _ranked(scores: QueryScores, start: int) -> Iterable[int]:
    """Every position best first, sorted a batch at a time (a budget rarely reads far)."""
    m, done, n = max(start, 1), 0, len(scores.scores)
    while done < n:
        top = scores.top(m)
        yield from top[done:]
        done, m = len(top), m * 2


def _at_budget(
    doc: _Document,
    located: Sequence[_Located],
    scores: QueryScores,
    costs: _Costs,
    budget: int,
    start: int,
) -> AtBudget:
    """One question's context at ``budget`` units (lab.measure.budget): the chunks sent,
    whether a relevant one is among them, coverage and the token figures over the text sent."""
    sent = fill(_ranked(scores, start), costs, budget)
    cut: dict[int, list[Span]] = {}
    for item in sent:
        if item.cut:
            d = costs.doc(item.position)
            cut[item.position] = first_units(
                d.counts, d.spans_of(item.position - d.offset), item.units
            )
    positions = [item.position for item in sent]
    mine = [p for p in positions if doc.offset <= p < doc.offset + len(doc.body)]
    spans = merged(s for p in mine for s in (cut.get(p) or doc.spans_of(p - doc.offset)))
    covered = total = 0
    found = False
    for loc in located:
        here = [sum(e2 - s2 for s2, e2 in common([(s, e)], spans)) for s, e in loc.spans]
        best = max(range(len(here)), key=here.__getitem__)
        covered += here[best]
        total += loc.spans[best][1] - loc.spans[best][0]
        for p in mine:
            if p - doc.offset not in loc.relevant:
                continue
            if p not in cut:
                found = True
            elif loc.whole:  # an answer: the part sent holds it whole
                found |= any(a <= s and e <= b for s, e in loc.spans for a, b in cut[p])
            else:  # a passage: the part sent meets it
                found |= bool(common(merged(loc.spans), merged(cut[p])))
    return AtBudget(
        sum(item.units / item.whole for item in sent),
        found,
        covered / total if total else 0.0,
        _efficiency(doc, located, positions, costs.docs, costs.offsets, cut),
    )


def _with_budget(
    result: PairResult,
    doc: _Document,
    located: Sequence[_Located],
    scores: QueryScores,
    costs: _Costs,
    budget: int | None,
    firsts: list[int],
) -> PairResult:
    """The result with its context at the budget (as it is without one); ``firsts``
    gathers what each question's first-ranked chunk costs."""
    if budget is None:
        return result
    firsts.extend(costs(p) for p in scores.top(1))
    at = _at_budget(doc, located, scores, costs, budget, max(result.coverage, default=1))
    return replace(result, budget=at)


class _Baseline:
    """The questions ranked again over the chunks indexed under another context: only
    the best relevant chunk's rank, what top-20 failures against it need."""

    def __init__(
        self,
        context: str | None,
        index: Callable[[str], IndexTexts],
        flat: Sequence[Chunk],
        retrievers: Sequence[Retriever],
    ) -> None:
        self.context = context
        self.judges = []
        if context is not None:
            texts = index(context)
            self.judges = [corpus_index(r, flat, texts.texts, texts.tokens) for r in retrievers]
        self.ranks: list[list[int | None]] = [[] for _ in retrievers]

    def prepare(self, questions: list[str]) -> None:
        for judge in self.judges:
            judge.prepare(questions)

    def rank(self, question: str, doc: _Document, located: Sequence[_Located]) -> None:
        relevant = np.concatenate([loc.relevant for loc in located]) + doc.offset
        for judge, out in zip(self.judges, self.ranks, strict=False):
            best = judge.scores(question).best(relevant)
            out.append(best[1] if best else None)


def check_judged(
    documents: dict[str, str],
    pairs: Sequence[GoldQuestion],
    strategy: str,
    opts: ChunkOptions,
    *,
    retrievers: Sequence[Retriever],
    k: int = DEFAULT_K,
    chunked: dict[str, list[Chunk]] | None = None,
    track: Callable[[Iterable[GoldQuestion]], Iterable[GoldQuestion]] | None = None,
    context: str = DEFAULT_CONTEXT,
    budget: int | None = None,
    whole_first: bool = True,
    baseline: str | None = None,
) -> list[IntegrityReport]:
    """Chunk every document (or take ``chunked``, their chunks already made), index
    all chunks together once per retriever, and check every pair: one report per
    retriever, in the order given.

    Each document is laid out once and each pair located once, whoever judges;
    each index is built once (``lab.retrieval.corpus``), so the cost grows with
    the corpus plus the questions, not with their product.

    Args:
        documents: name -> text; a pair's ``doc`` names its document ("" or
            missing: the first).
        k: how many top chunks count as retrieved.
        chunked: each document's chunks, already made with ``strategy`` and ``opts``.
        track: wraps the questions, e.g. in a progress bar.
        context: what is indexed beside each chunk (lab.measure.context).
        budget: also measure each question at a context of this many units
            (lab.measure.budget).
        whole_first: refuse a budget that holds no question's first chunk whole
            (False: a comparison at another chunking's cost, which may cut every one).
        baseline: also rank every question over the chunks indexed under this context
            (the report's ``baseline_failure_at_20``).

    Raises:
        GoldLineError: an AnswerNotFound naming the line, when a gold answer or
            passage is not in its document (a bad gold set, not a chunking
            failure) or a pair names a document that is not given.
        ValueError: k below 1, or no retriever; BudgetTooSmall (a ValueError) for a
            budget that holds no question's first chunk whole.
    """
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    check_budget(budget, [], opts.unit_name)
    if not retrievers:
        raise ValueError("name at least one retriever")
    if chunked is None:
        chunked = {name: chunk_with(text, strategy, opts) for name, text in documents.items()}
    flat: list[Chunk] = []
    docs: dict[str, _Document] = {}
    for name, text in documents.items():
        docs[name] = _Document(text, chunked[name], len(flat), opts)
        flat.extend(chunked[name])
    in_order = list(docs.values())
    offsets = [d.offset for d in in_order]
    cache = TokenCache()  # a chunk's own text is tokenized once, whatever the context
    texts, named = context_texts(documents, chunked, context, cache)
    judges = [corpus_index(r, flat, texts.texts, texts.tokens) for r in retrievers]
    costs = _Costs(in_order, offsets)
    firsts: list[int] = []
    other = _Baseline(
        baseline,
        lambda c: context_texts(documents, chunked, c, cache)[0],
        flat,
        retrievers,
    )
    for judge in judges:
        judge.prepare([p.question for p in pairs])
    other.prepare([p.question for p in pairs])
    results: list[list[PairResult]] = [[] for _ in judges]
    notes: list[list[str]] = [[] for _ in judges]
    for n, pair in enumerate(track(pairs) if track else pairs, start=1):
        name = document_of(pair, documents)
        if name not in documents:
            raise GoldLineError(
                pair.line,
                f"{_where(pair, n)} names document {name!r}, which is not in the index",
            )
        doc = docs[name]
        if pair.answer or not pair.passages:
            located = [_locate_answer(doc, pair, n, pair.doc)]
        else:
            located = [_locate_passage(doc, p, pair, n, pair.doc) for p in pair.passages]
        other.rank(pair.question, doc, located)
        for judge, out, note in zip(judges, results, notes, strict=True):
            scores = judge.scores(pair.question)
            result = _result(pair, doc, located, scores, flat, k, in_order, offsets)
            out.append(_with_budget(result, doc, located, scores, costs, budget, firsts))
            note.append(judge.note(pair.question))
    check_budget(budget, firsts if whole_first else [], opts.unit_name)
    return [
        IntegrityReport(
            strategy,
            opts,
            k,
            len(flat),
            out,
            judge.label,
            next(filter(None, n_notes), ""),
            context,
            budget,
            named,
            baseline,
            tuple(other.ranks[n]) if baseline else (),
        )
        for n, (judge, out, n_notes) in enumerate(zip(judges, results, notes, strict=True))
    ]


def check_index(
    gold: GoldRun,
    strategy: str,
    opts: ChunkOptions,
    *,
    chunked: dict[str, list[Chunk]] | None = None,
    track: Callable[[Iterable[GoldQuestion]], Iterable[GoldQuestion]] | None = None,
) -> IntegrityReport:
    """``check_judged`` with the one retriever ``gold`` names."""
    judge = gold.retriever or Bm25Retriever()
    return check_judged(
        gold.documents,
        gold.pairs,
        strategy,
        opts,
        retrievers=[judge],
        k=gold.k,
        chunked=chunked,
        track=track,
        context=gold.context,
        budget=gold.budget,
    )[0]


def check_gold(
    text: str,
    pairs: Sequence[GoldQuestion],
    strategy: str,
    opts: ChunkOptions,
    *,
    k: int = DEFAULT_K,
    retriever: Retriever | None = None,
    budget: int | None = None,
    context: str = DEFAULT_CONTEXT,
    name: str = "",
) -> IntegrityReport:
    """check_index for one document (``retriever``, or BM25 at the default settings;
    ``name``: the document's, the title a file name gives when it has none)."""
    one = [replace(p, doc=name) for p in pairs]
    gold = GoldRun({name: text}, one, k, retriever, budget, context)
    return check_index(gold, strategy, opts)
