"""Cached calls for the lessons (small to big, boilerplate, drift, the budget, context),
keyed on the document text and the settings, as ui.cached does for the other labs."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from chunkers import ChunkOptions
from lab.inputs.documents import read_document
from lab.inputs.gold import GoldQuestion, load_gold
from lab.inputs.samples import list_samples
from lab.measure import budget_sweep, context, drift, integrity
from lab.measure.diff import parse_config
from lab.measure.integrity import GoldRun
from lab.measure.small_to_big import (
    Resolution,
    SmallToBig,
    SmallToBigReport,
    evaluate,
    parse_tiers,
)
from lab.measure.strip_effect import StripEffect, strip_effect
from ui import cached
from ui.present import sweeps


def tiers_spec(child: int, parent: int, unit: str) -> str:
    """The two structural tiers in ``unit`` (a unit's name), as lab diff writes them."""
    tier = sweeps.config_string
    return f"{tier('structural', unit, child, 0)}/{tier('structural', unit, parent, 0)}"


# -- a judge is named by three strings, (retriever, BM25 variant, embedder), so the
# -- caches key on what the page shows; ui.cached.judge_of builds it (raises
# -- EmbedderError, one line, when the embedder cannot be loaded)
Judge = tuple[str, str, str]


@st.cache_resource(max_entries=16, show_spinner=False)
def _small_to_big(text: str, spec: str, plain: str, judge: Judge) -> SmallToBig:
    """Both tiers and the plain chunks of one document, indexed once (read-only after)."""
    return SmallToBig(
        {"": text}, parse_tiers(spec), parse_config(plain), retriever=cached.judge_of(*judge)
    )


@st.cache_data(max_entries=64, show_spinner=False)
def resolution(text: str, spec: str, plain: str, question: str, k: int, judge: Judge) -> Resolution:
    """The top-k children of one question and what each way of delivering sends
    (raises ConfigError for tiers that make no small-to-big)."""
    return _small_to_big(text, spec, plain, judge).resolve(question, k)


@st.cache_data(max_entries=32, show_spinner=False)
def small_to_big_report(
    text: str, spec: str, plain: str, questions: tuple[GoldQuestion, ...], k: int, judge: Judge
) -> SmallToBigReport:
    tiers, config = parse_tiers(spec), parse_config(plain)
    return evaluate(GoldRun({"": text}, list(questions), k, cached.judge_of(*judge)), tiers, config)


@st.cache_data(max_entries=8, show_spinner=False)
def samples_report(spec: str, plain: str, k: int, judge: Judge) -> SmallToBigReport:
    """Every sample document with its gold set, one index over all of them."""
    docs: dict[str, str] = {}
    questions: list[GoldQuestion] = []
    for s in list_samples():
        docs[s.name] = read_document(s.path).text
        if s.gold_path is not None:
            questions += [
                GoldQuestion(g.question, g.answer, s.name, g.passages)
                for g in load_gold(s.gold_path).questions
            ]
    tiers, config = parse_tiers(spec), parse_config(plain)
    return evaluate(GoldRun(docs, questions, k, cached.judge_of(*judge)), tiers, config)


@st.cache_data(max_entries=32, show_spinner=False)
def boilerplate_effect(
    c: cached.Chunking, name: str, questions: tuple[GoldQuestion, ...], k: int, judge: Judge
) -> StripEffect:
    """Boilerplate across the document ``name``'s pages, and the gold set before and
    after stripping it (raises BoilerplateError for a document without pages)."""
    gold = GoldRun({name: c.text}, list(questions), k, cached.judge_of(*judge))
    return strip_effect(gold, c.strategy, c.opts)


@st.cache_data(max_entries=8, show_spinner=False)
def baseline(raw: bytes, name: str) -> drift.Snapshot:
    """An uploaded baseline (raises BaselineError, one line, for one this version cannot read)."""
    return drift.read_baseline(raw, name)


@st.cache_data(max_entries=1, show_spinner=False)
def two_column_reading() -> tuple[list, str, str]:
    """The two-column example page read in order: each version's sentences whole and
    headings kept, and the first lines of the converted markdown and of the plain text.
    Raises DocumentError (one line) when the PDF converters are not installed."""
    from lab.inputs.convert import ConversionError, pdf_plain_text
    from lab.inputs.documents import DocumentError
    from lab.inputs.samples import EXAMPLES_DIR
    from lab.measure.conversion import reading_order

    pdf = EXAMPLES_DIR / "two_columns.pdf"
    try:
        plain = pdf_plain_text(pdf.read_bytes(), pdf.name)
    except ConversionError as e:
        raise DocumentError(str(e)) from None
    converted = read_document(pdf).text
    source = (EXAMPLES_DIR / "two_columns.md").read_text(encoding="utf-8")
    rows = reading_order(source, {"PDF, converted": converted, "PDF, plain text": plain})
    return rows, converted, plain


CONVERSION_OPTIONS = (600, 0)  # structural, in characters: a section of the manual a chunk


@st.cache_data(max_entries=1, show_spinner=False)
def conversion_versions() -> list:
    """The warehouse manual as written, as its PDF converts, and as the PDF's plain text.
    Raises DocumentError (one line) when the PDF converters are not installed."""
    from chunkers import ChunkOptions
    from lab.inputs.convert import ConversionError, pdf_plain_text
    from lab.inputs.documents import DocumentError
    from lab.inputs.samples import EXAMPLES_DIR
    from lab.measure.conversion import compare_versions

    [sample] = [s for s in list_samples() if s.name == "warehouse_manual"]
    pdf = EXAMPLES_DIR / "warehouse_manual.pdf"
    try:
        plain = pdf_plain_text(pdf.read_bytes(), pdf.name)
    except ConversionError as e:
        raise DocumentError(str(e)) from None
    versions = {
        "markdown (the source)": read_document(sample.path).text,
        "PDF, converted": read_document(pdf).text,
        "PDF, plain text": plain,
    }
    size, overlap = CONVERSION_OPTIONS
    gold = load_gold(sample.gold_path).questions if sample.gold_path else []
    return compare_versions(versions, gold, ChunkOptions(size=size, overlap=overlap))


@st.cache_data(max_entries=8, show_spinner=False)
def sizes_at_budget(
    sizes: tuple[int, ...], unit: str, k: int, budget: int
) -> list[budget_sweep.SizeRow]:
    """Every sample document with its gold set, chunked at each size (structural, no
    overlap), at the top k and at the budget."""
    docs, pairs = _samples_with_gold()
    return budget_sweep.sizes_at_budget(
        docs, pairs, "structural", list(sizes), unit=unit, k=k, budget=budget
    )


def _samples_with_gold() -> tuple[dict[str, str], list[GoldQuestion]]:
    """Every sample document with a gold set, and its questions naming it."""
    docs: dict[str, str] = {}
    pairs: list[GoldQuestion] = []
    for s in list_samples():
        if s.gold_path is None:
            continue
        docs[s.path.name] = s.path.read_text(encoding="utf-8")
        pairs += [replace(q, doc=s.path.name) for q in load_gold(s.gold_path).questions]
    return docs, pairs


@st.cache_data(max_entries=16, show_spinner=False)
def context_failures(
    strategy: str, opts: ChunkOptions, judges: tuple[str, ...], variant: str, embedder_spec: str
) -> dict[str, dict[str, float]]:
    """Top-20 failures of the sample documents' gold sets, indexed together, under every
    context mode, by each judge named: mode -> judge -> failure share."""
    docs, pairs = _samples_with_gold()
    retrievers = [cached.judge_of(j, variant, embedder_spec) for j in judges]
    return {
        mode: {
            r.retriever: r.failure_at_20
            for r in integrity.check_judged(
                docs, pairs, strategy, opts, retrievers=retrievers, context=mode
            )
        }
        for mode in context.CONTEXTS
    }
