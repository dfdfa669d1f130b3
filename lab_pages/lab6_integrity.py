"""Lab 6: the integrity check (the survival diagnostic over a gold set)."""

import streamlit as st

from chunkers import STRATEGIES
from lab.inputs.gold import (
    GoldFileError,
    GoldQuestion,
    parse_gold_text,
    same_question,
    unique_questions,
)
from lab.report.markup import md_escape
from ui import controls, data, drift_view, glossary, shell, state, vega_charts
from ui.views import sweeps

INTRO = """
Build the diagnostic: for a set of known question/answer pairs, **assert the answer text
appears intact in at least one chunk**. It is a substring search, needs no model and runs at
index time. It separates *the chunk does not exist* from *the chunk exists and ranks poorly*,
then recall@k and MRR measure the ranking half. Watch the length histogram too: a shifted
histogram is the earliest signal that extraction changed.
"""


def _gold(ctx):
    """The gold questions: the sample's gold file or the upload's, plus your own question.

    An upload's gold file is kept for that upload, so every lab (and the question
    picker) uses it after it is loaded here; a question is listed once."""
    questions = list(ctx.answered())
    if ctx.doc_name is None:
        f = st.file_uploader(
            'Gold set for this upload (.jsonl: one {"question", "answer"} a line)',
            type=["jsonl", "json", "txt"],
            key="lab6_gold",
        )
        if f is not None:
            try:
                gs = parse_gold_text(f.getvalue(), f.name)
            except GoldFileError as e:
                st.error(shell.one_line(e))
            else:
                if gs.bad_lines:  # line numbers, and the good lines are used
                    st.warning(md_escape(gs.problem_line(f.name)))
                answered = [p for p in gs.questions if p.answer]
                by_passage = len(gs.questions) - len(answered)
                if by_passage:  # this lab checks answers; the CLI measures passages
                    st.info(
                        f"{by_passage} line(s) list passages instead of an answer: "
                        "`python -m lab check` measures those (recall and coverage@k)."
                    )
                st.session_state[state.UPLOAD_GOLD] = (
                    st.session_state.get(state.UPLOAD_ID),
                    f.name,
                    answered,
                )
                questions += [GoldQuestion(p.question, p.answer) for p in answered]
        elif ctx.gold:
            name = st.session_state[state.UPLOAD_GOLD][1]
            st.caption(f"Gold set: {len(ctx.gold)} pair(s) from {md_escape(name)}, loaded earlier.")
    if ctx.qa_source == "own" and ctx.question and ctx.answer:
        if any(same_question(ctx.question, q.question) for q in questions):
            st.caption("Your question is already in the gold set: it is listed once.")
        questions.append(GoldQuestion(ctx.question, ctx.answer))
    return unique_questions(questions)


def _summary(reports, k) -> list[dict]:
    """The strategy table: every recall@k, or in presenter mode the chosen k's only
    (every column must fit beside the chart at a room's text size; the chart beside
    it has every k)."""
    ks = [k] if state.presenter() else list(next(iter(reports.values())).recall)
    return [
        {
            "strategy": STRATEGIES[n].display_name,
            **({} if state.presenter() else {"chunks": r.chunk_count}),
            "intact": f"{r.intact_rate:.0%}",
            **{f"recall@{kk}": round(r.recall[kk], 2) for kk in ks},
            "MRR": round(r.mrr, 3),
            "chunk does not exist": len(r.missing),
            "ranks poorly": len(r.ranks_poorly),
        }
        for n, r in reports.items()
    ]


def body(ctx):
    questions = _gold(ctx)
    controls.ensure(st.session_state, "integrity")
    k = st.select_slider(controls.K.label, options=list(controls.K.options), key=controls.K.key)
    extra = {}
    if questions:
        names = sweeps.strategy_names()
        reports = {}
        bar = (
            st.progress(0.0, text="Checking the gold set…")
            if len(ctx.text) > data.PROGRESS_CHARS
            else None
        )
        for i, n in enumerate(names, start=1):
            reports[n] = data.integrity_report(
                ctx.text, questions, n, ctx.size, ctx.overlap, ctx.unit, k
            )
            if bar:
                bar.progress(i / len(names), text=f"Checked {STRATEGIES[n].display_name}")
        if bar:
            bar.empty()
        summary = _summary(reports, k)
        left, right = st.columns([3, 2] if state.presenter() else [2, 1])
        with left:
            shell.wrapping_table(summary)
        with right:
            shell.vega(
                vega_charts.recall_bars(
                    {n: r.recall for n, r in reports.items()},
                    {n: r.mrr for n, r in reports.items()},
                    shell.chart_height(1),  # under the k slider
                )
            )
        current = reports[ctx.strategy]
        st.subheader(
            f"Gold set, {STRATEGIES[ctx.strategy].display_name}: {len(current.missing)} answer(s) "
            f"with no chunk, {len(current.ranks_poorly)} ranking below {k}"
        )
        shell.wrapping_table(
            [
                {
                    "question": r.question,
                    "intact": "✓" if r.intact else "✗",
                    "chunk": str(r.chunk_index + 1) if r.chunk_index is not None else "—",
                    "rank": str(r.rank) if r.rank is not None else "—",
                    "status": r.status,
                    "verdict": r.verdict,
                }
                for r in current.results
            ]
        )
        extra.update(
            {
                "intact": f"{current.intact_rate:.0%}",
                f"recall@{k}": round(current.recall_at(k), 3),
                "MRR": round(current.mrr, 3),
            }
        )
    else:
        st.info("No gold set: upload a .jsonl gold file, or ask your own question with an answer.")

    stats = data.stats(ctx.text, ctx.strategy, ctx.size, ctx.overlap, ctx.unit)
    lengths = [
        c.length for c in data.chunks(ctx.text, ctx.strategy, ctx.size, ctx.overlap, ctx.unit)
    ]
    drift_view.histogram(ctx, lengths, stats)  # over a saved baseline, when one is loaded
    line = (
        f"**below the floor ({stats.floor} {ctx.unit}): {len(stats.below_floor)} of {stats.count} "
        f"chunks** · runt invariant {'holds' if stats.invariant_holds else 'broken'} · "
        f"p5 {stats.p5:.0f} · median {stats.median:.0f} · max {stats.max} "
        f"(effective max {stats.effective_max})"
        if stats.count
        else "no chunks"
    )
    st.markdown(line, help=glossary.help_for(line))
    extra.update({"below floor": len(stats.below_floor)})
    view = shell.chunk_view(ctx, key="lab6")
    shell.footer(ctx, "integrity", view, extra)


shell.run_lab("integrity", INTRO, body)
