"""Cached calls into chunkers/ and lab/, keyed on the document text and the settings.

Arguments are plain values (strings, ints, tuples) so st.cache_data can hash
them; a 1 MB document hashes in a few milliseconds.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, ParamSpec, TypeVar

import streamlit as st

from chunkers import Chunk, ChunkOptions, ParsedDocument, chunk_with, parse
from lab.inputs.gold import GoldQuestion, load_gold
from lab.inputs.samples import get_sample
from lab.measure import atomic, diff, integrity
from lab.measure.stats import LengthStats, length_stats
from lab.measure.survival import (
    Survival,
    SurvivalCurve,
    answer_problem,
    check_survival,
    gold_survival_rates,
    survival_curve,
)
from lab.retrieval.bm25 import DEFAULT_B, DEFAULT_K1, ChunkScore, score_chunks
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
    return ChunkOptions(
        size=size, overlap=overlap, unit=unit, runt_merge=runt_merge, heading_paths=heading_paths
    )


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
    return chunk_with(text, strategy, options(size, overlap, unit, runt_merge, heading_paths))


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
) -> list[ChunkScore]:
    cs = chunks(text, strategy, size, overlap, unit, runt_merge)
    return score_chunks(cs, question, k1=k1, b=b, heading_path=heading_path)


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
    return survival_curve(
        text, answer, strategy, _sizes(sizes), unit=unit, overlap=overlap, parsed=parsed
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
    bar = st.progress(0.0, text=f"Sweeping {name} over {len(sizes)} sizes of a long document…")
    done = []
    for i, size in enumerate(sizes, start=1):
        if size == current:
            ok = survival(text, strategy, size, overlap, unit, answer).intact
            done.append(SurvivalCurve([size], [ok], [overlap]))
        else:
            done.append(_curve(text, answer, strategy, str(size), unit, overlap))
        bar.progress(i / len(sizes), text=f"Sweeping {name}: {i} of {len(sizes)} sizes")
    bar.empty()
    return sweeps.join_curves(done)


@st.cache_data(max_entries=64, show_spinner=False)
def lottery(text: str, answer: str, unit: str, sizes: tuple[int, ...]) -> sweeps.LotteryGrid:
    return sweeps.lottery_grid(text, answer, unit, list(sizes))


@st.cache_data(max_entries=64, show_spinner=False)
def gold_rate(
    text: str, answers: tuple[str, ...], strategy: str, size: int, overlap: int, unit: str
) -> float:
    return gold_survival_rates(text, list(answers), strategy, [size], unit=unit, overlap=overlap)[0]


@st.cache_data(max_entries=64, show_spinner=False)
def integrity_report(
    text: str,
    questions: tuple[GoldQuestion, ...],
    strategy: str,
    size: int,
    overlap: int,
    unit: str,
    k: int,
) -> integrity.IntegrityReport:
    return integrity.check_gold(text, questions, strategy, options(size, overlap, unit), k=k)


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
def revenue(text: str, runt_merge: str, k1: float, b: float) -> ranking.RevenueCase:
    return ranking.revenue_case(text, runt_merge, k1=k1, b=b)


@st.cache_data(max_entries=32, show_spinner=False)
def revenue_orphan(text: str, k1: float, b: float) -> ranking.RevenueCase:
    return ranking.orphan_case(text, k1=k1, b=b)


@st.cache_data(max_entries=4, show_spinner=False)
def runt_merge_example() -> ranking.RuntMergeExample:
    from lab.inputs.documents import read_document
    from lab.inputs.samples import EXAMPLES_DIR

    path = EXAMPLES_DIR / ranking.RUNT_MERGE_EXAMPLE
    return ranking.runt_merge_example(read_document(path).text, path.name)


@_cached_by_size(max_entries=64)
def rank_moves(
    text: str, strategy: str, size: int, overlap: int, unit: str, question: str, answer: str | None
) -> list[ranking.RankMove]:
    return ranking.heading_rank_moves(chunks(text, strategy, size, overlap, unit), question, answer)


def boundaries(
    text: str, strategy: str, size: int, overlap: int, unit: str
) -> list[structure.Boundary]:
    return structure.boundaries(
        chunks(text, strategy, size, overlap, unit), options(size, overlap, unit)
    )


@st.cache_data(max_entries=8, show_spinner=False)
def atomic_elements(text: str) -> atomic.Elements:
    """The document's tables, code blocks, headings and sentences (one parse per text)."""
    return atomic.elements(text)


def headerless_chunks(
    text: str, strategy: str, size: int, overlap: int, unit: str
) -> frozenset[int]:
    """Indexes of the chunks that hold a table's data rows without its header."""
    cs = chunks(text, strategy, size, overlap, unit)
    found = atomic.violations("", cs, atomic_elements(text))
    return frozenset(i for (_, i), kinds in found.by_chunk.items() if atomic.TABLE in kinds)
