"""Cached calls into chunkers/ and lab/, keyed on the document text and the settings.

Arguments are plain values (strings, ints, tuples) so st.cache_data can hash
them; a 1 MB document hashes in a few milliseconds.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, ParamSpec, TypeVar

import streamlit as st

from chunkers import Chunk, ChunkOptions, ParsedDocument, chunk_parsed, chunk_with, parse
from chunkers.options import split_unit_name
from lab.inputs.gold import GoldQuestion, load_gold
from lab.inputs.placement import Placement, PlacementError, import_chunks
from lab.inputs.samples import get_sample
from lab.measure import atomic, diff, integrity
from lab.measure import judges as judging
from lab.measure.costs import tokens_per_word
from lab.measure.score_scale import TopScore, top_scores
from lab.measure.stats import LengthStats, length_stats
from lab.measure.survival import (
    ChunkTexts,
    Survival,
    SurvivalCurve,
    answer_problem,
    check_survival,
    gold_survival_rates,
    survival_curve,
)
from lab.retrieval.bm25 import DEFAULT_B, DEFAULT_K1, DEFAULT_VARIANT, ChunkScore
from lab.retrieval.bm25_variants import Bm25Retriever, chunk_scores
from lab.retrieval.dense import DenseRetriever
from lab.retrieval.embedders import DEFAULT_EMBEDDER, Embedder, load_embedder
from lab.retrieval.fusion import HybridRetriever
from lab.retrieval.interface import Retriever
from lab.retrieval.retrievers import BM25, get_retriever
from ui.views import ranking, structure, sweeps
from ui.views.questions import answer_sentences

# Beyond this many characters a sweep over a chunking strategy runs one size at
# a time behind a progress bar (fixed-size sweeps are arithmetic and always
# instant). Each step ends in a Streamlit call, where a rerun (the user moved a
# widget: runner.fastReruns) stops the sweep; finished sizes stay cached, so
# coming back, or moving the size slider, only computes the sizes not yet seen.
PROGRESS_CHARS = 150_000
# A long document (PROGRESS_CHARS or more) keeps fewer chunkings and score lists,
# and keeps them as shared objects (st.cache_resource), not as copies. -- why --
# st.cache_data pickles what it keeps and unpickles it at every use: a 3 MB upload's
# 19,000 chunks took 0.7 s to keep and 0.4 s at each of a page's several uses. What
# is kept is read-only: chunks are frozen, and no caller changes the lists.
LONG_ENTRIES = 16

P = ParamSpec("P")
R = TypeVar("R")


def _cached_by_size(
    max_entries: int, doing: Callable[[dict[str, Any]], str] | None = None
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Cache a function of a document (its first argument, the text) twice: in
    st.cache_data, ``max_entries`` results for an ordinary document, and in
    st.cache_resource, LONG_ENTRIES shared results for one of PROGRESS_CHARS or more.
    Each call is keyed on every argument, defaults filled in, so spelling a default
    out hits the same entry.
    On a document of PROGRESS_CHARS or more, work that takes longer than half a
    second says what it is doing: ``doing(arguments)``, in a spinner."""

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(fn)

        def cache(suffix: str, keep: Callable[..., Any]) -> Callable[..., R]:
            def call(*args: Any) -> R:
                return fn(*args)

            # -- Streamlit keys a cache on the function's module, name and source; every
            # -- `call` has the same source, so its name is what keeps the caches apart
            call.__name__ = call.__qualname__ = fn.__name__ + suffix
            return keep(call)

        small = cache("", st.cache_data(max_entries=max_entries, show_spinner=False))
        long = cache("_long", st.cache_resource(max_entries=LONG_ENTRIES, show_spinner=False))

        @functools.wraps(fn)
        def cached(*args: P.args, **kwargs: P.kwargs) -> R:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            text = bound.args[0]
            if len(text) < PROGRESS_CHARS:
                return small(*bound.args)
            if doing is None:
                return long(*bound.args)
            with st.spinner(doing(bound.arguments)):
                return long(*bound.args)

        return cached

    return decorate


# A long document's survival curve over a chunking strategy (not fixed-size windows,
# which are arithmetic) is swept at fewer sizes: as many as chunk SWEEP_CHARS
# characters in all, from MIN_SWEEP_POINTS to LONG_SWEEP_POINTS. -- why a budget --
# chunking is linear in the document: forty sizes of a 700 KB upload were forty
# seconds of structural, sentence and recursive chunking on a small machine, and the
# work of one student's sweep is taken from every other student's steps.
LONG_SWEEP_POINTS = 40
MIN_SWEEP_POINTS = 5
SWEEP_CHARS = 6_000_000


def sweep_sizes(text: str, unit: str, size: int, overlap: int = 0) -> list[int]:
    """The sizes a curve sweeps: every size of the unit's span (a long document's
    curve over a chunking strategy thins them, see ``curve``)."""
    return sweeps.sweep_sizes(unit, size, overlap)


def sweep_points(text: str) -> int:
    """How many sizes a long document's curve over a chunking strategy sweeps."""
    return max(MIN_SWEEP_POINTS, min(LONG_SWEEP_POINTS, SWEEP_CHARS // max(1, len(text))))


def options(
    size: int, overlap: int, unit: str, runt_merge: str = "backward", heading_paths: bool = True
) -> ChunkOptions:
    """The options for the app's settings; ``unit`` is a unit's name ("cl100k_base
    tokens", see ui.views.sweeps)."""
    base, tokenizer = split_unit_name(unit)
    return ChunkOptions(
        size=size,
        overlap=overlap,
        unit=base,
        runt_merge=runt_merge,
        heading_paths=heading_paths,
        tokenizer=tokenizer,
    )


# --------------------------------------------------------------------------- your chunks

# -- A chunk file uploaded in the sidebar is the strategy "chunks:<digest>": its bytes
# -- are kept here by digest (content-addressed, so every cached call keyed on the
# -- strategy name gets the same chunks), the last few files only.
_CHUNK_FILES: dict[str, tuple[str, bytes]] = {}
_KEPT_FILES = 8


def register_chunk_file(name: str, content: bytes) -> str:
    """Keep an uploaded chunk file; returns the strategy name that stands for it."""
    digest = hashlib.blake2b(content, digest_size=8).hexdigest()
    _CHUNK_FILES.pop(digest, None)
    _CHUNK_FILES[digest] = (name, content)
    while len(_CHUNK_FILES) > _KEPT_FILES:
        _CHUNK_FILES.pop(next(iter(_CHUNK_FILES)))
    return f"{sweeps.IMPORTED}:{digest}"


def _chunk_file(strategy: str) -> tuple[str, bytes]:
    """(file name, content) of the uploaded chunk file ``strategy`` names."""
    found = _CHUNK_FILES.get(strategy.split(":", 1)[1])
    if found is None:
        raise PlacementError("the chunk file is no longer loaded; upload it again")
    return found


@st.cache_data(max_entries=32, show_spinner=False)
def placement(text: str, strategy: str, unit: str) -> Placement:
    """The uploaded chunk file ``strategy`` names, placed in ``text`` (lengths in
    ``unit``); PlacementError, one line, when it cannot be."""
    name, content = _chunk_file(strategy)
    base, tokenizer = split_unit_name(unit)
    placed = import_chunks(content, text, name, base, tokenizer)
    if not placed.chunks:
        first = placed.unplaced[0] if placed.unplaced else None
        why = f" ({first.where}: {first.reason})" if first else ""
        raise PlacementError(
            f"{name}: none of its chunks is in this document{why}; pick the document "
            "the chunks were made from"
        )
    return placed


@st.cache_data(max_entries=64, show_spinner=False)
def token_lesson(text: str, answer: str, tokenizer: str) -> sweeps.TokenLesson:
    return sweeps.token_lesson(text, answer, tokenizer)


@st.cache_data(max_entries=32, show_spinner=False)
def words_to_tokens(text: str, tokenizer: str) -> float:
    """The document's tokens per word by ``tokenizer`` (lab.measure.costs)."""
    return tokens_per_word(text, tokenizer)


@st.cache_data(max_entries=32, show_spinner=False)
def sample_text(name: str) -> str:
    from lab.inputs.documents import read_document

    return read_document(get_sample(name).path).text


@st.cache_data(max_entries=32, show_spinner=False)
def gold_set(name: str):
    sample = get_sample(name)
    if sample.gold_path is None:
        return None
    return load_gold(sample.gold_path)


def gold_questions(name: str) -> list[GoldQuestion]:
    gs = gold_set(name)
    return list(gs.questions) if gs else []


@st.cache_data(max_entries=64, show_spinner=False)
def missing_answer(text: str, answer: str) -> str | None:
    """Why the answer is not in the text (one line), or None when it is."""
    return answer_problem(text, answer)


@st.cache_data(max_entries=16, show_spinner=False)
def sentences(text: str) -> list[str]:
    return answer_sentences(text)


def _chunking(a: dict[str, Any]) -> str:
    return f"Chunking the document: {a['strategy']}, {a['size']:,} {a['unit']}…"


@_cached_by_size(max_entries=256, doing=_chunking)
def chunks(
    text: str,
    strategy: str,
    size: int,
    overlap: int,
    unit: str,
    runt_merge: str = "backward",
    heading_paths: bool = True,
) -> list[Chunk]:
    if sweeps.is_imported(strategy):  # made elsewhere: no size or overlap of ours
        return placement(text, strategy, unit).chunks
    opts = options(size, overlap, unit, runt_merge, heading_paths)
    if strategy == "structural":  # -- the document's one parse, shared with its curves --
        return chunk_parsed(_parsed(text), opts)
    return chunk_with(text, strategy, opts)


@_cached_by_size(max_entries=256, doing=lambda a: "Ranking every chunk with BM25…")
def scores(
    text: str,
    strategy: str,
    size: int,
    overlap: int,
    unit: str,
    question: str,
    k1: float = DEFAULT_K1,
    b: float = DEFAULT_B,
    heading_path: bool = True,
    runt_merge: str = "backward",
    variant: str = DEFAULT_VARIANT,
) -> list[ChunkScore]:
    cs = chunks(text, strategy, size, overlap, unit, runt_merge)
    return chunk_scores(cs, question, variant=variant, k1=k1, b=b, heading_path=heading_path)


@st.cache_data(max_entries=256, show_spinner=False)
def survival(
    text: str,
    strategy: str,
    size: int,
    overlap: int,
    unit: str,
    answer: str,
    runt_merge: str = "backward",
) -> Survival:
    return check_survival(chunks(text, strategy, size, overlap, unit, runt_merge), text, answer)


@st.cache_resource(max_entries=8, show_spinner=False)
def _parsed(text: str) -> ParsedDocument:
    """One parse per document, shared by its structural chunkings at every size and
    every step of a sweep (not copied: the parse is read-only apart from its own
    sentence cache). On a 4 MB upload a parse is about half of a chunking's time."""
    return parse(text)


# -- why sizes go in as a string -- Streamlit hashes a cached call's arguments value
# by value in Python: a sweep's hundred sizes as a tuple cost more to key than one
# string of them, and a step keys four curves
def _sizes_key(sizes: Sequence[int]) -> str:
    return ",".join(map(str, sizes))


def _sizes(key: str) -> list[int]:
    return [int(s) for s in key.split(",")]


@st.cache_data(max_entries=1024, show_spinner=False)
def _curve(
    text: str, answer: str, strategy: str, sizes: str, unit: str, overlap: int
) -> SurvivalCurve:
    parsed = _parsed(text) if strategy == "structural" else None
    base, tokenizer = split_unit_name(unit)
    return survival_curve(
        text,
        answer,
        strategy,
        _sizes(sizes),
        unit=base,
        overlap=overlap,
        parsed=parsed,
        tokenizer=tokenizer,
    )


def curve(
    text: str,
    answer: str,
    strategy: str,
    sizes: Sequence[int],
    unit: str,
    overlap: int,
    label: str = "",
    current: int | None = None,
) -> SurvivalCurve:
    """A survival curve. A long document's curve over a chunking strategy sweeps
    ``sweep_points`` of the sizes (and ``current``, the page's size), one size a step
    behind a progress bar; the current size's verdict comes from the page's own
    chunking at that size (``survival``), so a slider step chunks nothing twice."""
    if strategy == "fixed" or len(text) < PROGRESS_CHARS:
        return _curve(text, answer, strategy, _sizes_key(sizes), unit, overlap)
    sizes = sweeps.thin(list(sizes), sweep_points(text), keep=current)
    name = label or strategy
    bar = st.progress(0.0, text=f"Sweeping {name} over {len(sizes)} sizes…")
    done = []
    for i, size in enumerate(sizes, start=1):
        if size == current:
            ok = survival(text, strategy, size, overlap, unit, answer).intact
            done.append(SurvivalCurve([size], [ok], [overlap]))
        else:
            done.append(_curve(text, answer, strategy, str(size), unit, overlap))
        bar.progress(i / len(sizes), text=f"Sweeping {name}: {i}/{len(sizes)} sizes")
    bar.empty()
    return sweeps.join_curves(done)


@st.cache_data(max_entries=64, show_spinner=False)
def lottery(text: str, answer: str, unit: str, sizes: tuple[int, ...]) -> sweeps.LotteryGrid:
    return sweeps.lottery_grid(text, answer, unit, list(sizes))


@st.cache_data(max_entries=64, show_spinner=False)
def gold_rate(
    text: str, answers: tuple[str, ...], strategy: str, size: int, overlap: int, unit: str
) -> float:
    if sweeps.is_imported(strategy):  # one chunking: the file's
        texts = ChunkTexts(chunks(text, strategy, size, overlap, unit))
        return sum(texts.holds(a) for a in answers) / len(answers)
    base, tokenizer = split_unit_name(unit)
    return gold_survival_rates(
        text, list(answers), strategy, [size], unit=base, overlap=overlap, tokenizer=tokenizer
    )[0]


@st.cache_data(max_entries=64, show_spinner=False)
def integrity_report(
    text: str,
    questions: tuple[GoldQuestion, ...],
    strategy: str,
    size: int,
    overlap: int,
    unit: str,
    k: int,
    retriever: str = BM25,
    variant: str = DEFAULT_VARIANT,
    embedder_spec: str = DEFAULT_EMBEDDER,
) -> integrity.IntegrityReport:
    opts = options(size, overlap, unit)
    judge = judge_of(retriever, variant, embedder_spec)
    if sweeps.is_imported(strategy):  # the file's chunks, not a chunking of ours
        one = [replace(q, doc="") for q in questions]
        cs = {"": chunks(text, strategy, size, overlap, unit)}
        return integrity.check_index(
            {"": text}, one, strategy, opts, k=k, retriever=judge, chunked=cs
        )
    return integrity.check_gold(text, questions, strategy, opts, k=k, retriever=judge)


@st.cache_data(max_entries=32, show_spinner=False)
def diff_report(
    text: str,
    label: str,
    a: str,
    b: str,
    questions: tuple[GoldQuestion, ...],
    limit: int,
) -> diff.DiffReport:
    """The chunk-population diff of one document under configs ``a`` and ``b``
    (``strategy:unit:size:overlap``, or for ``a`` the uploaded chunks' strategy;
    raises diff.ConfigError for a bad one, PlacementError for chunks it cannot place)."""
    gold = [replace(q, doc=label) for q in questions]
    config_a, config_b, placed = _configs(text, a, b)
    return diff.build_diff(
        {label: text},
        config_a,
        config_b,
        gold=gold,
        limit=limit,
        placed=None if placed is None else {label: placed},
    )


def _configs(
    text: str, a: str, b: str
) -> tuple[diff.ChunkConfig, diff.ChunkConfig, list[Chunk] | None]:
    """A and B as configurations, and A's chunks when A is the uploaded chunk file
    (named by its file, placed in ``text`` and measured in B's unit, as lab diff
    measures chunks:FILE)."""
    config_b = diff.parse_config(b)
    if not sweeps.is_imported(a):
        return diff.parse_config(a), config_b, None
    placed = placement(text, a, config_b.options.unit_name).chunks
    return diff.parse_config(f"{sweeps.IMPORTED}:{_chunk_file(a)[0]}"), config_b, placed


def stats(text: str, strategy: str, size: int, overlap: int, unit: str) -> LengthStats:
    return length_stats(chunks(text, strategy, size, overlap, unit), options(size, overlap, unit))


@st.cache_data(max_entries=32, show_spinner=False)
def revenue(
    text: str, runt_merge: str, k1: float, b: float, variant: str = DEFAULT_VARIANT
) -> ranking.RevenueCase:
    return ranking.revenue_case(text, runt_merge, k1=k1, b=b, variant=variant)


@st.cache_data(max_entries=32, show_spinner=False)
def revenue_orphan(
    text: str, k1: float, b: float, variant: str = DEFAULT_VARIANT
) -> ranking.RevenueCase:
    return ranking.orphan_case(text, k1=k1, b=b, variant=variant)


@st.cache_data(max_entries=4, show_spinner=False)
def runt_merge_example() -> ranking.RuntMergeExample:
    from lab.inputs.documents import read_document
    from lab.inputs.samples import EXAMPLES_DIR

    path = EXAMPLES_DIR / ranking.RUNT_MERGE_EXAMPLE
    return ranking.runt_merge_example(read_document(path).text, path.name)


@_cached_by_size(max_entries=64)
def rank_moves(
    text: str,
    strategy: str,
    size: int,
    overlap: int,
    unit: str,
    question: str,
    answer: str | None,
    variant: str = DEFAULT_VARIANT,
) -> list[ranking.RankMove]:
    cs = chunks(text, strategy, size, overlap, unit)
    return ranking.heading_rank_moves(cs, question, answer, variant=variant)


def boundaries(
    text: str, strategy: str, size: int, overlap: int, unit: str
) -> list[structure.Boundary]:
    return structure.boundaries(
        chunks(text, strategy, size, overlap, unit), options(size, overlap, unit)
    )


# --------------------------------------------------------------------------- the judges


# -- why a resource -- the model loads once per process and every session shares it
# -- (read-only); its vectors are cached by text inside lab.retrieval.embedders, so a
# -- slider step embeds only the chunks whose text changed
@st.cache_resource(max_entries=8, show_spinner="Loading the embedding model…")
def embedder(spec: str) -> Embedder:
    """The dense judge's model ``spec`` names, loaded now (a user's function is also
    checked to return vectors); EmbedderError, one line, when it cannot be."""
    loaded = load_embedder(spec)
    loaded.dimension()
    return loaded


def judge_of(name: str, variant: str, embedder_spec: str) -> Retriever:
    """The retriever ``name`` with the BM25 variant and the process's embedder."""
    if name == BM25:  # no model needed
        return get_retriever(BM25, variant=variant)
    return get_retriever(name, variant=variant, embedder=embedder(embedder_spec))


@_cached_by_size(max_entries=64)
def side_by_side(
    text: str,
    strategy: str,
    size: int,
    overlap: int,
    unit: str,
    question: str,
    answer: str | None,
    variant: str,
    embedder_spec: str,
) -> list[judging.JudgeRow]:
    hybrid = HybridRetriever(Bm25Retriever(variant), DenseRetriever(embedder(embedder_spec)))
    cs = chunks(text, strategy, size, overlap, unit)
    return judging.side_by_side(cs, question, answer, hybrid=hybrid)


@st.cache_data(max_entries=64, show_spinner=False)
def muddy_vector(
    text: str,
    question: str,
    answer: str,
    unit: str,
    sizes: tuple[int, ...],
    variant: str,
    embedder_spec: str,
) -> judging.MuddyVector:
    base, tokenizer = split_unit_name(unit)
    return judging.muddy_vector(
        text,
        question,
        answer,
        sizes,
        unit=base,
        tokenizer=tokenizer,
        bm25=Bm25Retriever(variant),
        embedder=embedder(embedder_spec),
    )


@st.cache_data(max_entries=64, show_spinner=False)
def topic_pair(
    text: str, answers: tuple[str, ...], index: int, other: int | None
) -> judging.TopicPair:
    return judging.topic_pair(text, answers, index, other)


@st.cache_data(max_entries=64, show_spinner=False)
def two_topics(
    passage_a: str,
    question_a: str,
    passage_b: str,
    question_b: str,
    filler: str,
    embedder_spec: str,
) -> judging.TwoTopics:
    return judging.two_topics(
        passage_a,
        question_a,
        passage_b,
        question_b,
        filler=filler,
        embedder=embedder(embedder_spec),
    )


@st.cache_data(max_entries=32, show_spinner=False)
def top_score_pair(
    text: str, a: str, b: str, question: str, answer: str | None, variant: str
) -> list[TopScore]:
    """The question's top score under configs ``a`` and ``b`` (``a`` may be the uploaded
    chunk file; raises diff.ConfigError)."""
    config_a, config_b, placed = _configs(text, a, b)
    return top_scores(text, [config_a, config_b], question, answer, variant=variant, placed=placed)


@st.cache_data(max_entries=8, show_spinner=False)
def atomic_elements(text: str) -> atomic.Elements:
    """The document's tables, code blocks, headings and sentences (one parse per text)."""
    return atomic.elements(text)


def quality(text: str, strategy: str, size: int, overlap: int, unit: str) -> list[atomic.Finding]:
    """The chunks the quality checks flag (they pass the size, end with a heading or
    a lead-in, are only markup or cut a sentence), in order."""
    cs = chunks(text, strategy, size, overlap, unit)
    limit = options(size, overlap, unit).effective_max
    return atomic.findings("", cs, atomic.violations("", cs, atomic_elements(text), limit))


def headerless_chunks(
    text: str, strategy: str, size: int, overlap: int, unit: str
) -> frozenset[int]:
    """Indexes of the chunks that hold a table's data rows without its header."""
    cs = chunks(text, strategy, size, overlap, unit)
    found = atomic.violations("", cs, atomic_elements(text))
    return frozenset(i for (_, i), kinds in found.by_chunk.items() if atomic.TABLE in kinds)
