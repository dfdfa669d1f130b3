"""Lab 2: overlap as insurance."""

import streamlit as st

from lab.measure.costs import human_bytes
from ui import cached, chunk_panel, frame, state, survival_curves, tables
from ui.drag_slider import lab_drag
from ui.present import glossary, plotly_charts, sweeps

INTRO = """
**Now set overlap to half the chunk size and drag the size again: the failures largely
disappear.** With no overlap a sentence must be missed by one window to be lost; with overlap
it must be missed by every window covering it. Overlap does not make chunks better, it makes
boundary placement stop mattering. The bill: half the stride is roughly twice the vectors.
"""
CURVE_KEY = "lab2_curve"
DRAG_KEY = "lab2_drag"


def body(ctx):
    view = chunk_panel.chunk_view(ctx, key="lab2")
    no_overlap = cached.chunks(ctx.chunked._replace(overlap=0))
    opts = ctx.opts
    per_word = cached.words_to_tokens(ctx.text, opts.tokenizer) if opts.unit == "tokens" else 0.0
    bill = sweeps.storage_bill(view["chunks"], len(no_overlap), opts, per_word)
    extra = {"vectors stored": bill.vectors, "vector bytes": human_bytes(bill.vector_bytes)}
    chunks_window = None
    if ctx.answer and not ctx.origin.imported:
        # the size control first, on the first screen: overlap hatched, watch what it rescues
        sizes = survival_curves.sweep_sizes(ctx.unit, ctx.size, ctx.overlap)
        chunks_window = lab_drag(ctx, sizes, key=DRAG_KEY)
    left, right = frame.columns([3, 2])  # in presenter mode the map has the page's width
    with left:
        if ctx.answer:
            sizes = survival_curves.sweep_sizes(ctx.unit, ctx.size)
            grid = cached.lottery(ctx.text, ctx.answer, ctx.unit, tuple(sizes))
            surv = chunk_panel.survival_of(ctx)
            noted = ctx.strategy != "fixed" and surv is not None
            if noted:
                # -- why on the first screen -- the map is always fixed-size windows; a
                # banner for another strategy can disagree with it, and must say why
                chunk_panel.under_verdict(
                    plotly_charts.map_and_banner(
                        grid, ctx.size, ctx.overlap, ctx.strategy, surv.intact
                    )
                )
            frame.plot_curve(
                plotly_charts.lottery_heatmap,
                # under the size control, and the note when there is one
                (
                    grid,
                    ctx.unit,
                    frame.chart_height(noted + 1, laptop_rows=noted + frame.CONTROL_ROWS),
                ),
                size=ctx.size,
                text=plotly_charts.lottery_pointer_text(grid, ctx.size, ctx.overlap, ctx.unit),
                key="lab2_map",
            )
            tables.table(
                [
                    {
                        "overlap": f"{round(f * 100)}% of size",
                        "sizes that keep the answer": f"{s:.0%}",
                    }
                    for f, s in zip(grid.fractions, grid.share_by_fraction, strict=True)
                ],
                height=260,
            )
            frame.explain(
                "The lottery map is fixed-size chunking, whatever the strategy above: "
                "rows are overlap as a share of the size, columns are sizes."
            )
        else:
            st.info("Pick an answer to draw the lottery map.")
    with right:
        st.subheader("Storage bill")
        st.markdown(f"**{bill.line}**")
        a, b = st.columns(2)
        a.metric(
            "vectors @1536-dim",
            human_bytes(bill.vector_bytes),
            help=glossary.help_for("@1536-dim"),
        )
        b.metric("with an HNSW index", human_bytes(bill.hnsw_bytes), help=glossary.help_for("HNSW"))
        if bill.corpus:
            st.markdown(
                f"For a corpus of {sweeps.CORPUS_DOCS:,} documents averaging "
                f"{sweeps.CORPUS_WORDS_PER_DOC:,} words, these settings cost"
                + (f" (counted in {ctx.unit}):" if opts.unit == "tokens" else ":")
            )
            tables.table([{"": k, "value": v} for k, v in bill.corpus.items()])
        frame.explain(
            "Overlap costs storage and index size and nothing per request: k chunks is the "
            "same token budget either way. A duplicated vector is cheap; an unretrievable "
            "answer is a user who does not come back."
        )
    if ctx.answer and ctx.origin.imported:
        st.info(
            "Survival over sizes does not apply to your chunks: they were cut once, by their "
            "own pipeline. The lottery map above is fixed-size windows, as it always is."
        )
    elif ctx.answer:
        sizes = survival_curves.sweep_sizes(ctx.unit, ctx.size, ctx.overlap)
        curve = survival_curves.curve(
            ctx.text, ctx.answer, ctx.strategy, sizes, ctx.unit, ctx.overlap, current=ctx.size
        )
        frame.survival_curve(
            ctx,
            curve,
            state.register_curve(CURVE_KEY),
            frame.chart_height(),
            f"Answer intact against size, overlap {ctx.overlap} (click a point to move the slider)",
        )
        if chunks_window:
            chunks_window()  # the chunks around the answer, at the size the control holds
        extra["verdict flips"] = sweeps.flips(curve)
    chunk_panel.footer(ctx, "overlap", view, extra)


frame.run_lab("overlap", INTRO, body)
