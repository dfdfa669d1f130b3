"""Lab 6's length histogram, alone or over a saved baseline (`stats DIR --save-baseline`):
a source whose extraction changed shows first as a shifted histogram."""

from __future__ import annotations

from typing import Any

import streamlit as st

from lab.measure import drift
from lab.measure.stats import LengthStats
from lab.report.markup import md_escape
from ui import cached_lessons, frame
from ui.present import vega_charts

BASELINE_KEY = "lab6_baseline"
SOURCE_KEY = "lab6_baseline_source"


def histogram(ctx: Any, lengths: list[int], stats: LengthStats) -> None:
    """The histogram, with the uploaded baseline's outline over it when there is one."""
    upload = st.file_uploader(
        "Overlay a saved baseline (.json from `python -m lab stats DIR --save-baseline FILE`)",
        type=["json"],
        key=BASELINE_KEY,
    )
    snap = None
    if upload is not None:
        try:
            snap = cached_lessons.baseline(upload.getvalue(), upload.name)
        except drift.BaselineError as e:
            st.error(frame.one_line(e))
        else:
            if snap.config["unit"] != ctx.opts.unit:
                st.warning(
                    md_escape(
                        f"{upload.name} counts {snap.config['unit']}; set the unit to "
                        f"{snap.config['unit']} to overlay it."
                    )
                )
                snap = None
    if snap is None:
        frame.vega(
            vega_charts.length_histogram(
                lengths, stats.floor, stats.effective_max, ctx.unit, ctx.strategy,
                frame.chart_height(),
            )
        )  # fmt: skip
        return
    sources = [drift.ALL, *snap.sources]
    source = st.selectbox("Baseline source", sources, key=SOURCE_KEY)
    base = snap.everything if source == drift.ALL else snap.sources[source]
    mine = drift.config_of(ctx.strategy, ctx.opts)
    theirs = {k: v for k, v in snap.config.items() if k in mine}
    if theirs != {k: mine[k] for k in theirs}:
        st.caption(
            md_escape(
                f"The baseline was saved for {drift.config_label(snap.config)}, the sidebar is "
                f"{drift.config_label(mine)}: the shapes differ for that reason too."
            )
        )
    frame.vega(
        vega_charts.histogram_against_baseline(
            snap.edges,
            drift.histogram_on(lengths, snap.edges),
            base.histogram,
            ctx.doc_label,
            f"baseline: {source} ({base.chunks:,} chunks)",
            ctx.unit,
            frame.chart_height(),
        )
    )
