"""Vega-Lite charts for the figures a slider step changes: their spec stays the same
and only their named datasets change, so the browser updates them in place.

-- why two chart libraries -- Streamlit names a Plotly chart by its whole figure,
so a chart whose data changes at every step is rebuilt from nothing each time
(60-90 ms per chart in Chromium on a small machine). A Vega-Lite chart keeps its
place while its spec is unchanged, and Streamlit swaps its datasets into the
live view. The charts that a step leaves alone (the survival curves, the lottery
map) stay Plotly, for their click-to-set-the-size.

Each builder returns a spec dict with its data under "datasets"; titles and
colours come from the arguments, never from the data, so a step changes only
the datasets. Colours come from ui.palette only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ui import palette
from ui.present import sweeps
from ui.present.ranking import CATEGORIES, ScoreRow, TheoryCurve

Spec = dict[str, Any]
BASE_FONT_PX = 12  # ticks, axis titles, legends and the marks' text
TITLE_FONT_PX = 17
AXIS_TICKS = 6
THEORY_KIND = "theory (length only)"
NOTE = "note"  # the dataset of a note written above a plot
NOTE_LINES = 3  # the inflation note: the lines of TheoryCurve.chart_lines
NOTE_GAP_PX = 8  # between a note written above a plot and the plot
LONG_LABELS = "long_labels"  # usermeta: a bar chart whose group labels are sentences


def _config(factor: float = 1.0, note_lines: int = 0) -> dict[str, Any]:
    """Every text of the chart ``factor`` times larger (rounded up, so a presenter's
    1.5x is at least 1.5x): ticks, axis titles, legend, title, the marks' text, and
    the room a note of ``note_lines`` lines takes between the title and the plot."""
    text, title = math.ceil(BASE_FONT_PX * factor), math.ceil(TITLE_FONT_PX * factor)
    line = text + 4
    note_px = NOTE_GAP_PX + note_lines * line
    return {
        "axis": {"labelFontSize": text, "titleFontSize": text, "labelLimit": 0},
        "legend": {"labelFontSize": text, "titleFontSize": text, "labelLimit": 0},
        "title": {"fontSize": title, "anchor": "start", "offset": 10 + note_px * bool(note_lines)},
        "text": {"fontSize": text},
        # -- why a style -- the note's lines sit above the plot area, and their place
        # depends on the text size: it is set here, with the sizes it follows
        "style": {NOTE: {"y": -note_px, "baseline": "top", "lineHeight": line}},
    }


def for_presenter(spec: Spec, factor: float) -> Spec:
    """The chart for a projector: every text ``factor`` times larger, and a note
    written above the plot left out, as every explanation is in presenter mode
    (the sentence under the chart stays)."""
    if spec["usermeta"]["note_lines"]:
        spec["layer"] = [la for la in spec["layer"] if la.get("data") != {"name": NOTE}]
        del spec["datasets"][NOTE]
    spec["usermeta"]["note_lines"] = 0
    if spec["usermeta"].get(LONG_LABELS):
        _lay_down(spec)
    spec["config"] = _config(factor)
    return spec


def _lay_down(spec: Spec) -> None:
    """Bars laid on their side: the groups' long labels read level and whole down the
    left, instead of slanted and cut short under the chart at a room's text size."""
    enc = spec["encoding"]
    enc["x"], enc["y"] = enc["y"], enc["x"]
    enc["yOffset"] = enc.pop("xOffset")
    enc["y"]["axis"] = {"labelAngle": 0, "labelLimit": 0}


def _chart(
    title: str | None, height: int, datasets: dict[str, list], note_lines: int = 0, **spec: Any
) -> Spec:
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        **({"title": title} if title else {}),
        "height": height,  # the whole chart: the plot area fits in with its axes and legend
        "width": "container",
        "autosize": {"type": "fit", "contains": "padding"},
        # room around the drawing: a title's or an axis title's glyphs at the edge
        # would otherwise be cut by the chart's box
        "padding": {"left": 6, "right": 6, "top": 6, "bottom": 6},
        "datasets": datasets,
        "config": _config(1.0, note_lines),
        "usermeta": {"note_lines": note_lines},
        **spec,
    }


def _bar_chart(title: str, height: int, rows: list[dict], encoding: dict[str, Any]) -> Spec:
    """A bar per row of ``rows`` (the dataset "bars"), placed and coloured by ``encoding``."""
    return _chart(
        title,
        height,
        {"bars": rows},
        data={"name": "bars"},
        mark={"type": "bar"},
        encoding=encoding,
    )


def _legend_below(columns: int) -> dict[str, Any]:
    return {"orient": "bottom", "columns": columns, "title": None}


def _strategy_scale(names: Sequence[str]) -> dict[str, Any]:
    return {
        "domain": [sweeps.display_name(n) for n in names],
        "range": [palette.strategy_colour(n) for n in names],
    }


def strategy_bars(values: Mapping[str, float], height: int) -> Spec:
    """One bar per strategy, its share (0 to 1) written on it as a percentage."""
    names = list(values)
    rows = [
        {"strategy": sweeps.display_name(n), "share": values[n], "label": f"{values[n]:.0%}"}
        for n in names
    ]
    x = {"field": "strategy", "type": "nominal", "sort": None, "axis": {"labelAngle": 0}}
    x["title"] = None
    y = {
        "field": "share",
        "type": "quantitative",
        "scale": {"domain": [0, 1.15]},  # room for the label over a full bar
        "axis": {"format": ".0%", "tickCount": AXIS_TICKS, "values": [0, 0.25, 0.5, 0.75, 1]},
        "title": None,
    }
    return _bars_with_values(
        None,
        height,
        rows,
        x=x,
        y=y,
        colour={"field": "strategy", "scale": _strategy_scale(names)},
        tooltip=[{"field": "strategy"}, {"field": "label", "title": "intact"}],
        value_mark={"baseline": "bottom", "dy": -3},
        value={"field": "label"},
    )


def _bars_with_values(
    title: str | None,
    height: int,
    rows: list[dict[str, Any]],
    *,
    x: dict[str, Any],
    y: dict[str, Any],
    colour: dict[str, Any],
    tooltip: list[dict[str, Any]],
    value_mark: dict[str, Any],
    value: dict[str, Any],
) -> Spec:
    """Bars coloured by ``colour`` (its field and scale; no legend, the axis names each
    bar), each with its ``value`` written by it (``value_mark``: where the text sits)."""
    colour = {**colour, "type": "nominal", "legend": None}
    return _chart(
        title,
        height,
        {"bars": rows},
        data={"name": "bars"},
        layer=[
            {
                "mark": {"type": "bar"},
                "encoding": {"x": x, "y": y, "color": colour, "tooltip": tooltip},
            },
            {
                "mark": {"type": "text", **value_mark},
                "encoding": {"x": x, "y": y, "text": value},
            },
        ],
    )


def score_bars(rows: Sequence[ScoreRow], height: int) -> Spec:
    """BM25 score per chunk, coloured by what the chunk is (holds the answer, runt…)."""
    bars = [
        {
            "chunk": r.number,
            "score": r.score,
            "kind": r.category,
            "rank": r.rank,
            "length": r.length,
        }
        for r in rows
    ]
    return _bar_chart(
        "BM25 score per chunk",
        height,
        bars,
        {
            "x": {"field": "chunk", "type": "ordinal", "axis": {"labelAngle": 0}},
            "y": {"field": "score", "type": "quantitative", "title": "BM25 score"},
            "color": _category_colour(
                [c for c in CATEGORIES if c in {r.category for r in rows}], _legend_below(2)
            ),
            "tooltip": [
                {"field": "chunk"},
                {"field": "score", "format": ".3f", "title": "BM25"},
                {"field": "rank"},
                {"field": "length"},
            ],
        },
    )


def _category_colour(kinds: list[str], legend: dict[str, Any]) -> dict[str, Any]:
    colours = {THEORY_KIND: palette.THEORY, **palette.CATEGORY_COLOURS}
    return {
        "field": "kind",
        "type": "nominal",
        "scale": {"domain": kinds, "range": [colours[k] for k in kinds]},
        "legend": legend,
    }


def score_vs_length(
    rows: Sequence[ScoreRow],
    curve: TheoryCurve,
    unit: str,
    height: int,
) -> Spec:
    """BM25 score against chunk length, points by category, with the theoretical curve."""
    points = [
        {"length": r.length, "score": r.score, "kind": r.category, "chunk": r.number} for r in rows
    ]
    theory = [
        {"length": x, "score": y, "kind": THEORY_KIND}
        for x, y in zip(curve.lengths, curve.scores, strict=True)
    ]
    # the legend names the kinds on the chart (the spec changes only when they do)
    present = {r.category for r in rows}
    kinds = [THEORY_KIND] * bool(theory) + [c for c in CATEGORIES if c in present]
    colour = _category_colour(kinds, _legend_below(3))
    x = {"field": "length", "type": "quantitative", "title": f"chunk length ({unit})"}
    y = {"field": "score", "type": "quantitative", "title": "BM25 score"}
    # one row, its lines broken by Vega: the spacing follows the text size
    note = [{"line": "\n".join(curve.chart_lines)}] if curve.chart_lines else []
    return _chart(
        "Score against length",
        height,
        {"theory": theory, "points": points, NOTE: note},
        NOTE_LINES,
        layer=[
            {
                # -- why -- above the plot area, under the title: never on top of a point
                "data": {"name": NOTE},
                "mark": {
                    "type": "text",
                    "style": NOTE,
                    "align": "left",
                    "lineBreak": "\n",
                    "x": 0,
                },
                "encoding": {"text": {"field": "line"}},
            },
            {
                "data": {"name": "theory"},
                "mark": {"type": "line", "strokeDash": [2, 4], "strokeWidth": 3},
                "encoding": {"x": x, "y": y, "color": colour},
            },
            {
                "data": {"name": "points"},
                "mark": {
                    "type": "point",
                    "filled": True,
                    "size": 120,
                    "stroke": "#333",
                    "strokeWidth": 1,
                    "opacity": 1,
                },
                "encoding": {
                    "x": x,
                    "y": y,
                    "color": colour,
                    "tooltip": [
                        {"field": "chunk"},
                        {"field": "length"},
                        {"field": "score", "format": ".3f", "title": "BM25"},
                    ],
                },
            },
        ],
    )


def length_histogram(
    lengths: Sequence[int],
    floor: int,
    effective_max: int,
    unit: str,
    strategy: str,
    height: int,
) -> Spec:
    """Chunk lengths in 30 bins, with the runt floor and the effective maximum marked."""
    limits = [
        {"at": floor, "label": f"floor {floor}", "kind": "floor"},
        {"at": effective_max, "label": f"max {effective_max}", "kind": "max"},
    ]
    x_title = f"chunk length ({unit})"
    axis = {"tickCount": 10, "format": "d"}
    limit_colour = {
        "field": "kind",
        "type": "nominal",
        "scale": {"domain": ["floor", "max"], "range": [palette.RUNT, palette.CURRENT]},
        "legend": None,
    }
    return _chart(
        "Chunk lengths",
        height,
        {"lengths": [{"length": n} for n in lengths], "limits": limits},
        layer=[
            {
                "data": {"name": "lengths"},
                # -- why binned by hand -- an axis over Vega-Lite's own bins shows only
                # the bin edges (23.0, 25.0, …); these bars sit on an ordinary axis
                "transform": [
                    {"bin": {"maxbins": 30}, "field": "length", "as": ["lo", "hi"]},
                    {"aggregate": [{"op": "count", "as": "chunks"}], "groupby": ["lo", "hi"]},
                ],
                "mark": {"type": "bar", "color": palette.strategy_colour(strategy)},
                "encoding": {
                    "x": {"field": "lo", "type": "quantitative", "title": x_title, "axis": axis},
                    "x2": {"field": "hi"},
                    "y": {"field": "chunks", "type": "quantitative", "title": "chunks"},
                    "y2": {"datum": 0},
                    "tooltip": [
                        {"field": "lo", "title": "from"},
                        {"field": "hi", "title": "to"},
                        {"field": "chunks"},
                    ],
                },
            },
            {
                "data": {"name": "limits"},
                "mark": {"type": "rule", "strokeWidth": 2, "strokeDash": [6, 4]},
                "encoding": {
                    "x": {"field": "at", "type": "quantitative", "title": x_title},
                    "color": limit_colour,
                },
            },
            *(
                {
                    "data": {"name": "limits"},
                    "transform": [{"filter": {"field": "kind", "equal": kind}}],
                    "mark": {"type": "text", "baseline": "top", "y": 2, "align": align, "dx": dx},
                    "encoding": {
                        "x": {"field": "at", "type": "quantitative", "title": x_title},
                        "text": {"field": "label"},
                        "color": limit_colour,
                    },
                }
                # the labels beside their lines: the floor's to the left, the max's right
                for kind, align, dx in (("floor", "right", -4), ("max", "left", 4))
            ),
        ],
        resolve={"scale": {"color": "independent"}},
    )


def recall_bars(
    recall: Mapping[str, Mapping[int, float]],
    mrr: Mapping[str, float],
    height: int,
) -> Spec:
    """Recall@k and MRR, a group of bars per measure, one bar per strategy.

    -- why no numbers on the bars -- sixteen bars share a third of the page: a
    label would not fit upright at a readable size, and the table beside the
    chart has every number (a pointer over a bar shows it too)."""
    names = list(recall)
    rows = [
        {"measure": label, "value": value, "strategy": sweeps.display_name(n)}
        for n in names
        for label, value in [*((f"recall@{k}", v) for k, v in recall[n].items()), ("MRR", mrr[n])]
    ]
    measures = list(dict.fromkeys(r["measure"] for r in rows))
    return _bar_chart(
        "Recall@k and MRR per strategy",
        height,
        rows,
        {
            "x": {
                "field": "measure",
                "type": "nominal",
                "sort": measures,
                "axis": {"labelAngle": 0},
                "title": None,
            },
            "xOffset": {"field": "strategy", "type": "nominal", "sort": None},
            "y": {
                "field": "value",
                "type": "quantitative",
                "scale": {"domain": [0, 1.05]},
                "axis": {"tickCount": AXIS_TICKS},
                "title": None,
            },
            "color": {
                "field": "strategy",
                "type": "nominal",
                "scale": _strategy_scale(names),
                "legend": _legend_below(2),  # a third of the page wide
            },
            "tooltip": [
                {"field": "strategy"},
                {"field": "measure"},
                {"field": "value", "format": ".2f"},
            ],
        },
    )


# --------------------------------------------------------------------------- the lessons


def labelled_bars(
    title: str,
    rows: Sequence[Mapping[str, Any]],
    category: str,
    value: str,
    colours: Mapping[str, str],
    height: int,
    value_title: str,
) -> Spec:
    """One horizontal bar per row, its value written beside it, coloured by category
    (the small-to-big context bars: what each way of delivering sends)."""
    names = [str(r[category]) for r in rows]
    scale = {"domain": names, "range": [colours[n] for n in names]}
    y = {"field": category, "type": "nominal", "sort": None, "title": None}
    x = {"field": value, "type": "quantitative", "title": value_title}
    return _bars_with_values(
        title,
        height,
        [dict(r) for r in rows],
        x=x,
        y=y,
        colour={"field": category, "scale": scale},
        tooltip=[{"field": category}, {"field": value, "format": ","}],
        value_mark={"align": "left", "dx": 4},
        value={"field": value, "format": ","},
    )


def paired_bars(
    title: str,
    rows: Sequence[Mapping[str, Any]],
    group: str,
    series: str,
    value: str,
    colours: Mapping[str, str],
    height: int,
    value_title: str,
) -> Spec:
    """Bars side by side per group, one per series (the boilerplate lab's score
    spread per question, as given and stripped), on a 0 to 1 scale. The groups' labels
    are long: in presenter mode the bars lie on their side (``for_presenter``)."""
    names = list(colours)
    spec = _bar_chart(
        title,
        height,
        [dict(r) for r in rows],
        {
            "x": {"field": group, "type": "nominal", "sort": None, "title": None,
                  "axis": {"labelAngle": -30, "labelLimit": 220}},
            "xOffset": {"field": series, "type": "nominal", "sort": names},
            "y": {
                "field": value,
                "type": "quantitative",
                "scale": {"domain": [0, 1]},
                "title": value_title,
            },
            "color": {
                "field": series,
                "type": "nominal",
                "scale": {"domain": names, "range": [colours[n] for n in names]},
                "legend": _legend_below(len(names)),
            },
            "tooltip": [{"field": group}, {"field": series}, {"field": value, "format": ".3f"}],
        },
    )  # fmt: skip
    spec["usermeta"][LONG_LABELS] = True
    return spec


def histogram_against_baseline(
    edges: Sequence[float],
    now: Sequence[int],
    baseline: Sequence[int],
    now_label: str,
    baseline_label: str,
    unit: str,
    height: int,
) -> Spec:
    """The length histogram as shares of chunks per bin (``edges``, plus one bin past
    the last edge), this document's bars under the baseline's outline: a shifted
    histogram is the first sign that a source's extraction changed."""
    width = edges[1] - edges[0] if len(edges) > 1 else 1.0
    los = [*edges[:-1], edges[-1]]

    def shares(counts: Sequence[int], label: str) -> list[dict]:
        total = sum(counts) or 1
        return [
            {"lo": lo, "hi": lo + width, "share": n / total, "chunks": n, "run": label}
            for lo, n in zip(los, counts, strict=True)
        ]

    x = {"field": "lo", "type": "quantitative", "title": f"chunk length ({unit})",
         "axis": {"tickCount": 10, "format": "d"}}  # fmt: skip
    y = {"field": "share", "type": "quantitative", "title": "share of chunks",
         "axis": {"format": ".0%"}}  # fmt: skip
    colour = {
        "field": "run",
        "type": "nominal",
        "scale": {"domain": [now_label, baseline_label], "range": [palette.OKABE_ITO["blue"],
                                                                   palette.CURRENT]},
        "legend": _legend_below(2),
    }  # fmt: skip
    tooltip = [{"field": "run"}, {"field": "lo", "title": "from"}, {"field": "hi", "title": "to"},
               {"field": "share", "format": ".1%"}, {"field": "chunks"}]  # fmt: skip
    return _chart(
        "Chunk lengths against the baseline",
        height,
        {"now": shares(now, now_label), "baseline": shares(baseline, baseline_label)},
        layer=[
            {
                "data": {"name": "now"},
                "mark": {"type": "bar", "opacity": 0.8},
                "encoding": {"x": x, "x2": {"field": "hi"}, "y": y, "y2": {"datum": 0},
                             "color": colour, "tooltip": tooltip},
            },
            {
                "data": {"name": "baseline"},
                "mark": {"type": "line", "interpolate": "step-after", "strokeWidth": 3,
                         "point": True},
                "encoding": {"x": x, "y": y, "color": colour, "tooltip": tooltip},
            },
        ],
    )  # fmt: skip


# --------------------------------------------------------------------------- the two judges


def _series_colour(field: str, colours: Mapping[str, str], columns: int) -> dict[str, Any]:
    names = list(colours)
    return {
        "field": field,
        "type": "nominal",
        "scale": {"domain": names, "range": [colours[n] for n in names]},
        "legend": _legend_below(columns),
    }


def _series_lines(
    data: str,
    x: dict[str, Any],
    y: dict[str, Any],
    colour: dict[str, Any],
    tooltip: list[dict[str, Any]],
) -> dict[str, Any]:
    """A layer of lines with their points, one a series (``colour``), from the dataset
    ``data``: how the lessons draw a measurement against chunk size."""
    return {
        "data": {"name": data},
        "mark": {"type": "line", "point": True, "strokeWidth": 3},
        "encoding": {"x": x, "y": y, "color": colour, "tooltip": tooltip},
    }


def muddy_chart(
    points: Sequence[Mapping[str, Any]],
    crossings: Sequence[Mapping[str, Any]],
    colours: Mapping[str, str],
    unit: str,
    height: int,
) -> Spec:
    """The answer's chunk as each judge sees it against chunk size: each curve in its
    own range (0 to 1), the sizes where they cross marked with a rule."""
    x = {"field": "size", "type": "quantitative", "title": f"chunk size ({unit})"}
    y = {
        "field": "value",
        "type": "quantitative",
        "scale": {"domain": [0, 1.05]},
        "axis": {"tickCount": AXIS_TICKS, "format": ".0%"},
        "title": "share of its own range",
    }
    return _chart(
        "The answer's chunk, judged at each size",
        height,
        {"curves": [dict(p) for p in points], "crossings": [dict(c) for c in crossings]},
        layer=[
            {
                "data": {"name": "crossings"},
                "mark": {"type": "rule", "strokeDash": [4, 4], "color": palette.CURRENT},
                "encoding": {"x": {"field": "size", "type": "quantitative"}},
            },
            {
                "data": {"name": "crossings"},
                "mark": {"type": "text", "align": "left", "dx": 4, "baseline": "top", "y": 2},
                "encoding": {
                    "x": {"field": "size", "type": "quantitative"},
                    "text": {"field": "label"},
                },
            },
            _series_lines(
                "curves",
                x,
                y,
                _series_colour("curve", colours, 2),
                [
                    {"field": "curve"},
                    {"field": "size"},
                    {"field": "raw", "format": ".3f", "title": "value"},
                    {"field": "value", "format": ".0%", "title": "of its range"},
                ],
            ),
        ],
    )


def topics_chart(
    points: Sequence[Mapping[str, Any]],
    midpoints: Sequence[Mapping[str, Any]],
    second_from: int | None,
    colours: Mapping[str, str],
    height: int,
) -> Spec:
    """A chunk growing from one passage to hold a second: its cosine with each
    passage's question, and (dashed) where the midpoint of the two topics lands."""
    x = {"field": "chars", "type": "quantitative", "title": "chunk length (chars)"}
    y = {"field": "cosine", "type": "quantitative", "title": "cosine with the question"}
    entering = [] if second_from is None else [{"chars": second_from, "label": "second passage"}]
    return _chart(
        "Two topics in one chunk",
        height,
        {
            "cosines": [dict(p) for p in points],
            "midpoints": [dict(m) for m in midpoints],
            "entering": entering,
        },
        layer=[
            {
                "data": {"name": "entering"},
                "mark": {"type": "rule", "strokeDash": [2, 3], "color": palette.OTHER},
                "encoding": {"x": {"field": "chars", "type": "quantitative"}},
            },
            {
                "data": {"name": "entering"},
                "mark": {
                    "type": "text",
                    "align": "left",
                    "dx": 4,
                    "baseline": "top",
                    "y": 2,
                    "color": palette.OTHER,
                },
                "encoding": {
                    "x": {"field": "chars", "type": "quantitative"},
                    "text": {"field": "label"},
                },
            },
            {
                "data": {"name": "midpoints"},
                "mark": {"type": "rule", "strokeDash": [6, 4], "strokeWidth": 2},
                "encoding": {"y": y, "color": _series_colour("question", colours, 1)},
            },
            _series_lines(
                "cosines",
                x,
                y,
                _series_colour("question", colours, 1),
                [
                    {"field": "question"},
                    {"field": "chars", "title": "chunk length"},
                    {"field": "cosine", "format": ".3f"},
                ],
            ),
        ],
    )
