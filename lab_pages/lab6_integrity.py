"""Lab 6: the integrity check (the survival diagnostic over a gold set)."""

import streamlit as st

from lab.inputs.gold import (
    GoldFileError,
    GoldQuestion,
    parse_gold_text,
    same_question,
    unique_questions,
)
from lab.measure.budget import BudgetTooSmall
from lab.measure.efficiency_sweep import spread
from lab.measure.questions import HOW, NothingToAsk
from lab.report.fair_render import budget_line
from lab.report.markup import md_escape
from lab.retrieval.embedders import EmbedderError
from lab.retrieval.interface import judge_name
from lab.retrieval.retrievers import RETRIEVERS
from ui import (
    cached,
    cached_lessons,
    caching,
    chunk_panel,
    drift_view,
    frame,
    judge_choice,
    state,
    tables,
)
from ui.present import (
    controls,
    efficiency,
    fair,
    glossary,
    judge_rows,
    structure,
    sweeps,
    vega_charts,
)

INTRO = """
Build the diagnostic: for a set of known question/answer pairs, **assert the answer text
appears intact in at least one chunk**. It is a substring search, needs no model and runs at
index time. It separates *the chunk does not exist* from *the chunk exists and ranks poorly*,
then recall@k and MRR measure the ranking half, by the judge that ranks: BM25, dense vectors or
their hybrid. Watch the length histogram too: a shifted histogram is the earliest signal that
extraction changed.
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
                st.error(frame.one_line(e))
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


def _by_retriever(ctx, questions, k, variant, spec, context):
    """The sidebar strategy's gold set judged by every retriever (BM25 alone when the
    embedder cannot be loaded: said in one line)."""
    reports = []
    for name in RETRIEVERS:
        try:
            reports.append(
                cached.integrity_report(
                    ctx.chunked, questions, k, name, variant, spec, None, context, ctx.doc_label
                )
            )
        except EmbedderError as e:
            st.error(f"The embedder cannot judge: {frame.one_line(e)}")
            break
    return reports


def _summary(reports, k) -> list[dict]:
    """The strategy table: every recall@k, or in presenter mode the chosen k's only
    (every column must fit beside the chart at a room's text size; the chart beside
    it has every k)."""
    ks = [k] if state.presenter() else list(next(iter(reports.values())).recall)
    return [
        {
            "strategy": sweeps.display_name(n),
            **({} if state.presenter() else {"chunks": r.chunk_count}),
            "intact": f"{r.intact_rate:.0%}",
            **{f"recall@{kk}": round(r.recall[kk], 2) for kk in ks},
            "MRR": round(r.mrr, 3),
            # -- IoU only: every column must fit beside the chart unclipped; precision
            # -- is in the lesson's table below, beside IoU, over sizes
            f"IoU@{k}": round(r.iou, 3),
            "chunk does not exist": len(r.missing),
            "ranks poorly": len(r.ranks_poorly),
        }
        for n, r in reports.items()
    ]


GENERATED = "lab6_generated"  # (the document's text, the set made from it)
GENERATED_N = 12


def _generated(ctx):
    """The button that makes a gold set from the document itself (`lab gold`), the
    set it made for this document, and its download. None until it is pressed."""
    name = ctx.doc_name or "upload.md"
    if st.button("Make a gold set from this document", key="lab6_make_gold"):
        try:
            made = cached.generated_gold(ctx.text, name, GENERATED_N, 0)
        except NothingToAsk as e:
            st.error(frame.one_line(e))
            return None
        st.session_state[GENERATED] = (ctx.text, made)
    kept = st.session_state.get(GENERATED)
    if kept is None or kept[0] != ctx.text:
        return None
    made = kept[1]
    st.markdown(
        f"**Generated: {len(made.questions)} questions** made from the document, not "
        "written: they share words with their passages, so they favour lexical retrieval. "
        + "; ".join(f"{kind} {n}" for kind, n in made.counts.items())
    )
    frame.explain(" · ".join(f"{kind}: {how}" for kind, how in HOW.items()))
    st.download_button(
        "Download the generated gold set (.jsonl)",
        made.jsonl(),
        file_name=f"{name.rsplit('.', 1)[0]}.generated.gold.jsonl",
        key="lab6_generated_download",
    )
    return made


def _token_lesson(ctx, questions, k, source: str) -> None:
    """Recall flat while IoU climbs as chunks shrink; overlap lowers IoU at a size."""
    st.subheader(f"Recall against IoU as chunks shrink ({source} gold set, BM25)")
    if ctx.origin.imported:
        st.info("Your chunks come at one size: pick a strategy to sweep sizes here.")
        return
    rows = cached.token_sweep(ctx.chunked, tuple(questions), k)
    st.markdown(efficiency.token_summary(spread(rows), k))
    tables.wrapping_table(efficiency.token_rows(rows, k, ctx.unit))
    frame.explain(
        "IoU: passage tokens found among the top-k chunks over the tokens they send plus "
        "the passage tokens they miss; as Chroma counts, a token two overlapping chunks "
        "repeat is sent, and counted, twice; context: what the top k send (docs/gate.md)."
    )


# the lesson's sizes and budget: tokens as people count a prompt, at k = 1, and a budget
# about what the biggest chunks send at k = 1 (on the samples: 362 tokens a question)
LESSON_SIZES = (100, 200, 400, 800)
LESSON_K = 1
LESSON_BUDGET = 400


def _at_budget(ctx, questions, k, judge, variant, spec, budget: int, context) -> dict | None:
    """The sidebar strategy's gold set at the budget: one line beside the figures at k."""
    try:
        report = cached.integrity_report(
            ctx.chunked, questions, k, judge, variant, spec, budget, context, ctx.doc_label
        )
    except BudgetTooSmall as e:
        st.error(frame.one_line(e))
        return None
    figures = report.at_budget
    if figures is None:
        return None
    data = figures.to_json()
    st.markdown(f"**{md_escape(budget_line(data, k))}**")
    frame.explain(
        "The ranked chunks go into the context in order until the budget is spent; the "
        "one that passes it is cut there. Text two chunks share is paid for twice, as the "
        "context window pays for it (docs/gate.md)."
    )
    return data


def _budget_lesson() -> None:
    """Bigger chunks win at top k, and the budget says why (the sample documents)."""
    k, budget, unit = LESSON_K, LESSON_BUDGET, "tokens"
    st.subheader(f"Bigger chunks win at top {k}; at {budget:,} {unit} they do not")
    rows = cached_lessons.sizes_at_budget(LESSON_SIZES, unit, k, budget)
    tables.wrapping_table(fair.size_rows(rows, k, budget, unit))
    st.markdown(fair.size_summary(rows, k, budget, unit))
    frame.explain(
        "Every sample document with its gold set, structural chunks without overlap at each "
        f"size, ranked by BM25; tokens of cl100k_base. `python -m lab check --budget {budget}` "
        "gives the same figures for your documents."
    )


def _k_and_context() -> tuple[int, str]:
    """k and what is indexed beside each chunk, side by side: one row, so that the gold
    set's table and chart still end on the first screen."""
    k_col, context_col = st.columns(2)
    k = k_col.select_slider(controls.K.label, options=list(controls.K.options), key=controls.K.key)
    context = context_col.selectbox(
        controls.CONTEXT.label, list(controls.CONTEXT.options), key=controls.CONTEXT.key
    )
    return int(k), str(context)


def _budget() -> int:
    """The context budget (0: none), above the figures it adds."""
    # a restored pin's value is a float
    st.session_state[controls.BUDGET.key] = int(st.session_state[controls.BUDGET.key])
    return int(
        st.number_input(
            controls.BUDGET.label,
            min_value=0,
            max_value=int(controls.BUDGET.hi or 0),
            step=50,
            key=controls.BUDGET.key,
        )
    )


def _reports(ctx, names, questions, k, judged, context):
    """Each strategy's integrity report, with a progress bar on a long document (None:
    the embedder cannot judge, said once)."""
    judge, variant, spec = judged
    reports = {}
    bar = (
        st.progress(0.0, text="Checking the gold set…")
        if len(ctx.text) > caching.PROGRESS_CHARS
        else None
    )
    try:
        for i, n in enumerate(names, start=1):
            chunked = ctx.chunked._replace(strategy=n)
            reports[n] = cached.integrity_report(
                chunked, questions, k, judge, variant, spec, None, context, ctx.doc_label
            )
            if bar:
                bar.progress(i / len(names), text=f"Checked {sweeps.display_name(n)}")
    except EmbedderError as e:
        st.error(f"The embedder cannot judge: {frame.one_line(e)}")
        return None
    if bar:
        bar.empty()
    return reports


def body(ctx):
    questions = _gold(ctx)
    controls.ensure(st.session_state, "integrity")
    k, context = _k_and_context()
    judge, variant, spec = judge_choice.judges_row(controls.RETRIEVER)
    extra = {}
    if questions:
        # the lab's four, and the sidebar's when it is another (a peer, your chunks)
        names = sweeps.strategy_names()
        if ctx.strategy not in names:
            names.append(ctx.strategy)
        reports = _reports(ctx, names, questions, k, (judge, variant, spec), context)
        if reports is None:
            return
        unread = next((r.note for r in reports.values() if r.note), "")
        if unread:  # -- once, above the figures it qualifies
            st.warning(unread)
        summary = _summary(reports, k)
        left, right = st.columns([3, 2] if state.presenter() else [5, 2])
        with left:
            tables.wrapping_table(summary)
            frame.explain(f"Ranked by {next(iter(reports.values())).retriever}.")
            judge_choice.variant_caption(variant)
        with right:
            frame.vega(
                vega_charts.recall_bars(
                    {n: r.recall for n, r in reports.items()},
                    {n: r.mrr for n, r in reports.items()},
                    # under the k slider and the judges' row: short enough that the
                    # chart ends on the first screen at 1440x900 too
                    min(frame.chart_height(1.7), 300),
                )
            )
        by_judge = _by_retriever(ctx, questions, k, variant, spec, context)
        current = by_judge[0]
        poorly = ", ".join(f"{len(r.ranks_poorly)} by {judge_name(r.retriever)}" for r in by_judge)
        st.subheader(
            f"Gold set, {sweeps.display_name(ctx.strategy)}: {len(current.missing)} answer(s) "
            f"with no chunk, whoever ranks; ranking below {k}: {poorly}"
        )
        budget = _budget()
        if budget:
            at = _at_budget(ctx, questions, k, judge, variant, spec, budget, context)
            if at:
                extra[f"coverage at {budget} {at['unit']}"] = round(at["coverage"], 3)
        note = current.titles.note() if current.titles else None
        if note:  # -- title+path on a document with no title: which title stood in, once
            st.caption(md_escape(note))
        tables.wrapping_table(judge_rows.gold_by_retriever(by_judge))
        tables.wrapping_table(judge_rows.retriever_summary(by_judge))
        extra.update(
            {
                "intact": f"{current.intact_rate:.0%}",
                **{f"recall@{k} ({r.retriever})": round(r.recall_at(k), 3) for r in by_judge},
                **{f"MRR ({r.retriever})": round(r.mrr, 3) for r in by_judge},
            }
        )
    else:
        st.info("No gold set: upload a .jsonl gold file, or ask your own question with an answer.")
    # -- below the gold set's table and chart, which must share the first screen
    made = _generated(ctx)
    if questions or made:
        source = "written" if questions else "generated"
        _token_lesson(ctx, questions or made.questions, k, source)
    _budget_lesson()

    stats = cached.stats(ctx.chunked)
    lengths = [c.length for c in cached.chunks(ctx.chunked)]
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
    flagged = cached.quality(ctx.chunked)
    st.subheader(f"Chunks to read: {len(flagged)}")
    if flagged:
        tables.wrapping_table(structure.quality_rows(flagged))
    else:
        frame.explain(
            "No chunk passes the size, ends with a heading or a lead-in, is only markup "
            "or cuts a sentence."
        )
    extra.update({"chunks to read": len(flagged)})
    view = chunk_panel.chunk_view(ctx, key="lab6")
    chunk_panel.footer(ctx, "integrity", view, extra)


frame.run_lab("integrity", INTRO, body)
