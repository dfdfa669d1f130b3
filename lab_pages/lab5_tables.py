"""Lab 5: tables, transcribed text and headings."""

import streamlit as st

from lab.retrieval.embedders import EmbedderError
from ui import cached, cached_lessons, chunk_panel, frame, judge_choice, state, tables
from ui.present import controls, fair, glossary, structure, urlstate

INTRO = """
Prose, tables and transcribed text each break differently. **A table fragment repeats its header
row**, so no fragment shows four bare numbers; **overlap never crosses into a table or a
transcribed page**; and **a transcribed heading is never inherited** by the sections after it.
Then switch the heading path out of the index and watch the ranks move.
"""


def _open(doc, q):
    state.request(dict(doc=doc, q=q, strategy="structural", unit="chars", size=600, overlap=100))


def body(ctx):
    a, b = st.columns(2)
    a.button(
        "Open compute_pricing.md (tables)",
        key="lab5_pricing",
        on_click=_open,
        args=("compute_pricing", 0),
    )
    b.button(
        "Open inspection_manual.md (transcribed pages)",
        key="lab5_manual",
        on_click=_open,
        args=("inspection_manual", 4),
    )
    chunks = cached.chunks(ctx.chunked)
    headerless = (
        cached.headerless_chunks(ctx.chunked)
        if any(c.kind == "table" for c in chunks)
        else frozenset()
    )
    frags = structure.table_fragments(chunks, headerless)
    boundaries = cached.boundaries(ctx.chunked)
    refused = structure.refusals(chunks, ctx.opts)
    inherit = structure.heading_inheritance(chunks)
    extra = {
        "table chunks": len(frags),
        "header repeated": sum(f.header_repeated for f in frags),
        "overlap refusals": len(refused),
    }
    t1, t2, t3 = st.tabs(
        [
            f"Table fragments ({len(frags)})",
            f"Overlap at boundaries ({len(refused)} refused)",
            f"Transcribed headings ({len(inherit)})",
        ]
    )
    with t1:
        if frags:
            # every column whole, the first line wrapped rather than cut
            tables.wrapping_table(
                [
                    {
                        "chunk": f.number,
                        "length": f.length,
                        "table header": f.header,
                        "first line": f.first_line,
                    }
                    for f in frags
                ]
            )
        else:
            st.info("No table chunks here: open compute_pricing.md with the structural strategy.")
    with t2:
        tables.table(
            [
                {
                    "boundary": f"{s.before} → {s.after}",
                    "overlap": s.outcome,
                    "overlap chars": s.overlap_chars,
                }
                for s in boundaries
            ],
            height=300,
        )
    with t3:
        if inherit:
            tables.table(
                [
                    {
                        "chunk": i.number,
                        "transcribed": "✓" if i.transcribed else "",
                        "page": i.page,
                        "heading path": i.heading_path,
                        "note": i.note,
                    }
                    for i in inherit
                ]
            )
        else:
            st.info(
                "No transcribed text here: open inspection_manual.md with the structural strategy."
            )

    st.subheader("Heading path in the index")
    controls.ensure(st.session_state, "tables")
    toggle_col, variant_col = st.columns([2, 3])
    leave_out = toggle_col.toggle(controls.NO_HEADING.label, key=controls.NO_HEADING.key)
    variant = judge_choice.bm25_switch(variant_col, note=st.container())
    if ctx.question:
        moves = cached.rank_moves(ctx.chunked, ctx.question, ctx.answer, variant)
        moved = [m for m in moves if m.move != 0]
        st.markdown(
            f"**{len(moved)} of {len(moves)} chunks change rank** "
            "when the heading path leaves the index."
        )
        tables.table(
            [
                {
                    "chunk": m.number,
                    "rank with path": m.rank_with,
                    "rank without": m.rank_without,
                    "move": f"{m.move:+d}" if m.move else "0",
                    "holds the answer": "✓" if m.holds_answer else "",
                    "heading path": m.heading_path,
                }
                for m in sorted(moves, key=lambda m: m.rank_with)
            ],
            height=300,
        )
        extra["chunks that change rank"] = len(moved)
    _context_lesson(ctx, variant)
    _truncation(ctx, chunks, extra)
    view = chunk_panel.chunk_view(ctx, key="lab5", heading_path=not leave_out)
    chunk_panel.footer(ctx, "tables", view, extra)


def _context_lesson(ctx, variant: str) -> None:
    """What context in the index buys, in the terms contextual retrieval is reported in."""
    title = "What context in the index buys: top-20 failures"
    st.subheader(title, help=glossary.help_for(title))
    if ctx.origin.imported:
        st.info("Your chunks come as they are: pick a strategy to index them with context here.")
        return
    spec = st.session_state.get(controls.EMBEDDER.key, controls.EMBEDDER.default)
    try:
        failures = cached_lessons.context_failures(
            ctx.strategy, ctx.opts, ("bm25", "dense"), variant, spec
        )
    except EmbedderError as e:
        st.error(f"The embedder cannot judge: {frame.one_line(e)}")
        return
    left, right = st.columns([3, 2])
    with left:
        tables.wrapping_table(fair.context_rows(failures))
    with right:
        tables.wrapping_table(fair.published_rows())
    st.markdown(fair.CONTEXT_LESSON)
    frame.explain(
        "Every sample document with its gold set, indexed together with the sidebar's "
        "chunking; a failure is a question with no chunk holding its answer in the top 20. "
        "`python -m lab check --context title+path` measures your own documents."
    )


def _truncation(ctx, chunks, extra):
    """What an embedder that reads at most N tokens never sees of these chunks."""
    st.subheader("What an embedder's limit cuts off")
    limit = st.number_input(
        "Embedder's limit (tokens)",
        min_value=1,
        max_value=urlstate.LIMIT_MAX,
        step=1,
        key=state.LIMIT,
        help="Most embedders read 512 tokens and drop the rest without a word. "
        "The index reads the heading path and overlap on top of the body.",
    )
    tok = st.session_state.get(state.TOKENIZER, urlstate.DEFAULTS.tok)
    rows = cached.truncation_rows(chunks, tok, int(limit), ctx.answer)
    st.markdown(
        f"**{len(rows)} of {len(chunks)} chunks** index more than {int(limit)} {tok} tokens "
        "(heading path + overlap + body): an embedder truncating there never reads their ends."
        + (" `--limit` on the command line chooses the size so none does." if rows else "")
    )
    if rows:
        tables.table(rows, height=240)
    extra[f"chunks over {int(limit)} tokens"] = len(rows)


frame.run_lab("tables", INTRO, body)
