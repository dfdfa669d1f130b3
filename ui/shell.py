"""What every lab page shares: the header, the intro, the error guard, the chunk
view with its verdict banner and cards, pinning and the chunk exports."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st
from streamlit.runtime.scriptrunner_utils.exceptions import ScriptControlException

from lab import exports
from lab.survival import AnswerNotFound, Survival
from ui import chunkview, controls, notebook, urlstate
from ui.markup import md_escape

from . import data
from . import state as S
from .sidebar import Context

CTX = "_ctx"
CHART_HEIGHT = 380
PRESENTER_HEIGHT = 600


def context() -> Context:
    return st.session_state[CTX]


def chart_height() -> int:
    return PRESENTER_HEIGHT if S.presenter() else CHART_HEIGHT


def one_line(exc: BaseException) -> str:
    """An exception as one line of Markdown-safe text (messages quote file names,
    answers and values the user gave)."""
    text = str(exc).strip().splitlines()
    return md_escape(text[0] if text else type(exc).__name__)


def _load_preset(slug: str) -> None:
    S.request(urlstate.LAB_PRESETS[slug])


def run_lab(
    slug: str, intro: str, body: Callable[[Context], None], *, needs_document: bool = True
) -> None:
    """Header, intro (hidden for presenters), then the body behind a one-line error guard."""
    number = urlstate.LAB_SLUGS.index(slug) + 1
    st.title(f"{number}. {urlstate.lab_title(slug)}")
    if not S.presenter():
        st.markdown(intro)
        if slug in urlstate.LAB_PRESETS:
            p = urlstate.LAB_PRESETS[slug]
            st.button(
                f"Set up this lab's example ({p['doc']}.md, {p['strategy']}, {p['size']} "
                f"{p['unit']}, overlap {p['overlap']})",
                key=f"preset_{slug}",
                on_click=_load_preset,
                args=(slug,),
            )
    ctx = context()
    if needs_document and ctx.text is None:
        st.info("Upload a .md or .txt document in the sidebar, or pick a sample, to start.")
        return
    try:
        body(ctx)
    except ScriptControlException:
        raise
    except AnswerNotFound as e:  # caught by the sidebar first; kept as a last guard
        st.warning(f"{one_line(e)}: pick an answer that appears in the document.")
    except Exception as e:  # noqa: BLE001 - the user sees one line, never a traceback
        st.error(f"Something went wrong in this lab: {one_line(e)}")


# --------------------------------------------------------------------------- chunk view


def survival_of(
    ctx: Context, strategy: str | None = None, sweep: str = "backward"
) -> Survival | None:
    """The survival check for the current answer, or None without an answer."""
    if not ctx.answer:
        return None
    return data.survival(
        ctx.text, strategy or ctx.strategy, ctx.size, ctx.overlap, ctx.unit, ctx.answer, sweep
    )


def missing_answer_line(ctx: Context) -> str | None:
    """The warning that stands where the verdict goes when the answer is not in the text."""
    if not ctx.answer_missing:
        return None
    return f"{md_escape(ctx.answer_missing)}: pick an answer that appears in the document."


def verdict_for(ctx: Context, surv: Survival | None) -> chunkview.Verdict:
    """The verdict shown: the survival check's, or the missing answer's warning."""
    warning = missing_answer_line(ctx)
    return chunkview.Verdict(None, warning, missing=True) if warning else chunkview.verdict(surv)


def verdict_banner(v: chunkview.Verdict) -> None:
    if v.missing:
        st.warning(v.text)
        return
    if v.ok is None:
        st.info(v.text)
    elif v.ok:
        st.success(v.text)
    else:
        st.error(v.text)


def chunk_view(
    ctx: Context,
    *,
    key: str,
    strategy: str | None = None,
    heading_path: bool = True,
    sweep: str = "backward",
) -> dict[str, Any]:
    """Verdict banner, count line, the shaded document and the chunk cards.

    Returns the key numbers (for a pin)."""
    strategy = strategy or ctx.strategy
    cs = data.chunks(ctx.text, strategy, ctx.size, ctx.overlap, ctx.unit, sweep)
    surv = survival_of(ctx, strategy, sweep)
    v = verdict_for(ctx, surv)
    verdict_banner(v)
    scores = None
    if ctx.question:
        try:
            scores = data.scores(
                ctx.text,
                strategy,
                ctx.size,
                ctx.overlap,
                ctx.unit,
                ctx.question,
                heading_path=heading_path,
                sweep=sweep,
            )
        except ValueError as e:
            st.warning(one_line(e))
    elif ctx.qa_source == "own":
        st.info("Type a question in the sidebar to rank the chunks with BM25.")
    st.caption(chunkview.count_line(cs, ctx.text, ctx.unit))
    span = surv.span if surv else None
    left, right = st.columns([3, 2])
    with left:
        st.html(chunkview.legend_html())
        st.html(
            chunkview.document_html(ctx.text, cs, span, height_px=None if S.presenter() else 520)
        )
    with right:
        cards = chunkview.chunk_cards(cs, scores, ctx.opts, surv)
        if len(cards) > chunkview_limit():
            st.caption(f"Showing the first {chunkview_limit()} of {len(cards)} chunk cards.")
            cards = cards[: chunkview_limit()]
        st.html(chunkview.cards_html(cards))
    numbers = {"chunks": len(cs)}
    if surv and surv.intact:
        numbers["chunk holding the answer"] = surv.chunk_index + 1
        if scores:
            numbers["its BM25 rank"] = next(s.rank for s in scores if s.index == surv.chunk_index)
    return {
        "verdict": v.text,
        "numbers": numbers,
        "chunks": cs,
        "strategy": strategy,
        "opts": data.options(ctx.size, ctx.overlap, ctx.unit, sweep),
    }


def chunkview_limit() -> int:
    return 200


# --------------------------------------------------------------------------- pins and exports


def pin_box(ctx: Context, slug: str, verdict: str, numbers: dict[str, Any]) -> None:
    with st.expander("Pin this result to the notebook"):
        note = st.text_input("Note (optional)", key=f"pin_note_{slug}")
        if st.button("Pin to notebook", key=f"pin_{slug}"):
            # the sidebar's settings, the question in words, and the lab's own controls
            config = {**ctx.config, **controls.snapshot(st.session_state, slug)}
            pin = notebook.make_pin(
                slug,
                urlstate.lab_title(slug),
                config,
                verdict,
                numbers,
                note,
                question=ctx.question,
            )
            st.session_state.setdefault(S.PINS, []).append(pin)
            st.success(f"Pinned: {len(st.session_state[S.PINS])} pin(s) in the notebook.")


def export_buttons(ctx: Context, view: dict[str, Any], slug: str) -> None:
    chunks, strategy = view["chunks"], view["strategy"]
    cfg = exports.chunking_config(ctx.doc_label, ctx.text, strategy, view["opts"])
    stem = f"{(ctx.doc_name or 'upload')}_{strategy}_{ctx.size}{ctx.unit}_{ctx.overlap}"
    a, b = st.columns(2)
    a.download_button(
        "Export chunks (JSONL)",
        exports.to_jsonl(chunks, cfg),
        file_name=f"{stem}.jsonl",
        mime="application/jsonl",
        key=f"jsonl_{slug}",
    )
    b.download_button(
        "Export chunks (CSV)",
        exports.to_csv(chunks, cfg),
        file_name=f"{stem}.csv",
        mime="text/csv",
        key=f"csv_{slug}",
    )


def footer(
    ctx: Context, slug: str, view: dict[str, Any], extra: dict[str, Any] | None = None
) -> None:
    numbers = dict(view["numbers"])
    numbers.update(extra or {})
    pin_box(ctx, slug, view["verdict"], numbers)
    export_buttons(ctx, view, slug)


def table(rows: list[dict[str, Any]] | pd.DataFrame, **kwargs: Any) -> None:
    df = rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(rows)
    st.dataframe(df, hide_index=True, **kwargs)


def full_table(rows: list[dict[str, Any]]) -> None:
    """A short table shown whole, every row on the page (no inner scroll)."""
    st.table(pd.DataFrame(rows), hide_index=True)


def explain(text: str) -> None:
    """An explanation: hidden in presenter mode."""
    if not S.presenter():
        st.caption(text)
