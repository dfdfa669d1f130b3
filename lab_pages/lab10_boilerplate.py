"""Lab 10: boilerplate, found across the pages of a converted document and stripped."""

import streamlit as st

from lab.inputs.documents import DocumentError
from lab.measure.boilerplate import BoilerplateError
from lab.report.markup import md_escape
from lab.retrieval.retrievers import BM25
from ui import cached_lessons, chunk_panel, frame, judge_choice, palette, tables
from ui.present import controls, conversion, lessons, vega_charts

INTRO = """
A converted PDF repeats its running header, its footer and its disclaimer on every page. They
get chunked and indexed as often as there are pages: chunks that are **mostly boilerplate rank
for questions they do not answer**, take places in the top k, and make chunks look alike.
Lines of running text that recur on at least half the pages (and on three or more) are found
here, and so are lines that recur **at the same place** (among a page's first or last three
lines) on a quarter of the pages (and on three or more): a running header or footer, its page
number aside, since lines are compared digit-blind. The converter uses the same rule on a PDF's
lines, by their height on the page, so a running header never becomes a heading. Headings and
table rows are never boilerplate, because a heading that recurs labels different text each time
and a repeated table header keeps its rows readable. Then the document is measured again
**with the boilerplate stripped before chunking**.
"""

SERIES = {"as given": palette.OKABE_ITO["vermillion"], "stripped": palette.OKABE_ITO["blue"]}


WHY_BM25 = (
    "BM25 gives a word that nearly every chunk carries almost no weight, so repetition alone "
    "moves its scores little; the boilerplate chunks above rank through the words they share "
    "with a question, and through their shortness."
)
WHY_DENSE = (
    "An embedding sees boilerplate as text like any other: chunks made mostly of it are near "
    "one another and near many questions, a dense cluster that intercepts queries it does not "
    "answer."
)


def _found(ctx, e, extra):
    r = e.report
    share = r.boilerplate_chars / r.chars if r.chars else 0.0
    line = (
        f"{len(r.findings)} repeated block(s): {r.boilerplate_chars:,} of {r.chars:,} "
        f"characters ({share:.0%}) are boilerplate; {r.chunks_mostly} of {r.chunks} chunks "
        "consist mostly of it."
    )
    (st.warning if r.findings else st.success)(md_escape(line))
    if r.findings:
        tables.wrapping_table(lessons.finding_rows(e))
    extra.update(
        {
            "boilerplate characters": r.boilerplate_chars,
            "chunks mostly boilerplate": r.chunks_mostly,
            "intercepts": len(e.intercepts),
        }
    )


def _ranking(ctx, e, k, judge):
    st.subheader(f"Boilerplate chunks in the top {k} of questions they do not answer")
    if e.intercepts:
        tables.wrapping_table(lessons.intercept_rows(e))
    else:
        st.caption(f"None of the gold questions has a mostly-boilerplate chunk in its top {k}.")
    frame.vega(
        vega_charts.paired_bars(
            "How alike the scores are: the median chunk's score as a share of the best",
            lessons.spread_rows(e),
            "question",
            "text",
            "median / best",
            SERIES,
            frame.chart_height(),
            "median / best",
        )
    )
    mb = e.mean(e.spread_before, "median")
    ma = e.mean(e.spread_after, "median")
    why = WHY_BM25 if judge == BM25 else WHY_DENSE
    frame.explain(
        f"Averaged over the questions, the median chunk scores {mb:.0%} of the best as given "
        f"and {ma:.0%} stripped (1.0 would be a tie: ranking by chance). {why}"
    )


def _before_after(ctx, e, extra):
    st.subheader("The gold set, as given and with the boilerplate stripped before chunking")
    tables.wrapping_table(lessons.before_after_rows(e))
    tables.wrapping_table(lessons.rank_rows(e))
    for a in e.set_aside:
        st.warning(md_escape(f"Left out of both: {a.question}: {a.reason}."))
    extra.update({"MRR as given": round(e.before.mrr, 3), "MRR stripped": round(e.after.mrr, 3)})


CONVERSION = """
Where boilerplate comes from: **conversion**. The warehouse manual is also shipped as the PDF
it was converted from. Below, the same manual three ways: the markdown it was written in, the
PDF converted to markdown (pages as `## Page N` sections, ruled tables as tables, larger type
as headings), and the PDF's plain text, what most pipelines index: no heading, no table, no
page, so the running footer can no longer be found, and a table row no longer reads as the
gold set wrote it.
"""


def _conversion():
    st.subheader("What conversion did: the warehouse manual as markdown, PDF and plain text")
    st.markdown(CONVERSION)
    try:
        versions = cached_lessons.conversion_versions()
    except DocumentError as err:
        st.info(frame.one_line(err))
        return
    tables.wrapping_table(conversion.version_rows(versions))
    size, _ = cached_lessons.CONVERSION_OPTIONS
    st.caption(f"Structural chunks of {size} characters, no overlap; BM25 ranks the gold set.")
    _columns()


COLUMNS = """
**Reading order and headings.** A page set in two columns under a full-width title (shipped
as a PDF beside the markdown it was printed from). Plain text reads each line across the
page, so every sentence that wraps is cut and spliced with the other column's. The converter
finds the gutter between the columns from the lines' boxes and reads each column top to
bottom, the title staying above them; headings are lines set larger or bold that are short,
set apart, and do not carry a sentence on.
"""


def _columns():
    st.markdown(COLUMNS)
    try:
        found, converted, plain = cached_lessons.two_column_reading()
    except DocumentError as err:
        st.info(frame.one_line(err))
        return
    tables.wrapping_table(conversion.reading_rows(found))
    left, right = st.columns(2)
    left.caption("PDF, converted (the opening)")
    left.code(conversion.first_lines(converted), language="markdown", wrap_lines=True)
    right.caption("PDF, plain text (the opening)")
    right.code(conversion.first_lines(plain), language=None, wrap_lines=True)


def body(ctx):
    controls.ensure(st.session_state, "boilerplate")
    k = st.select_slider(
        controls.BOILERPLATE_K.label,
        options=list(controls.BOILERPLATE_K.options),
        key=controls.BOILERPLATE_K.key,
    )
    judge = judge_choice.loaded(
        judge_choice.judges_row(controls.BOILERPLATE_RETRIEVER), ctx.text, ctx.question
    )
    extra = {"k": k}
    if ctx.origin.imported:
        chunk_panel.not_for_imported_chunks(
            ctx,
            "Stripping the boilerplate chunks the document again, and your chunks were made "
            "elsewhere: pick a strategy in the sidebar to measure the strip; the chunk view "
            "below shows yours.",
            key="lab10",
            slug="boilerplate",
            extra=extra,
        )
        return
    try:
        e = cached_lessons.boilerplate_effect(ctx.chunked, ctx.doc_label, ctx.answered(), k, judge)
    except BoilerplateError as err:
        st.warning(f"{frame.one_line(err)} (or pick warehouse_manual.md, a converted PDF).")
    else:
        _found(ctx, e, extra)
        if ctx.answered():
            _ranking(ctx, e, k, judge[0])
            _before_after(ctx, e, extra)
        else:
            st.info("No gold set for this document: load one on Lab 6 to measure the strip.")
    _conversion()
    view = chunk_panel.chunk_view(ctx, key="lab10")
    chunk_panel.footer(ctx, "boilerplate", view, extra)


frame.run_lab("boilerplate", INTRO, body)
