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

from chunkers import Chunk, ChunkOptions, ParsedDocument, chunk_with, parse
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
# A document this long keeps fewer chunkings and score lists in the cache: one
# chunking of a 5 MB upload at 24 words is about 40,000 chunks, 10 MB pickled.
BIG_CHARS = 1_000_000
BIG_ENTRIES = 12

P = ParamSpec("P")
R = TypeVar("R")


def _cached_by_size(max_entries: int) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Cache a function of a document (its first argument, the text) in two
    st.cache_data caches: ``max_entries`` results for an ordinary document,
    BIG_ENTRIES for one of BIG_CHARS or more. Each call is keyed on every
    argument, defaults filled in, so spelling a default out hits the same entry."""

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(fn)

        def cache(suffix: str, entries: int) -> Callable[..., R]:
            def call(*args: Any) -> R:
                return fn(*args)

            # -- Streamlit keys a cache on the function's module, name and source; every
            # -- `call` has the same source, so its name is what keeps the caches apart
            call.__name__ = call.__qualname__ = fn.__name__ + suffix
            return st.cache_data(max_entries=entries, show_spinner=False)(call)

        small, big = cache("", max_entries), cache("_big", BIG_ENTRIES)

        @functools.wraps(fn)
        def cached(*args: P.args, **kwargs: P.kwargs) -> R:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            text = bound.args[0]
            return (big if len(text) >= BIG_CHARS else small)(*bound.args)

        return cached

    return decorate


LONG_SWEEP_POINTS = 40  # a long document's survival curves use this many sizes


def sweep_sizes(text: str, unit: str, size: int, overlap: int = 0) -> list[int]:
    """The sizes a curve sweeps: every size for a short document, fewer for a long one."""
    return sweeps.sweep_sizes(
        unit, size, overlap, max_points=LONG_SWEEP_POINTS if len(text) >= PROGRESS_CHARS else None
    )


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


@st.cache_data(max_entries=32, show_spinner=False)
def placement(text: str, strategy: str, unit: str) -> Placement:
    """The uploaded chunk file ``strategy`` names, placed in ``text`` (lengths in
    ``unit``); PlacementError, one line, when it cannot be."""
    found = _CHUNK_FILES.get(strategy.split(":", 1)[1])
    if found is None:
        raise PlacementError("the chunk file is no longer loaded; upload it again")
    name, content = found
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


@_cached_by_size(max_entries=256)
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
    return chunk_with(text, strategy, options(size, overlap, unit, runt_merge, heading_paths))


@_cached_by_size(max_entries=256)
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
    """One parse per document, shared by every step of a stepped sweep (not copied:
    the parse is read-only apart from its own sentence cache)."""
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


# -- why blocks -- a curve's sizes reach up to twice the chosen size, so past the
# span's middle every step asks for a new list of sizes. Keyed as one list, each such
# step chunked the document at every size again (Lab 3: four curves, about a hundred
# chunkings a step). Keyed by blocks of CURVE_BLOCK sizes on the slider's grid, a step
# chunks at most the block it enters; the verdict at each size is the same either way.
CURVE_BLOCK = 32


def _blocked_curve(
    text: str, answer: str, strategy: str, sizes: Sequence[int], unit: str, overlap: int
) -> SurvivalCurve:
    base = sweeps.base_unit(unit)
    step, top = sweeps.SIZE_STEP[base], sweeps.SIZE_LIMITS[base][1]
    width, lo = CURVE_BLOCK * step, min(sizes)
    grid = lo % step  # the blocks hold the sizes of the sweep's own grid
    verdicts: dict[int, tuple[bool, int]] = {}
    for b in sorted({s // width for s in sizes}):
        first = max(b * width, lo)
        first += (grid - first) % step
        block = [s for s in range(first, min((b + 1) * width, top + 1), step) if s > overlap]
        if block:
            got = _curve(text, answer, strategy, _sizes_key(block), unit, overlap)
            verdicts.update(zip(got.sizes, zip(got.intact, got.overlaps, strict=True), strict=True))
    rest = [s for s in sizes if s not in verdicts]  # off the grid: the chosen size, say
    if rest:
        got = _curve(text, answer, strategy, _sizes_key(rest), unit, overlap)
        verdicts.update(zip(got.sizes, zip(got.intact, got.overlaps, strict=True), strict=True))
    return SurvivalCurve(
        list(sizes), [verdicts[s][0] for s in sizes], [verdicts[s][1] for s in sizes]
    )


def curve(
    text: str,
    answer: str,
    strategy: str,
    sizes: Sequence[int],
    unit: str,
    overlap: int,
    label: str = "",
) -> SurvivalCurve:
    """A survival curve; a long document's sweep goes one size a step behind a progress bar."""
    if strategy == "fixed":  # arithmetic over word offsets: one call, whatever the sizes
        return _curve(text, answer, strategy, _sizes_key(sizes), unit, overlap)
    if len(text) < PROGRESS_CHARS:
        return _blocked_curve(text, answer, strategy, sizes, unit, overlap)
    sizes = list(sizes)
    name = label or strategy
    bar = st.progress(0.0, text=f"Sweeping {name} over {len(sizes)} sizes…")
    done = []
    for i, size in enumerate(sizes, start=1):
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
    (``strategy:unit:size:overlap``; raises diff.ConfigError for a bad one)."""
    gold = [replace(q, doc=label) for q in questions]
    return diff.build_diff(
        {label: text}, diff.parse_config(a), diff.parse_config(b), gold=gold, limit=limit
    )


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
    """The question's top score under configs ``a`` and ``b`` (raises diff.ConfigError)."""
    configs = [diff.parse_config(a), diff.parse_config(b)]
    return top_scores(text, configs, question, answer, variant=variant)


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
