"""Lab 3: structure beats arithmetic."""

import streamlit as st

from lab.inputs.placement import ChunkOrigin
from ui import cached, chunk_panel, frame, state, survival_curves, tables
from ui.drag_slider import lab_drag
from ui.present import chunkview, plotly_charts, sweeps, vega_charts

INTRO = """
Fixed-size chunking is the default because it is trivial to implement, and it is the worst
reasonable option. **Splitting on structure the document already has removes the lottery
entirely**: compare the four strategies on the same document and answer, then drag the size
and watch which curves stay flat. That is not a tuning win; it is a structural guarantee.
"""
DRAG_KEY = "lab3_drag"


def _size_checks(ctx, names, largest) -> None:
    """Under the curves (the verdicts and the chart stay on one screen): each
    strategy's chunk count and largest chunk, a warning where it passed the size."""
    for col, name in zip(st.columns(len(names)), names, strict=True):
        check, surv, cs = largest[name]
        with col:
            if ChunkOrigin.named(name).imported:  # sized by their own pipeline, not by the slider
                st.caption(
                    f"largest chunk {check.largest:,} {check.unit}, as their pipeline cut it"
                )
            else:
                # -- why -- a strategy that passes the size can look perfect for the wrong
                # -- reason
                (st.warning if check.over else st.caption)(check.line(surv and surv.intact))
            frame.explain(chunkview.count_line(cs, ctx.text, ctx.unit))


def _largest_short(check) -> None:
    """A projector's form of the size check, in the strategy's column under its verdict."""
    line = f"largest {check.largest:,} {check.unit}"
    if check.over:
        st.warning(f"{line}: past the effective maximum, {check.limit:,}")
    else:
        st.markdown(f"{line} ✓")


def body(ctx):
    # the lab's four, and beside them the sidebar's when it is another (a peer, your chunks)
    names = sweeps.strategy_names()
    if ctx.strategy not in names:
        names.append(ctx.strategy)
    largest = {}
    with frame.at_size(ctx.size, "verdicts"):  # four verdicts at the app's size
        cols = st.columns(len(names))
    for col, name in zip(cols, names, strict=True):
        with col:
            st.markdown(f"**{sweeps.display_name(name)}**")
            surv = chunk_panel.survival_of(ctx, name)
            if ctx.answer_missing:  # the warning stands once, above the chunk view
                st.caption("no answer to check")
            else:
                # four verdicts side by side: a projector's text size needs the short form
                brief = chunkview.short_verdict if state.presenter() else chunkview.verdict
                chunk_panel.verdict_banner(brief(surv))
            cs = cached.chunks(ctx.chunked._replace(strategy=name))
            largest[name] = (sweeps.size_check(cs, ctx.opts), surv, cs)
            if state.presenter():
                _largest_short(largest[name][0])
    extra = {}
    chunks_window = None
    if ctx.answer:
        sizes = survival_curves.sweep_sizes(ctx.unit, ctx.size, ctx.overlap)
        swept = [n for n in names if not ChunkOrigin.named(n).imported]
        if len(swept) < len(names):
            frame.explain(
                "Your chunks have no curve: they were cut once, by their own pipeline, so "
                "survival over sizes does not apply to them. Their verdict is above."
            )
        curves = {
            n: survival_curves.curve(
                ctx.text,
                ctx.answer,
                n,
                sizes,
                ctx.unit,
                ctx.overlap,
                label=sweeps.display_name(n),
                current=ctx.size,
            )
            for n in swept
        }
        if ctx.strategy in curves:
            # the size control on the first screen: the sidebar strategy's chunks and
            # verdict, and a line with the other strategies' at the same size
            others = {sweeps.display_name(n): c for n, c in curves.items() if n != ctx.strategy}
            chunks_window = lab_drag(ctx, sizes, key=DRAG_KEY, others=others)
        frame.plot_curve(
            plotly_charts.overlaid_curves,
            # a projector's verdicts and size checks take one line each: half a row
            (
                curves,
                ctx.unit,
                frame.chart_height(1.6, laptop_rows=frame.CONTROL_ROWS),  # verdicts, control
                state.presenter(),
            ),
            size=ctx.size,
            text=f"{ctx.size} {ctx.unit}",
            key="lab3_curves",
        )
        if chunks_window:
            shown = sweeps.display_name(ctx.strategy)
            frame.explain(
                f"The size slider above draws {shown}'s verdict at every size while you "
                f"drag it, and the strip under it is {shown}'s curve; the line under the "
                "verdict gives the other strategies'. Here are the chunks around the answer:"
            )
            chunks_window()
    with frame.at_size(ctx.size, "checks"):  # what the checks say at the app's size
        _at_size(ctx, names, largest, curves if ctx.answer else {}, extra)
    st.subheader(f"Chunk view: {sweeps.display_name(ctx.strategy)}")
    view = chunk_panel.chunk_view(ctx, key="lab3", verdict_on_top=False)  # four verdicts on top
    chunk_panel.footer(ctx, "structure", view, extra)


def _at_size(ctx, names, largest, curves, extra) -> None:
    """Each strategy's largest chunk, the table of the curves, the gold set's bars: all at
    the app's size."""
    if not state.presenter():
        _size_checks(ctx, names, largest)
    if ctx.answer:
        tables.table(
            [
                {
                    "strategy": sweeps.display_name(n),
                    "verdict flips": sweeps.flips(c),
                    "sizes intact": f"{sweeps.survival_share(c):.0%}",
                    f"largest chunk ({ctx.unit}) at {ctx.size}": largest[n][0].largest,
                    "within the effective maximum": "✗ ignored it" if largest[n][0].over else "✓",
                }
                for n, c in curves.items()
            ]
        )
        extra.update(
            {f"{n} sizes intact": f"{sweeps.survival_share(c):.0%}" for n, c in curves.items()}
        )
    if ctx.gold:
        answers = tuple(p.answer for p in ctx.gold)
        rates = {n: cached.gold_rate(ctx.chunked._replace(strategy=n), answers) for n in names}
        # the setting is written above the chart, so a step changes only its data
        st.markdown(
            f"**Gold set: answers intact at size {ctx.size} {ctx.unit}, overlap {ctx.overlap} "
            f"({len(answers)} questions)**"
        )
        frame.vega(vega_charts.strategy_bars(rates, frame.chart_height()))
        extra.update({f"{n} gold intact": f"{r:.0%}" for n, r in rates.items()})
    else:
        where = " (load one on the Integrity check lab)" if ctx.doc_name is None else ""
        st.info(f"This document has no gold set{where}: the per-strategy survival rate needs one.")


frame.run_lab("structure", INTRO, body)
