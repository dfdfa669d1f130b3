"""Lab 12: routing. Each document of a mixed folder through its type's chunker, the
figures by type, and one type's chunker switched to watch only its row move."""

import streamlit as st

from lab.report.markup import md_escape
from ui import cached_routing, chunk_panel, frame, judge_choice, tables
from ui.present import controls, routing

INTRO = """
A real corpus mixes **FAQs, API references, meeting transcripts and contracts**, and each has
a grain of its own: a question with its answer, an endpoint with its parameters and example,
a speaker's turn, a clause. **Routing** names each document's type by its marks (question
headings, endpoint lines, `Name:` turns, numbered clauses and "shall") and sends it to its
type's chunker; prose goes to the structural chunker, and every chunk lands in one index.
When retrieval dips, the figures **by type** say which type is failing, and one type's chunker
can change without moving the others. Below: a mixed folder of five samples, the same gold
questions under one strategy and routed, and a switch for one type's chunker.
"""
SLUG = "routing"


def _one_strategy(ctx) -> str:
    """What routing is compared with: the sidebar's strategy, or structural when the
    sidebar routes already (or holds an uploaded chunk file)."""
    if ctx.strategy == "routed" or ctx.origin.imported:
        return "structural"
    return ctx.strategy


def body(ctx):
    controls.ensure(st.session_state, SLUG)
    types = cached_routing.mixed_types()
    st.subheader("The mixed folder: each document's type and the evidence")
    tables.wrapping_table(routing.type_rows(types))
    k_col, type_col, to_col = st.columns(3)
    k = k_col.select_slider(
        controls.ROUTING_K.label,
        options=list(controls.ROUTING_K.options),
        key=controls.ROUTING_K.key,
    )
    switched_type = type_col.selectbox(
        controls.SWITCH_TYPE.label,
        routing.switchable_types(types),
        key=controls.SWITCH_TYPE.key,
    )
    switched_to = to_col.selectbox(
        controls.SWITCH_TO.label, list(controls.SWITCH_TO.options), key=controls.SWITCH_TO.key
    )
    variant = judge_choice.bm25_switch()
    strategy = _one_strategy(ctx)
    judge = ("bm25", variant, "")
    by_type = cached_routing.comparison(
        strategy, ctx.opts, k, judge, ((switched_type, switched_to),)
    )
    st.subheader(f"The same questions: {strategy} and routed, by type")
    st.info(md_escape(routing.verdict_line(by_type, strategy)))
    tables.table(routing.comparison_rows(by_type, strategy, k, f"{switched_type} → {switched_to}"))
    frame.explain(
        f"Recall@{k}: the share of a type's gold questions whose answer's chunk ranks within "
        f"the top {k} of one index over the whole folder (BM25). The interval is a paired "
        "bootstrap over the questions: routed minus the one strategy, question by question. "
        f"Precision is the share of the top {k} chunks' tokens that answer the question: "
        "a type's own grain finds the same answers with less around them. "
        f"The last columns route {switched_type} documents to {switched_to} instead, and "
        "say which rows that moved: a type's chunker changes its own row (and, through the "
        "shared index, at most the ranks of the others)."
    )
    view = chunk_panel.chunk_view(ctx, key="lab12")
    chunk_panel.footer(
        ctx,
        SLUG,
        view,
        {"k": k, "compared with": strategy, "switched": f"{switched_type} to {switched_to}"},
    )


frame.run_lab(SLUG, INTRO, body)
