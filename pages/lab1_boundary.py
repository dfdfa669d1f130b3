"""Lab 1: the boundary lottery (seed 002)."""

import streamlit as st

from lab import sweeps
from ui import charts, data, shell
from ui import state as S

INTRO = """
A chunk is the unit of retrieval: if the answer does not sit whole inside some chunk, no
ranking recovers it. **Drag the chunk size slowly upward from 22 and watch the verdict flip**:
twenty-two words works and twenty-four does not. Whether retrieval works is *not monotonic*
in chunk size; click a point on the survival curve to move the slider there.
"""
CURVE_KEY = "lab1_curve"


def body(ctx):
    view = shell.chunk_view(ctx, key="lab1")
    extra = {}
    if ctx.answer:
        sizes = data.sweep_sizes(ctx.text, ctx.unit, ctx.size, ctx.overlap)
        curve = data.curve(ctx.text, ctx.answer, ctx.strategy, sizes, ctx.unit, ctx.overlap)
        S.register_curve(CURVE_KEY)
        left, right = st.columns([3, 1])
        with left:
            shell.plot(
                charts.survival_step(curve, ctx.size, ctx.unit, ctx.strategy, shell.chart_height()),
                key=CURVE_KEY,
                on_select="rerun",
                selection_mode="points",
            )
        with right:
            st.markdown(f"**On this document, overlap {ctx.overlap}:**")
            shell.table(
                sweeps.runs_table(curve), height=min(38 * (len(sweeps.runs(curve)) + 1), 420)
            )
            st.metric("verdict flips along the curve", sweeps.flips(curve))
        extra = {
            "verdict flips": sweeps.flips(curve),
            "sizes intact": f"{sweeps.survival_share(curve):.0%}",
        }
        shell.explain(
            "The answer sentence is split across a chunk boundary whenever a boundary lands "
            "inside it. Boundaries fall where the arithmetic puts them, which has nothing to do "
            "with where the meaning is: a lottery, re-drawn every time you change the size."
        )
    shell.footer(ctx, "boundary", view, extra)


shell.run_lab("boundary", INTRO, body)
