"""Lab 8: compare two configurations on the current document (the chunk-population diff)."""

import json

import streamlit as st

from chunkers.registry import OFFERED
from lab.inputs.placement import PlacementError
from lab.measure.budget import BudgetTooSmall
from lab.measure.diff import ConfigError
from lab.report.diff_render import chunk_label, figures, to_json, to_markdown, verdict
from lab.report.markup import md_escape
from ui import cached, exports, frame, judge_choice, tables
from ui.present import controls, glossary, judge_rows, sweeps

INTRO = """
Before a chunking change ships, **diff the chunk populations** of the old configuration and the
new one, then read the chunks that changed most. **A** is the sidebar's settings; choose **B**
below. A table fragment that lost its header, a code block split, a heading stranded at a
chunk's end and a sentence cut mid-way are each counted, and B is worse than A as soon as one
of those rates rises (or, with a gold set, fewer answers stay intact).
"""
KEYS = {"strategy": "lab8_strategy", "unit": "lab8_unit", "size": "lab8_size"}
OVERLAP_KEY = "lab8_overlap"
LIMIT = 20


def _seed_b(ctx) -> None:
    """B starts as A with the other strategy family (structural against your chunks), so
    the first view shows a difference."""
    ss = st.session_state
    if KEYS["strategy"] not in ss:
        other = ctx.strategy == "fixed" or ctx.origin.imported
        ss[KEYS["strategy"]] = "structural" if other else "fixed"
        ss[KEYS["unit"]] = ctx.unit
        ss[KEYS["size"]] = ctx.size
        ss[OVERLAP_KEY] = ctx.overlap


def _config_b() -> str:
    cols = st.columns(4)
    cols[0].selectbox(
        "B: strategy",
        list(OFFERED),
        key=KEYS["strategy"],
        format_func=sweeps.display_name,
    )
    cols[1].selectbox("B: unit", sweeps.APP_UNITS, key=KEYS["unit"])
    cols[2].number_input("B: size", min_value=1, step=1, key=KEYS["size"])
    cols[3].number_input("B: overlap (below the size)", min_value=0, step=1, key=OVERLAP_KEY)
    ss = st.session_state
    return sweeps.config_string(
        ss[KEYS["strategy"]], ss[KEYS["unit"]], ss[KEYS["size"]], ss[OVERLAP_KEY]
    )


def _figure(fig) -> None:
    st.subheader(fig.title, help=glossary.help_for(fig.title))
    tables.table(
        [dict(zip([c or "figure" for c in fig.columns], row, strict=True)) for row in fig.rows],
        height=35 * (len(fig.rows) + 1) + 3,  # every row in view, no inner scroll bar
    )


def _budget() -> int:
    """The context budget both sides are compared at (0: the cheaper side's cost at k)."""
    controls.ensure(st.session_state, "compare")
    key = controls.COMPARE_BUDGET.key
    st.session_state[key] = int(st.session_state[key])  # a restored pin's value is a float
    return int(st.number_input(controls.COMPARE_BUDGET.label, min_value=0, step=50, key=key))


def _pair(report, n: int, p) -> None:
    title = f"{n}. {p.moved:,} characters moved ({p.change:.0%} of the two spans)"
    st.markdown(f"**{md_escape(title)}**")
    left, right = st.columns(2)
    for col, side, c, s in ((left, "A", p.a, report.a), (right, "B", p.b, report.b)):
        with col:
            broken = s.violations.by_chunk.get((p.doc, c.index), ()) if c else ()
            label = chunk_label(side, c, s.config.unit)
            st.caption(md_escape(label + (" · breaks: " + ", ".join(broken) if broken else "")))
            if c is not None:
                st.code(c.body, language=None, wrap_lines=True)


def body(ctx):
    imported = ctx.origin.imported
    if imported:  # -- your chunks against a chunking you could switch to
        config_a = ctx.strategy
        st.markdown(
            "**A** (the sidebar): your chunks, measured in B's unit. What would change "
            "if your pipeline switched to B?"
        )
    else:
        config_a = sweeps.config_string(ctx.strategy, ctx.unit, ctx.size, ctx.overlap)
        st.markdown(f"**A** (the sidebar): `{config_a}`")
    _seed_b(ctx)
    config_b = _config_b()
    budget = _budget()
    try:
        report = cached.diff_report(
            ctx.text, ctx.doc_label, config_a, config_b, ctx.answered(), LIMIT, budget or None
        )
    except BudgetTooSmall as e:
        st.error(frame.one_line(e))
        return
    except ConfigError as e:
        st.error(f"B is not a configuration: {frame.one_line(e)}")
        return
    except PlacementError as e:
        st.error(f"Your chunks cannot be compared: {frame.one_line(e)}")
        return
    line = verdict(report)
    (st.error if report.worse else st.success)(md_escape(line))
    sizes, *rest = figures(report)
    left, right = st.columns([2, 3])
    with left:
        _figure(sizes)
    with right:
        for fig in rest:
            _figure(fig)
    tops = _top_scores(ctx, config_a, config_b)
    st.subheader(f"The {len(report.changed)} most-changed chunks")
    frame.explain(
        f"{report.pairs:,} pairs of A and B chunks, {report.unchanged:,} with the same span. "
        "Each A chunk is paired with the B chunk it shares most characters with (and each "
        "unchosen B chunk with its best A chunk); the pairs that moved most characters come first."
    )
    for n, p in enumerate(report.changed, start=1):
        _pair(report, n, p)
    va, vb = report.a.violations.total, report.b.violations.total
    numbers = {
        "B": config_b,
        **(
            {
                "top score A": judge_rows.score_text(tops[0]),
                "top score B": judge_rows.score_text(tops[1]),
            }
            if tops
            else {}
        ),
        "A violations": f"{va.violations} of {va.out_of}",
        "B violations": f"{vb.violations} of {vb.out_of}",
        "chunks A / B": f"{report.a.sizes.count} / {report.b.sizes.count}",
    }
    exports.pin_box(ctx, "compare", line, numbers)
    stem = f"diff_{ctx.doc_name or 'upload'}_{config_a}_{config_b}".replace(":", "-")
    exports.download_buttons(
        stem,
        "lab8",
        [
            ("Export the diff (Markdown)", to_markdown(report), "md"),
            ("Export the diff (JSON)", _json_text(report), "json"),
        ],
    )


def _top_scores(ctx, config_a: str, config_b: str):
    """The same question's top BM25 score under A and under B, and why they differ."""
    st.subheader("The same question, scored under A and under B")
    if not ctx.question:
        st.info("Pick a question in the sidebar to see its top score under A and under B.")
        return None
    variant = judge_choice.bm25_switch()
    a, b = cached.top_score_pair(ctx.text, config_a, config_b, ctx.question, ctx.answer, variant)
    st.markdown(
        f"“{md_escape(ctx.question)}”: top score **{judge_rows.score_text(a)}** under A, "
        f"**{judge_rows.score_text(b)}** under B."
    )
    st.warning(judge_rows.NOT_COMPARABLE)
    tables.full_table(judge_rows.score_scale_rows(a, b))
    return a, b


def _json_text(report) -> str:
    return json.dumps(to_json(report), ensure_ascii=False, indent=2)


frame.run_lab("compare", INTRO, body)
