"""Lab 4: runts and BM25."""

import streamlit as st

from lab.retrieval.bm25 import DEFAULT_B, DEFAULT_K1, FTS5
from ui import cached, chunk_panel, frame, judge_choice, tables
from ui.present import controls, glossary, ranking, tokenizers, vega_charts

INTRO = """
BM25 is asking *what fraction of this chunk is about your query?* {pair}**Move k1 and b, and
watch the short chunks' bonus**; then read the revenue report below: fixed-size chunks cut its
last row, `| Mumbai | FY24 | 18,412 | 4.2% |`, off without the header that says what the numbers
are, and that headerless row outranks the table it was cut from. The structural chunker keeps
the row with its table.
"""


def _intro() -> str:
    """The introduction, its two lengths taken from the report as the page shows it
    (at BM25's default k1 and b): the row's chunk and the table's."""
    text = cached.sample_text(ranking.REVENUE_DOC)
    pair = ranking.orphan_and_table(cached.revenue_orphan(text, DEFAULT_K1, DEFAULT_B))
    if pair is None:
        return INTRO.format(pair="")
    row, table = pair
    return INTRO.format(
        pair=f"In the revenue report below, a {row.length:,}-character chunk holding nothing "
        f"but one table row outranks the {table.length:,}-character chunk of the table it "
        "was cut from. "
    )


def _banner(case: ranking.RevenueCase) -> None:
    """Red when a runt outranks its table, neutral on a tie, green otherwise."""
    (st.error if case.orphan else st.info if case.tie else st.success)(case.summary)


def _revenue_table(case: ranking.RevenueCase) -> None:
    tables.table(
        [
            {
                "chunk": r.number,
                "length (chars)": r.length,
                "kind": r.kind,
                "BM25": round(r.score, 3),
                "rank": r.rank,
                "holds the Mumbai row": "✓" if r.holds_answer else "",
                "table header": "repeated" if r.header_repeated else "✓" if r.has_header else "",
            }
            for r in case.rows
        ]
    )


def _scores(ctx, k1, b, runt_merge, variant, extra):
    chunks = cached.chunks(ctx.chunked, runt_merge)
    scores = cached.scores(ctx.chunked, ctx.question, k1, b, runt_merge=runt_merge, variant=variant)
    rows = ranking.score_rows(chunks, scores, ctx.opts, ctx.answer)
    curve = ranking.theory_curve(rows, ctx.opts, k1=k1, b=b)
    left, right = st.columns(2)
    frame.vega(vega_charts.score_bars(rows, frame.chart_height(1)), container=left)
    frame.vega(
        vega_charts.score_vs_length(rows, curve, ctx.unit, frame.chart_height(1)),
        container=right,
    )
    st.markdown(f"**{curve.label}**", help=glossary.help_for(curve.label, *curve.chart_lines))
    extra.update(
        {
            "inflation cap at floor": round(curve.cap_at_floor, 3),
            "shortest chunk factor": round(curve.shortest_factor, 3),
        }
    )
    frame.explain(
        f"The dotted curve is BM25's length arithmetic on its own: one match, IDF held fixed, "
        f"only the length changing (avgdl {curve.avgdl:.0f} {ctx.unit}), scaled through chunk "
        f"{curve.anchor}. The entire spread comes from length normalisation alone."
    )


def _revenue(k1, b, runt_merge, variant, extra):
    text = cached.sample_text(ranking.REVENUE_DOC)
    st.subheader("The revenue report: a row without its header")
    orphan = cached.revenue_orphan(text, k1, b, variant)
    _banner(orphan)
    _revenue_table(orphan)
    frame.explain(
        f"Question “{ranking.REVENUE_QUESTION}”, fixed-size chunks of 1,800 characters with "
        "no overlap. The last row lands alone in a chunk of its own: no header, no units, no "
        "caption. BM25 rewards it for being short, so the chunk that cannot say what 18,412 "
        "means outranks the table that can."
    )
    st.subheader("The structural fix")
    revenue = cached.revenue(text, runt_merge, k1, b, variant)
    _banner(revenue)
    _revenue_table(revenue)
    frame.explain(
        "The structural chunker at 1,800 characters with 150 overlap. A table that spills "
        "past the limit sheds its last row with the header repeated on top, but that piece is "
        "still a runt under the floor (set the runt merge to off to see it outrank the table); the "
        "runt merge merges it back into its table."
    )
    example = cached.runt_merge_example()
    st.markdown(f"**Why backward, live:** {example.line}")
    extra.update(
        {"orphan row rank (fixed)": orphan.answer_rank, "revenue answer rank": revenue.answer_rank}
    )


def _tokenizers(extra):
    st.subheader("The tokenizer decides what BM25 can find")
    lesson = cached.tokenizer_lesson()
    st.markdown(tokenizers.lesson_summary(lesson))
    tables.table(tokenizers.lesson_rows(lesson))
    st.markdown(tokenizers.tokens_line(lesson))
    frame.explain(
        f"The Chinese sample ({tokenizers.LESSON_DOC}) and its gold questions, the structural "
        f"chunker at {tokenizers.LESSON_SIZE} characters, lucene BM25 at the default k1 and b: "
        "only the tokenizer changes. " + tokenizers.WHY
    )
    extra.update({f"first by {t}": lesson.first(t) for t in tokenizers.COLUMNS})


def body(ctx):
    controls.ensure(st.session_state, "runts")
    k1_col, b_col, merge_col, variant_col = st.columns([2, 2, 2, 3])
    # -- SQLite compiles its own k1 and b into fts5: the sliders stand still for it
    fixed = st.session_state.get(controls.BM25.key) == FTS5
    why = "fts5 scores with SQLite's own k1 = 1.2 and b = 0.75" if fixed else None
    k1 = k1_col.slider(
        controls.K1.label,
        controls.K1.lo,
        controls.K1.hi,
        step=controls.K1.step,
        key="k1",
        disabled=fixed,
        help=why,
    )
    b = b_col.slider(
        controls.B.label,
        controls.B.lo,
        controls.B.hi,
        step=controls.B.step,
        key=controls.B.key,
        disabled=fixed,
        help=why,
    )
    runt_merge = merge_col.radio(
        controls.RUNT_MERGE.label,
        controls.RUNT_MERGE.options,
        horizontal=True,
        key=controls.RUNT_MERGE.key,
    )
    variant = judge_choice.bm25_switch(variant_col, note=False)  # written under the charts
    if variant == FTS5:
        k1, b = DEFAULT_K1, DEFAULT_B
    extra = {"k1": k1, "b": b, "runt merge": runt_merge, "BM25 variant": variant}
    if ctx.question:
        _scores(ctx, k1, b, runt_merge, variant, extra)
    else:
        st.info("Type a question in the sidebar to score the chunks.")
    judge_choice.variant_caption(variant)
    _revenue(k1, b, runt_merge, variant, extra)
    _tokenizers(extra)
    view = chunk_panel.chunk_view(ctx, key="lab4", runt_merge=runt_merge)
    chunk_panel.footer(ctx, "runts", view, extra)


frame.run_lab("runts", _intro(), body)
