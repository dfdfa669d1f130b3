"""Lab 11: two judge_rows. The same document, question and chunks judged by BM25 and by
dense vectors, and by their fusion."""

import streamlit as st

from chunkers.options import Unit
from lab.retrieval.embedders import DEFAULT_EMBEDDER, EmbedderError
from lab.text import clip
from ui import cached, chunk_panel, exports, frame, judge_choice, palette, tables
from ui.present import controls, judge_rows, vega_charts

INTRO = """
A chunk is chosen by judges that look at different things. **BM25** counts the question's
words and divides by the chunk's length, so short chunks win it. A **dense** retriever turns
each chunk into one vector, the average of what it says: a chunk holding two topics lands
between them, and a big chunk drifts toward the document's general topic, so big chunks lose
it. Most RAG pipelines retrieve with vectors, or with a **hybrid** of both. Here the sidebar's
chunks are ranked by all three, then the answer's chunk is followed as chunks grow.
"""
SLUG = "judges"


def _side_by_side(ctx, variant, spec, extra):
    st.subheader("Side by side: every chunk, ranked three ways")
    rows = cached.side_by_side(ctx.chunked, ctx.question, ctx.answer, variant, spec)
    chunks = cached.chunks(ctx.chunked)
    ranks = judge_rows.answer_ranks(rows, ctx.answer)
    unread = cached.reading_line(ctx.chunked, ctx.question, spec)
    if unread:
        st.warning(unread)
    if ranks.chunk is None:
        st.warning(ranks.line)
    else:
        (st.success if ranks.hybrid == 1 else st.info)(ranks.line)
        extra.update(
            {
                "answer's chunk": ranks.chunk,
                "BM25 rank": ranks.bm25,
                "dense rank": ranks.dense,
                "hybrid rank": ranks.hybrid,
            }
        )
    table = judge_rows.judge_table(chunks, rows)
    tables.table(table, height=min(35 * (len(table) + 1) + 3, 400))
    frame.explain(judge_rows.HYBRID_NOTE)
    exports.download_buttons(
        f"judges_{ctx.doc_name or 'upload'}_{ctx.strategy}_{ctx.size}{ctx.unit}_{ctx.overlap}",
        "lab11_judges",
        judge_rows.judges_export(
            {**ctx.config, "bm25": variant, "embedder": spec}, ctx.question, ctx.answer, table
        ),
    )


def _muddy(ctx, variant, spec, extra):
    st.subheader("The muddy vector: the answer's chunk as chunks grow")
    sizes = judge_rows.MUDDY_SIZES[Unit.named(ctx.unit).base]
    mv = cached.muddy_vector(ctx.text, ctx.question, ctx.answer, ctx.unit, sizes, variant, spec)
    view = judge_rows.muddy_view(mv, ctx.unit)
    colours = {
        judge_rows.COSINE: palette.JUDGE_COLOURS["dense"],
        judge_rows.BM25_CURVE: palette.JUDGE_COLOURS["bm25"],
    }
    frame.vega(
        vega_charts.muddy_chart(
            view.points, view.crossings, colours, ctx.unit, frame.chart_height()
        )
    )
    for line in view.lines:
        st.markdown(line)
    frame.explain(
        f"The structural chunker at every size from {sizes[0]:,} to {sizes[-1]:,} {ctx.unit}, "
        "no overlap (the sidebar's size is not used here). At each size: the question's "
        "cosine with the chunk that holds the answer, and that chunk's BM25 score among all "
        "the chunks of that size. BM25 divides by length, so runts win it; the vector "
        "averages the chunk, so as it grows it drifts from the question."
    )
    extra["curves cross at"] = ", ".join(f"{round(x):,}" for x in mv.crossings) or "nowhere"


def _topic_label(pairs, n):
    return f"{n + 1}. {clip(pairs[n].question, 70)}"


def _two_topics(ctx, spec, extra):
    st.subheader("Two topics in one chunk")
    pairs = list(ctx.gold)
    here = next((n for n, p in enumerate(pairs) if p.question == ctx.question), None)
    if here is None or len(pairs) < 2:
        st.info(
            "Two topics need two gold questions with answers in this document: pick a "
            "question from the document's gold set."
        )
        return
    answers = tuple(p.answer for p in pairs)
    default = cached.topic_pair(ctx.text, answers, here, None)
    partner = default.second if default.first == here else default.first
    key = "lab11_partner"
    options = [n for n in range(len(pairs)) if n != here]
    if st.session_state.get(key) not in options:
        st.session_state[key] = partner
    other = st.selectbox(
        "The second topic (another gold question; the nearest answer in another section "
        "to start with)",
        options,
        key=key,
        format_func=lambda n: _topic_label(pairs, n),
    )
    pair = cached.topic_pair(ctx.text, answers, here, other)
    first, second = pairs[pair.first], pairs[pair.second]
    tt = cached.two_topics(
        first.answer, first.question, second.answer, second.question, pair.filler, spec
    )
    label_a, label_b = _topic_label(pairs, pair.first), _topic_label(pairs, pair.second)
    view = judge_rows.topics_view(tt, label_a, label_b)
    colours = dict(zip((label_a, label_b), palette.TOPIC_COLOURS, strict=True))
    frame.vega(
        vega_charts.topics_chart(
            view.points, view.midpoints, view.second_from, colours, frame.chart_height()
        )
    )
    st.markdown(view.line)
    frame.explain(
        "The chunk starts as the first answer and grows through the document's text to the "
        "second answer. The dashed lines are each question's cosine with the midpoint of the "
        "two answers' vectors: where a chunk of the two topics tends to land."
    )
    extra["second topic"] = second.question if pair.first == here else first.question


def _model_ready(spec) -> bool:
    """The embedder loads (once per process) and returns vectors; else one line, and the
    rest of the page (the chunk view, the pin) stays."""
    try:
        cached.embedder(spec)
    except EmbedderError as e:
        st.error(f"The embedder cannot judge: {frame.one_line(e)}")
        return False
    return True


def body(ctx):
    controls.ensure(st.session_state, SLUG)
    left, right = st.columns([3, 2])
    variant = judge_choice.bm25_switch(left)
    spec = judge_choice.embedder_choice(right)
    if spec == DEFAULT_EMBEDDER:
        with right:
            frame.explain(judge_rows.STATIC_MODEL)
    extra = {"BM25 variant": variant, "embedder": spec}
    if not ctx.question:
        st.info("Pick a question in the sidebar (or type your own) to let the judges rank.")
    elif _model_ready(spec):
        _side_by_side(ctx, variant, spec, extra)
        if ctx.answer:
            _muddy(ctx, variant, spec, extra)
        else:
            st.info("Pick an answer to follow its chunk as chunks grow.")
        _two_topics(ctx, spec, extra)
    view = chunk_panel.chunk_view(ctx, key="lab11")
    chunk_panel.footer(ctx, SLUG, view, extra)


frame.run_lab(SLUG, INTRO, body)
