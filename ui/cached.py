"""Cached calls into chunkers/ and lab/, keyed on the document text and the settings.

Arguments are plain values (strings, ints, tuples: a Chunking is one) so
st.cache_data can hash them; a 1 MB document hashes in a few milliseconds.
A long document's chunkings and scores are kept as ui.caching says; survival curves
over sizes are in ui.survival_curves, an uploaded chunk file's chunks in ui.chunk_files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NamedTuple

import streamlit as st

from chunkers import Chunk, ChunkOptions, ParsedDocument, chunk_parsed, chunk_with, parse
from chunkers.options import Unit
from lab.inputs.gold import GoldQuestion, load_gold
from lab.inputs.placement import (
    ChunkOrigin,
)
from lab.inputs.samples import get_sample
from lab.measure import atomic, diff, efficiency_sweep, integrity, tokenizer_choice
from lab.measure import judges as judging
from lab.measure import questions as questions_made
from lab.measure.context import DEFAULT_CONTEXT
from lab.measure.costs import tokens_per_word
from lab.measure.drag import drag_frames, drag_window, window_around
from lab.measure.score_scale import TopScore, top_scores
from lab.measure.stats import LengthStats, length_stats
from lab.measure.survival import (
    ChunkTexts,
    Survival,
    answer_problem,
    check_survival,
    find_answer,
    gold_survival_rates,
)
from lab.measure.tokenizer_choice import TokenizerLesson
from lab.measure.truncation import truncation
from lab.retrieval.bm25 import DEFAULT_B, DEFAULT_K1, DEFAULT_VARIANT, Bm25Params, ChunkScore
from lab.retrieval.bm25_variants import Bm25Retriever, chunk_scores
from lab.retrieval.dense import DenseRetriever
from lab.retrieval.embedders import DEFAULT_EMBEDDER, Embedder, load_embedder
from lab.retrieval.fusion import HybridRetriever
from lab.retrieval.interface import Retriever
from lab.retrieval.retrievers import BM25, get_retriever
from lab.text import clip, collapse_whitespace
from ui import worker
from ui.caching import PROGRESS_CHARS, cached_by_size
from ui.chunk_files import chunk_file, placement
from ui.present import ranking, structure, sweeps, tokenizers
from ui.present.questions import answer_sentences


def options(
    size: int, overlap: int, unit: str, runt_merge: str = "backward", heading_paths: bool = True
) -> ChunkOptions:
    """The options for the app's settings; ``unit`` is a unit's name ("cl100k_base
    tokens", chunkers.options.Unit)."""
    u = Unit.named(unit)
    return ChunkOptions(
        size=size,
        overlap=overlap,
        unit=u.base,
        runt_merge=runt_merge,
        heading_paths=heading_paths,
        tokenizer=u.tokenizer,
    )


class Chunking(NamedTuple):
    """A document and how the sidebar chunks it: the first argument of the cached
    functions below (one value, named once; a tuple, which st.cache_data hashes)."""

    text: str
    strategy: str  # a strategy's name, or "chunks:<digest>" for an uploaded chunk file
    size: int
    overlap: int
    unit: str  # a unit's name: words, chars, or "cl100k_base tokens" (ui.present.sweeps)

    @property
    def opts(self) -> ChunkOptions:
        return options(self.size, self.overlap, self.unit)

    @property
    def origin(self) -> ChunkOrigin:
        return ChunkOrigin.named(self.strategy)


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
    if len(text) >= PROGRESS_CHARS:  # off this process's GIL (ui.worker says why)
        got = worker.sentences(text)
        if got is not None:
            return got
    return answer_sentences(text)


def _chunking(a: dict[str, Any]) -> str:
    c = a["c"]
    return f"Chunking the document: {c.strategy}, {c.size:,} {c.unit}…"


@cached_by_size(max_entries=256, doing=_chunking)
def chunks(c: Chunking, runt_merge: str = "backward", heading_paths: bool = True) -> list[Chunk]:
    if c.origin.imported:  # made elsewhere: no size or overlap of ours
        return placement(c.text, c.strategy, c.unit).chunks
    opts = options(c.size, c.overlap, c.unit, runt_merge, heading_paths)
    if len(c.text) >= PROGRESS_CHARS:  # off this process's GIL (ui.worker says why)
        got = worker.chunks(c.text, c.strategy, opts)
        if got is not None:
            return got
    if c.strategy == "structural":  # -- the document's one parse, shared with its curves --
        return chunk_parsed(parsed_document(c.text), opts)
    return chunk_with(c.text, c.strategy, opts)


@cached_by_size(max_entries=256, doing=lambda a: "Ranking every chunk with BM25…")
def scores(
    c: Chunking,
    question: str,
    k1: float = DEFAULT_K1,
    b: float = DEFAULT_B,
    heading_path: bool = True,
    runt_merge: str = "backward",
    variant: str = DEFAULT_VARIANT,
) -> list[ChunkScore]:
    cs = chunks(c, runt_merge)
    return chunk_scores(cs, question, Bm25Params(variant, k1, b), heading_path=heading_path)


@st.cache_data(max_entries=256, show_spinner=False)
def survival(c: Chunking, answer: str, runt_merge: str = "backward") -> Survival:
    return check_survival(chunks(c, runt_merge), c.text, answer)


@st.cache_resource(max_entries=8, show_spinner=False)
def parsed_document(text: str) -> ParsedDocument:
    """One parse per document, shared by its structural chunkings at every size and
    every step of a sweep (not copied: the parse is read-only apart from its own
    sentence cache). On a 4 MB upload a parse is about half of a chunking's time."""
    return parse(text)


@st.cache_data(max_entries=64, show_spinner=False)
def lottery(text: str, answer: str, unit: str, sizes: tuple[int, ...]) -> sweeps.LotteryGrid:
    return sweeps.lottery_grid(text, answer, unit, list(sizes))


@st.cache_data(max_entries=64, show_spinner=False)
def gold_rate(c: Chunking, answers: tuple[str, ...]) -> float:
    if c.origin.imported:  # one chunking: the file's
        texts = ChunkTexts(chunks(c))
        return sum(texts.holds(a) for a in answers) / len(answers)
    u = Unit.named(c.unit)
    return gold_survival_rates(
        c.text,
        list(answers),
        c.strategy,
        [c.size],
        unit=u.base,
        overlap=c.overlap,
        tokenizer=u.tokenizer,
    )[0]


@st.cache_data(max_entries=64, show_spinner=False)
def integrity_report(
    c: Chunking,
    questions: tuple[GoldQuestion, ...],
    k: int,
    retriever: str = BM25,
    variant: str = DEFAULT_VARIANT,
    embedder_spec: str = DEFAULT_EMBEDDER,
    budget: int | None = None,
    context: str = DEFAULT_CONTEXT,
    name: str = "",
) -> integrity.IntegrityReport:
    """The gold set checked (``budget``: also at a context of that many units; ``name``:
    the document's, for the title a file name stands in for)."""
    judge = judge_of(retriever, variant, embedder_spec)
    if c.origin.imported:  # the file's chunks, not a chunking of ours
        one = [replace(q, doc=name) for q in questions]
        cs = {name: chunks(c)}
        gold = integrity.GoldRun({name: c.text}, one, k, judge, budget, context)
        return integrity.check_index(gold, c.strategy, c.opts, chunked=cs)
    return integrity.check_gold(
        c.text,
        questions,
        c.strategy,
        c.opts,
        k=k,
        retriever=judge,
        budget=budget,
        context=context,
        name=name,
    )


@st.cache_data(max_entries=32, show_spinner=False)
def diff_report(
    text: str,
    label: str,
    a: str,
    b: str,
    questions: tuple[GoldQuestion, ...],
    limit: int,
    budget: int | None = None,
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
        budget=budget,
    )


def _configs(
    text: str, a: str, b: str
) -> tuple[diff.ChunkConfig, diff.ChunkConfig, list[Chunk] | None]:
    """A and B as configurations, and A's chunks when A is the uploaded chunk file
    (named by its file, placed in ``text`` and measured in B's unit, as lab diff
    measures chunks:FILE)."""
    config_b = diff.parse_config(b)
    if not ChunkOrigin.named(a).imported:
        return diff.parse_config(a), config_b, None
    placed = placement(text, a, config_b.options.unit_name).chunks
    named = ChunkOrigin(chunk_file(a)[0], imported=True)
    return diff.parse_config(str(named)), config_b, placed


def stats(c: Chunking) -> LengthStats:
    return length_stats(chunks(c), c.opts)


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


@cached_by_size(max_entries=64)
def rank_moves(
    c: Chunking, question: str, answer: str | None, variant: str = DEFAULT_VARIANT
) -> list[ranking.RankMove]:
    return ranking.heading_rank_moves(chunks(c), question, answer, variant=variant)


def boundaries(c: Chunking) -> list[structure.Boundary]:
    return structure.boundaries(chunks(c), c.opts)


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


@cached_by_size(max_entries=64)
def side_by_side(
    c: Chunking, question: str, answer: str | None, variant: str, embedder_spec: str
) -> list[judging.JudgeRow]:
    hybrid = HybridRetriever(Bm25Retriever(variant), DenseRetriever(embedder(embedder_spec)))
    return judging.side_by_side(chunks(c), question, answer, hybrid=hybrid)


@cached_by_size(max_entries=64)
def reading_line(c: Chunking, question: str, embedder_spec: str) -> str:
    """The line saying the dense judge cannot read these chunks or this question ("" if it can)."""
    return judging.reading_line(chunks(c), question, embedder(embedder_spec))


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
    u = Unit.named(unit)
    return judging.muddy_vector(
        text,
        question,
        answer,
        sizes,
        unit=u.base,
        tokenizer=u.tokenizer,
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


def quality(c: Chunking) -> list[atomic.Finding]:
    """The chunks the quality checks flag (they pass the size, end with a heading or
    a lead-in, are only markup or cut a sentence), in order."""
    cs = chunks(c)
    limit = c.opts.effective_max
    return atomic.findings("", cs, atomic.violations("", cs, atomic_elements(c.text), limit))


def headerless_chunks(c: Chunking) -> frozenset[int]:
    """Indexes of the chunks that hold a table's data rows without its header."""
    cs = chunks(c)
    found = atomic.violations("", cs, atomic_elements(c.text))
    return frozenset(i for (_, i), kinds in found.by_chunk.items() if atomic.TABLE in kinds)


@st.cache_data(max_entries=16, show_spinner=False)
def token_sweep(c: Chunking, questions: tuple[GoldQuestion, ...], k: int) -> list:
    """Lab 6's lesson: recall and token efficiency over sizes, overlap off and on
    (lab.measure.efficiency_sweep), BM25, in the sidebar's unit and strategy."""
    return efficiency_sweep.token_sweep(c.text, questions, c.strategy, c.opts, k)


@st.cache_data(max_entries=16, show_spinner=False)
def generated_gold(text: str, name: str, n: int, seed: int) -> questions_made.Made:
    """A gold set made from the document itself (lab.measure.questions); raises
    NothingToAsk when no sentence is long enough."""
    return questions_made.make_gold({name: text}, n, seed)


def truncation_rows(
    chunks: Sequence[Chunk], tokenizer: str, limit: int, answer: str | None
) -> list[dict[str, Any]]:
    """The truncation lesson's table: each chunk whose indexed text passes ``limit``
    tokens of ``tokenizer``, what an embedder truncating there cuts off, and whether
    the answer lies in the part cut off."""
    cut = truncation(chunks, ChunkOptions(unit="tokens", tokenizer=tokenizer), limit)
    words = collapse_whitespace(answer) if answer else ""
    return [
        {
            "chunk": t.index + 1,
            "tokens indexed": t.length,
            "tokens cut off": t.length - limit,
            # -- the chunk holds the answer, and the embedder stops before its end
            "answer cut": "✓"
            if words
            and words in collapse_whitespace(t.kept + t.cut)
            and words not in collapse_whitespace(t.kept)
            else "",
            "cut off": clip(t.cut, 90),
        }
        for t in cut
    ]


@st.cache_data(max_entries=16, show_spinner=False)
def drag_payload(
    text: str, answer: str, strategy: str, sizes: tuple[int, ...], unit: str, overlap: int
) -> dict[str, Any]:
    """A drag slider's data: every size's chunks and verdict, seen through the
    window around the answer (lab.measure.drag), as JSON for the browser."""
    u = Unit.named(unit)
    span = find_answer(text, answer)
    frames = drag_frames(
        text, answer, strategy, sizes, unit=u.base, overlap=overlap, tokenizer=u.tokenizer,
        window=window_around(text, span),
    )  # fmt: skip
    return drag_window(text, span, frames).to_json()


@st.cache_data(max_entries=4, show_spinner=False)
def tokenizer_lesson() -> TokenizerLesson:
    """Lab 4's tokenizer lesson: the Chinese sample's gold set, ranked three ways."""
    name = tokenizers.LESSON_DOC
    pairs = [(q.question, q.answer) for q in gold_questions(name) if q.answer]
    return tokenizer_choice.tokenizer_lesson(sample_text(name), pairs, size=tokenizers.LESSON_SIZE)
