"""Lab 9: small to big (parent-document retrieval): match on children, send their parents."""

import streamlit as st

from lab.measure.diff import ConfigError
from lab.measure.small_to_big import parse_tiers
from lab.report.markup import md_escape
from ui import cached_lessons, chunk_panel, frame, judge_choice, palette, tables
from ui.present import controls, lessons, sweeps, vega_charts

INTRO = """
Small chunks embed sharply; big chunks read usefully. **Small to big** stops using one unit for
both: it ranks small *children* (here the structural chunker at the child size, cut inside
each parent) and sends the model their *parents* (the structural chunker at the parent size:
sections, or pieces of a long one, never longer than the parent size's effective maximum).
Two rules make it work: **deduplicate at the parent level** (three sibling children give one
parent, not three copies) and **cap the parent's size**. The sidebar's settings are the
plain chunks it is compared with, and the context is counted in the sidebar's unit.
"""

COLOURS = {
    lessons.ARM_LABELS["children"]: palette.OKABE_ITO["sky_blue"],
    lessons.WITHOUT_DEDUPE: palette.OTHER,
    lessons.ARM_LABELS["parents"]: palette.OKABE_ITO["blue"],
    lessons.ARM_LABELS["chunks"]: palette.OKABE_ITO["vermillion"],
    lessons.ARM_LABELS["chunks at the parents' budget"]: palette.OKABE_ITO["orange"],
}


def _controls(ctx):
    controls.ensure(st.session_state, "small-to-big")
    for c in (controls.CHILD_SIZE, controls.PARENT_SIZE):  # a restored pin's value is a float
        st.session_state[c.key] = int(st.session_state[c.key])
    child_col, parent_col, k_col = st.columns(3)
    child = child_col.number_input(
        controls.CHILD_SIZE.label, min_value=1, step=10, key=controls.CHILD_SIZE.key
    )
    parent = parent_col.number_input(
        controls.PARENT_SIZE.label, min_value=1, step=100, key=controls.PARENT_SIZE.key
    )
    k = k_col.select_slider(
        controls.S2B_K.label, options=list(controls.S2B_K.options), key=controls.S2B_K.key
    )
    judge = judge_choice.loaded(
        judge_choice.judges_row(controls.S2B_RETRIEVER), ctx.text, ctx.question
    )
    return int(child), int(parent), k, judge


def _question(ctx, spec, plain, k, judge, extra):
    res = cached_lessons.resolution(ctx.text, spec, plain, ctx.question, k, judge)
    parents, unit = len(res.parents), ctx.unit
    line = (
        f"The top {len(res.hits)} children resolve to {parents} parent(s): the dedupe left out "
        f"{res.duplicates} duplicate(s). Context sent: {res.size('parents'):,} {unit} "
        f"({res.size_without_dedupe:,} without the dedupe; {res.size('chunks'):,} for the top "
        f"{len(res.chunks)} plain chunks)."
    )
    st.info(md_escape(line))
    left, right = frame.columns([3, 2])  # in presenter mode the table has the page's width
    with left:
        tables.wrapping_table(lessons.hit_rows(res, ctx.answer))
    with right:
        frame.vega(
            vega_charts.labelled_bars(
                "Context sent for this question",
                lessons.context_rows(res),
                "delivered",
                "context",
                COLOURS,
                frame.chart_height(1),
                f"context ({unit})",
            )
        )
    budget = res.size("parents")
    frame.explain(
        f"The budget row spends the parents' {budget:,} {unit} on plain chunks instead, best "
        "first, for as long as they fit. A parent longer than the cap would be sent as a window "
        "around its child."
    )
    extra.update(
        {
            "parents sent": parents,
            "duplicates removed": res.duplicates,
            f"context ({unit})": res.size("parents"),
            f"context without dedupe ({unit})": res.size_without_dedupe,
        }
    )


def _gold(ctx, spec, plain, k, judge, extra):
    questions = ctx.answered()
    if questions:
        r = cached_lessons.small_to_big_report(ctx.text, spec, plain, questions, k, judge)
        st.subheader(f"{ctx.doc_label}'s gold set, k = {k}")
        tables.wrapping_table(lessons.gold_rows(r))
        with st.expander("Each question"):
            tables.wrapping_table(lessons.question_rows(r))
        extra.update({f"parents recall@{k}": round(r.recall("parents"), 3)})
    everything = cached_lessons.samples_report(spec, plain, k, judge)
    st.subheader(f"Every sample's gold set ({len(everything.results)} questions), k = {k}")
    tables.wrapping_table(lessons.gold_rows(everything))
    frame.explain(
        f"recall@{k}: a question is found when what is sent holds its answer whole; coverage: "
        "the share of the answer's characters in what is sent; mean context: what is sent per "
        f"question, in {ctx.unit}. The dedupe removed {everything.duplicates} duplicate "
        f"parent(s) over these questions: {everything.mean_size_without_dedupe:,.0f} -> "
        f"{everything.mean_size('parents'):,.0f} {ctx.unit} per question. Ranked by "
        f"{everything.retriever}."
    )


def body(ctx):
    child, parent, k, judge = _controls(ctx)
    spec = cached_lessons.tiers_spec(child, parent, ctx.unit)
    extra = {"child size": child, "parent size": parent, "k": k}
    try:
        parse_tiers(spec)
    except ConfigError as e:
        st.error(frame.one_line(e))
    else:
        if ctx.origin.imported:
            chunk_panel.not_for_imported_chunks(
                ctx,
                "Small to big compares children and parents with the sidebar's plain chunks "
                "at the same budget; your chunks were made elsewhere, at no size of ours. Pick "
                "a strategy in the sidebar to compare; the chunk view below shows yours.",
                key="lab9",
                slug="small-to-big",
                extra=extra,
            )
            return
        plain = sweeps.config_string(ctx.strategy, ctx.unit, ctx.size, ctx.overlap)
        if ctx.question:
            _question(ctx, spec, plain, k, judge, extra)
        else:
            st.info("Type a question in the sidebar to rank the children.")
        _gold(ctx, spec, plain, k, judge, extra)
    view = chunk_panel.chunk_view(ctx, key="lab9")
    chunk_panel.footer(ctx, "small-to-big", view, extra)


frame.run_lab("small-to-big", INTRO, body)
