"""Lab 1: the boundary lottery."""

import streamlit as st

from ui import cached, chunk_panel, frame, state, survival_curves, tables
from ui.drag_slider import lab_drag
from ui.present import sweeps, urlstate

INTRO = """
A chunk is the unit of retrieval: if the answer does not sit whole inside some chunk, no
ranking recovers it. **Drag the chunk size slowly upward from 22 and watch the verdict flip**
(the size slider redraws while you drag): twenty-two words works and twenty-four
does not. Whether retrieval works is *not monotonic* in chunk size; click a point on the
survival curve to move the slider there.
"""
CURVE_KEY = "lab1_curve"
DRAG_KEY = "lab1_drag"


def _explain_first_cut(ctx):
    """Why a large size splits the answer again: its first chunk ends inside it."""
    if ctx.strategy != "fixed" or ctx.overlap:
        return
    cut = sweeps.first_cut(ctx.text, ctx.answer, ctx.unit)
    if cut is None:
        return
    lo, hi = cut.sizes
    classic = ""
    if (ctx.doc_name, ctx.unit) == (urlstate.DEFAULT_DOC, "words") and ctx.config["q"] == 0:
        first, last = sweeps.PUBLISHED_SIZES
        classic = (
            "The size table reproduces the published lottery table for this document and "
            f"question (fixed-size chunks, no overlap). That table tried sizes from {first} "
            f"to {last} words and ends at “{last}+ ✓”; this sweep goes further. "
        )
    frame.explain(f"**Why the answer splits again at {lo}-{hi} {ctx.unit}.** {classic}{cut.line}")


def _in_tokens(ctx, extra):
    """The lesson read in tokens: fixed windows of the answer in the sidebar's tokenizer
    (cl100k_base unless tokens of another are chosen), and the 512/50 setting."""
    base, tokenizer = ctx.opts.unit, ctx.opts.tokenizer
    lesson = cached.token_lesson(ctx.text, ctx.answer, tokenizer)
    extra[f"verdict flips in {lesson.unit}"] = lesson.flips
    (st.markdown if base == "tokens" else frame.explain)(lesson.line)


def body(ctx):
    view = chunk_panel.chunk_view(ctx, key="lab1")
    extra = {}
    if ctx.answer and ctx.origin.imported:
        st.info(
            "Survival over sizes does not apply to your chunks: they were cut once, by "
            "their own pipeline, so there is no size to sweep. The verdict above is theirs; "
            "pick a strategy in the sidebar to draw its curve."
        )
        _in_tokens(ctx, extra)
    elif ctx.answer:
        sizes = survival_curves.sweep_sizes(ctx.unit, ctx.size, ctx.overlap)
        curve = survival_curves.curve(
            ctx.text, ctx.answer, ctx.strategy, sizes, ctx.unit, ctx.overlap, current=ctx.size
        )
        # the size control first: with the verdict and the curve, on the first screen
        chunks_window = lab_drag(ctx, sizes, key=DRAG_KEY)
        left, right = st.columns([3, 1])
        with left:
            frame.survival_curve(
                ctx,
                curve,
                state.register_curve(CURVE_KEY),
                frame.chart_height(1, laptop_rows=frame.CONTROL_ROWS),  # under the control
            )
        with right:
            st.markdown(f"**On this document, overlap {ctx.overlap}:**")
            tables.full_table(sweeps.runs_table(curve))
            st.metric("verdict flips along the curve", sweeps.flips(curve))
        chunks_window()  # the chunks around the answer, at the size the control holds
        extra = {
            "verdict flips": sweeps.flips(curve),
            "sizes intact": f"{sweeps.survival_share(curve):.0%}",
        }
        frame.explain(
            "The answer sentence is split across a chunk boundary whenever a boundary lands "
            "inside it. Boundaries fall where the arithmetic puts them, which has nothing to do "
            "with where the meaning is: a lottery, re-drawn every time you change the size."
        )
        _explain_first_cut(ctx)
        _in_tokens(ctx, extra)
    chunk_panel.footer(ctx, "boundary", view, extra)


frame.run_lab("boundary", INTRO, body)
