"""Lab 4: runts and BM25 (seed 000)."""

import streamlit as st

from lab import ranking
from ui import charts, data, shell

INTRO = """
BM25 is asking *what fraction of this chunk is about your query?* A 42-character chunk entirely
about the query term beats a 1,780-character chunk that is two percent about it. **Move k1 and
b, and watch the short chunks' bonus**; then open the revenue report, where the orphaned
`| Mumbai | FY24 | 18,412 | 4.2% |` row outranks the table it was cut from until the runt
sweep merges it back.
"""


def body(ctx):
    a, b_, c = st.columns(3)
    k1 = a.slider("k1 (term saturation)", 0.0, 3.0, 1.2, 0.1, key="k1")
    b = b_.slider("b (length normalisation)", 0.0, 1.0, 0.75, 0.05, key="b")
    sweep = c.radio(
        "Runt sweep (structural)", ("off", "forward", "backward"), horizontal=True, key="lab4_sweep"
    )
    extra = {"k1": k1, "b": b, "runt sweep": sweep}
    if ctx.question:
        chunks = data.chunks(ctx.text, ctx.strategy, ctx.size, ctx.overlap, ctx.unit, sweep)
        scores = data.scores(
            ctx.text,
            ctx.strategy,
            ctx.size,
            ctx.overlap,
            ctx.unit,
            ctx.question,
            k1,
            b,
            sweep=sweep,
        )
        rows = ranking.score_rows(chunks, scores, ctx.opts, ctx.answer)
        curve = ranking.theory_curve(rows, ctx.opts, k1=k1, b=b)
        left, right = st.columns(2)
        shell.plot(charts.score_bars(rows, shell.chart_height(1)), key="lab4_bars", container=left)
        shell.plot(
            charts.score_vs_length(rows, curve, ctx.unit, shell.chart_height(1)),
            key="lab4_scatter",
            container=right,
        )
        st.markdown(f"**{curve.label}**")
        extra.update(
            {
                "inflation cap at floor": round(curve.cap_at_floor, 3),
                "shortest chunk factor": round(curve.shortest_factor, 3),
            }
        )
        shell.explain(
            f"The dotted curve is seed 000's arithmetic: one match, IDF held fixed, only the "
            f"length changing (avgdl {curve.avgdl:.0f} {ctx.unit}), scaled through chunk "
            f"{curve.anchor}. The entire spread comes from length normalisation alone."
        )
    else:
        st.info("Type a question in the sidebar to score the chunks.")

    st.subheader("The revenue report: an orphan row against its table")
    revenue = data.revenue(data.sample_text(ranking.REVENUE_DOC), sweep, k1, b)
    (st.error if revenue.orphan else st.success)(revenue.summary)
    shell.table(
        [
            {
                "chunk": r.number,
                "length (chars)": r.length,
                "kind": r.kind,
                "BM25": round(r.score, 3),
                "rank": r.rank,
                "holds the Mumbai row": "✓" if r.holds_answer else "",
                "header repeated": "✓" if r.header_repeated else "",
            }
            for r in revenue.rows
        ]
    )
    shell.explain(
        f"Question “{ranking.REVENUE_QUESTION}”, structural chunker at seed 000's 1,800 "
        "characters with 150 overlap. A table that spills past the limit sheds a one-row "
        "runt, and the runt outranks the table on the very query it half-answers."
    )
    fwd, back = ranking.seed_sweep_example("forward"), ranking.seed_sweep_example("backward")
    st.markdown(
        f"**Why backward:** seed 000's lengths {list(ranking.SEED_LENGTHS)} at size 1,800 — "
        f"forward gives {fwd} and stalls (the 200 runt survives); backward gives {back}."
    )
    extra.update({"revenue answer rank": revenue.answer_rank})
    view = shell.chunk_view(ctx, key="lab4", sweep=sweep)
    shell.footer(ctx, "runts", view, extra)


shell.run_lab("runts", INTRO, body)
