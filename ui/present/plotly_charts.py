"""Plotly figures drawn from lab/ results: the charts over chunk sizes, which a slider
step leaves as they are (the survival curves, the lottery map). The charts a step
redraws are Vega-Lite (ui.present.vega_charts). Colours come from ui.palette only."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from lab.measure.survival import SurvivalCurve
from ui import palette
from ui.present import sweeps
from ui.present.sweeps import LotteryGrid

BASE_FONT_PX = 12  # Plotly's default text size; titles are 1.4x that


def scale_text(fig: go.Figure, factor: float) -> go.Figure:
    """Every text of the figure ``factor`` times larger: ticks, axis titles, legend,
    title, annotations and bar labels (they inherit the layout's font unless set)."""
    size = round(BASE_FONT_PX * factor)
    # every text named one by one: Streamlit's chart theme sets ticks, axis titles
    # and the legend itself, so the layout's font alone would not reach them
    fig.update_layout(font_size=size, title_font_size=round(size * 1.4), legend_font_size=size)
    fig.update_xaxes(tickfont_size=size, title_font_size=size)
    fig.update_yaxes(tickfont_size=size, title_font_size=size)
    for note in fig.layout.annotations or ():
        note.font.size = round((note.font.size or BASE_FONT_PX) * factor)
    for trace in fig.data:
        if getattr(trace, "textfont", None) is not None:
            trace.textfont.size = round((trace.textfont.size or BASE_FONT_PX) * factor)
    return fig


def _layout(fig: go.Figure, height: int, **kw) -> go.Figure:
    fig.update_layout(
        height=height,
        margin=dict(l=10, r=10, t=50, b=10),
        # the legend at the figure's foot, below the axis title whatever the text size
        legend=dict(orientation="h", yref="container", yanchor="bottom", y=0, x=0),
        **kw,
    )
    return fig


# -- a chart whose figure does not change is not redrawn: Streamlit names a chart
# by its figure, so any change, even a moved marker, rebuilds the whole chart
# in the browser. The survival
# curves therefore leave the current size out, and size_pointer marks it under
# the chart, on the same scale: the x range and the side margins are fixed here
# and read back from the figure --
CURVE_MARGIN = dict(l=96, r=24, t=50, b=10)
VERDICT_WORDS = {True: "✓ intact", False: "✗ split"}
TWO_VERDICTS = [VERDICT_WORDS[False], VERDICT_WORDS[True]]  # an axis from split (0) to intact
HEATMAP_RIGHT_PX = 130  # the lottery map's colour legend, with its labels
LEGEND_RIGHT_PX = 300  # a legend of strategy names beside a chart, at a projector's size
AXIS_BELOW_PX = 76  # the x axis's ticks and title under a chart whose margins are fixed


def _fixed_x(fig: go.Figure, sizes: Sequence[int]) -> go.Figure:
    lo, hi = min(sizes), max(sizes)
    pad = max(0.5, (hi - lo) * 0.02)
    fig.update_xaxes(range=[lo - pad, hi + pad], autorange=False)
    fig.update_yaxes(automargin=False)
    fig.update_layout(margin=CURVE_MARGIN)
    return fig


def survival_step(
    curve: SurvivalCurve, unit: str, strategy: str, height: int, title: str = ""
) -> go.Figure:
    y = [1 if ok else 0 for ok in curve.intact]
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=curve.sizes,
            y=y,
            mode="lines+markers",
            line_shape="hv",
            name=sweeps.display_name(strategy),
            line=dict(color=palette.strategy_colour(strategy), width=3),
            marker=dict(
                size=7,
                color=[palette.INTACT if v else palette.SPLIT for v in y],
                symbol=["circle" if v else "x" for v in y],
            ),
            hovertemplate=f"size %{{x}} {unit}<br>%{{text}}<extra></extra>",
            text=["answer intact" if v else "answer split" for v in y],
        )
    )
    fig.update_yaxes(tickvals=[0, 1], ticktext=TWO_VERDICTS, range=[-0.3, 1.3])
    fig.update_xaxes(title=f"chunk size ({unit})")
    _layout(
        fig,
        height,
        title=title or "Answer intact against chunk size (click a point to move the slider)",
        showlegend=True,  # one trace: Plotly would hide the legend that names the strategy
    )
    return _fixed_x(fig, curve.sizes)


def overlaid_curves(
    curves: Mapping[str, SurvivalCurve], unit: str, height: int, legend_right: bool = False
) -> go.Figure:
    """The strategies' survival curves on one chart; ``legend_right`` puts the legend
    beside the plot (a projector's short chart keeps its height for the curves)."""
    fig = go.Figure()
    n = len(curves)
    for i, (name, c) in enumerate(curves.items()):
        offset = (i - (n - 1) / 2) * 0.06  # lanes a hair apart so every line stays visible
        fig.add_trace(
            go.Scatter(
                x=c.sizes,
                y=[(1 if ok else 0) + offset for ok in c.intact],
                mode="lines",
                line_shape="hv",
                name=sweeps.display_name(name),
                line=dict(color=palette.strategy_colour(name), width=2.5),
                hovertemplate=f"{sweeps.display_name(name)}: size %{{x}}<extra></extra>",
            )
        )
    fig.update_yaxes(tickvals=[0, 1], ticktext=TWO_VERDICTS, range=[-0.4, 1.4])
    fig.update_xaxes(title=f"chunk size ({unit})")
    _layout(fig, height, title="Survival curves, all strategies")
    sizes = [s for c in curves.values() for s in c.sizes]
    _fixed_x(fig, sizes)
    if legend_right:
        fig.update_layout(
            legend=dict(orientation="v", yref="paper", yanchor="middle", y=0.5, x=1.02),
            margin=dict(r=LEGEND_RIGHT_PX, b=AXIS_BELOW_PX, autoexpand=False),
        )
    return fig


def pointer_text(curve: SurvivalCurve, size: int, unit: str) -> str:
    """What the pointer says: the size, and the curve's verdict there when it has one."""
    ok = curve.intact_at(size)
    return f"{size} {unit}" if ok is None else f"{size} {unit}: {VERDICT_WORDS[ok]}"


def size_pointer(fig: go.Figure, size: int, text: str) -> str:
    """HTML for under a chart from ``_fixed_x``: a ▲ at ``size`` on the figure's own
    x scale, and ``text`` on the line below it."""
    lo, hi = fig.layout.xaxis.range
    where = min(1.0, max(0.0, (size - lo) / (hi - lo))) * 100
    # -- the label slides along its own width as the tip crosses the chart (its
    # left edge at the chart's left, its right edge at the chart's right), so a
    # long label never leaves the column, wherever the tip is --
    tip = (
        f'<div style="position:absolute;top:0;left:{where:.3f}%;width:1em;'
        f'margin-left:-0.5em;text-align:center;line-height:1">▲</div>'
    )
    label = (
        f'<div style="position:absolute;top:1.05em;left:{where:.3f}%;white-space:nowrap;'
        f'transform:translateX(-{where:.3f}%)">{html.escape(text)}</div>'
    )
    margin = fig.layout.margin
    return (
        f'<div class="size-pointer" data-size="{size}" '
        f'style="position:relative;height:2.6em;font-weight:600;'
        f'margin:0 {margin.r}px 0 {margin.l}px;color:{palette.CURRENT}">{tip}{label}</div>'
    )


def lottery_heatmap(grid: LotteryGrid, unit: str, height: int) -> go.Figure:
    labels = [f"{round(f * 100)}%" for f in grid.fractions]
    fig = go.Figure(
        go.Heatmap(
            z=grid.intact,
            x=grid.sizes,
            y=labels,
            zmin=0,
            zmax=1,
            showscale=True,  # the colour legend: two bands, each named
            colorbar=dict(
                title=dict(text="answer"),
                tickvals=[0.25, 0.75],
                ticktext=TWO_VERDICTS,
                len=0.6,
                thickness=16,
            ),
            colorscale=[
                [0, palette.SPLIT],
                [0.5, palette.SPLIT],
                [0.5, palette.INTACT],
                [1, palette.INTACT],
            ],
            customdata=grid.overlaps,
            hovertemplate=f"size %{{x}} {unit}, overlap %{{customdata}} (%{{y}} of size)<br>"
            "%{z}<extra>1 = intact, 0 = split</extra>",
        )
    )
    fig.update_xaxes(title=f"chunk size ({unit})")
    fig.update_yaxes(title="overlap (% of chunk size)")
    words = palette.COLOUR_WORDS
    _layout(
        fig,
        height,
        title=f"Lottery map of fixed-size windows: {words[palette.INTACT]} = answer intact, "
        f"{words[palette.SPLIT]} = split",
    )
    # the colour legend sits in a right margin of its own: nothing may widen the
    # margins behind the pointer's back, so the bottom one is set for the x axis
    fig.update_traces(colorbar=dict(x=1, xref="paper", xanchor="left", xpad=16))
    _fixed_x(fig, grid.sizes)
    fig.update_layout(margin=dict(r=HEATMAP_RIGHT_PX, b=AXIS_BELOW_PX, autoexpand=False))
    return fig


def lottery_pointer_text(grid: LotteryGrid, size: int, overlap: int, unit: str) -> str:
    """The pointer under the lottery map: the size, the overlap row it is in (and
    that row's overlap when it is not the current one), and the map's verdict there."""
    row = grid.row(size, overlap)
    where = f"{size} {unit}, overlap {overlap} (the {round(grid.fractions[row] * 100)}% row"
    if size in grid.sizes and grid.overlaps[row][grid.sizes.index(size)] != overlap:
        where += f", which has overlap {grid.overlaps[row][grid.sizes.index(size)]}"
    where += ")"
    ok = grid.intact_at(size, overlap)
    return where if ok is None else f"{where}: {VERDICT_WORDS[ok]}"


def map_and_banner(grid: LotteryGrid, size: int, overlap: int, strategy: str, intact: bool) -> str:
    """One line under the verdict when the chosen strategy is not fixed-size: the map
    is fixed-size windows, the banner is the strategy's chunks, and whether the two
    agree at this setting (and why they may not)."""
    name = sweeps.display_name(strategy)
    mine = VERDICT_WORDS[intact]
    ok = grid.intact_at(size, overlap)
    if ok is None:
        return f"The verdict above is {name} chunking's; the map below is fixed-size windows."
    theirs = VERDICT_WORDS[ok]
    if ok == intact:
        return (
            f"The verdict above is {name} chunking's ({mine}); the map below is fixed-size "
            f"windows, and at this setting they agree ({theirs})."
        )
    return (
        f"The verdict above is {name} chunking's ({mine}); the map below is fixed-size "
        f"windows, which cut where the arithmetic falls ({theirs} here): the two chunk "
        "the document differently, so they can disagree."
    )
