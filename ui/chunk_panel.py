"""The chunk view every lab ends with: the verdict banner under the page's title, the
shaded document and the chunk cards (a long document's cards a window at a time,
with paging and a search), and the footer that pins and exports it."""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any

import streamlit as st

from chunkers.scripts import unsegmented_note
from lab.measure.survival import Survival
from lab.report.markup import md_escape
from lab.report.words import counted
from lab.retrieval.bm25 import DEFAULT_VARIANT
from ui import cached, frame, state
from ui.exports import export_buttons, pin_box
from ui.present import chunkview
from ui.sidebar import Context

DOC_BOX_PX = 520  # the chunk view's document and cards scroll inside this height


def survival_of(
    ctx: Context, strategy: str | None = None, runt_merge: str = "backward"
) -> Survival | None:
    """The survival check for the current answer, or None without an answer."""
    if not ctx.answer:
        return None
    chunked = ctx.chunked._replace(strategy=strategy or ctx.strategy)
    return cached.survival(chunked, ctx.answer, runt_merge)


def missing_answer_line(ctx: Context) -> str | None:
    """The warning that stands where the verdict goes when the answer is not in the text."""
    if not ctx.answer_missing:
        return None
    return f"{md_escape(ctx.answer_missing)}: pick an answer that appears in the document."


def verdict_for(ctx: Context, surv: Survival | None) -> chunkview.Verdict:
    """The verdict shown: the survival check's, or the missing answer's warning."""
    warning = missing_answer_line(ctx)
    return chunkview.Verdict(None, warning, missing=True) if warning else chunkview.verdict(surv)


def under_verdict(text: str) -> None:
    """A line of the page's own words right under its verdict (on the first screen)."""
    with frame.slot(0):
        st.markdown(text)


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
    runt_merge: str = "backward",
    verdict_on_top: bool = True,
) -> dict[str, Any]:
    """Verdict banner (under the page's title unless ``verdict_on_top`` is False),
    then, after the lab's own body: count line, the shaded document and the chunk
    cards, both opened at the answer.

    Returns the key numbers (for a pin)."""
    strategy = strategy or ctx.strategy
    cs = cached.chunks(ctx.chunked._replace(strategy=strategy), runt_merge)
    surv = survival_of(ctx, strategy, runt_merge)
    v = verdict_for(ctx, surv)
    with frame.slot(0) if verdict_on_top else contextlib.nullcontext():
        verdict_banner(v)
    with frame.slot(1):
        return _chunk_view_body(ctx, cs, surv, v, strategy, heading_path, runt_merge)


def _chunk_view_body(
    ctx: Context,
    cs: list[Any],
    surv: Survival | None,
    v: chunkview.Verdict,
    strategy: str,
    heading_path: bool,
    runt_merge: str,
) -> dict[str, Any]:
    scores = None
    if ctx.question:
        try:
            scores = cached.scores(
                ctx.chunked._replace(strategy=strategy),
                ctx.question,
                heading_path=heading_path,
                runt_merge=runt_merge,
                # the BM25 the labs that rank have chosen (ui.state keeps it from lab to lab)
                variant=st.session_state.get(state.BM25, DEFAULT_VARIANT),
            )
        except ValueError as e:
            st.warning(frame.one_line(e))
    elif ctx.qa_source == "own":
        st.info("Type a question in the sidebar to rank the chunks with BM25.")
    text = ctx.chunked.text
    st.caption(chunkview.count_line(cs, text, ctx.unit))
    if note := unsegmented_note(text):  # -- a script whose sentences are not found
        st.caption(note)
    span = surv.span if surv else None
    shown, around = _card_window(ctx, cs, surv, strategy, runt_merge)
    left, right = st.columns([3, 2])
    with left:
        st.html(chunkview.legend_html())
        doc_html = chunkview.document_html(text, cs, span, height_px=DOC_BOX_PX, around=around)
        st.html(doc_html)
    with right:
        cards = chunkview.chunk_cards(shown, scores, ctx.opts, surv, total=len(cs))
        cards_html = chunkview.cards_html(cards, height_px=DOC_BOX_PX)
        st.html(cards_html)
        # our own fixed script (no document text in it): scroll both boxes to the answer
        st.html(chunkview.scroll_script(doc_html + cards_html), unsafe_allow_javascript=True)
    numbers = {"chunks": len(cs)}
    if surv and surv.intact and surv.chunk_index is not None:
        numbers["chunk holding the answer"] = surv.chunk_index + 1
        if scores:
            numbers["its BM25 rank"] = next(s.rank for s in scores if s.index == surv.chunk_index)
    return {
        "verdict": v.text,
        "numbers": numbers,
        "chunks": cs,
        "strategy": strategy,
        "opts": cached.options(ctx.size, ctx.overlap, ctx.unit, runt_merge),
    }


_FIND = "_find_in_chunks"


def _card_window(
    ctx: Context, cs: list[Any], surv: Survival | None, strategy: str, runt_merge: str
) -> tuple[list[Any], tuple[int, int] | None]:
    """The chunks whose cards show, and the span the document box opens around (None:
    the answer). A long document shows CARD_WINDOW cards around the answer, with a
    field to page through them and one to find text in them."""
    total = len(cs)
    if total <= chunkview.CARD_WINDOW:
        return cs, None
    focus = chunkview.answer_chunk(surv)
    start = chunkview.window_start(total, focus)
    # -- why the view in the key -- a new setting (size, strategy, answer...) opens the
    # cards at its answer again; paging stays put only while the view is the same
    view = hashlib.blake2b(
        repr((strategy, ctx.size, ctx.overlap, ctx.unit, runt_merge, ctx.answer, total)).encode(),
        digest_size=6,
    ).hexdigest()
    a, b = st.columns([1, 2])
    first = a.number_input(
        "Cards from chunk",
        min_value=1,
        max_value=total,
        value=start + 1,
        step=chunkview.CARD_WINDOW,
        key=f"cards_from_{view}",
        help=f"The cards come {chunkview.CARD_WINDOW} at a time; +/- pages through them.",
    )
    query = b.text_input("Find text in the chunks", key=_FIND, placeholder="a word or a phrase")
    if query.strip():
        found = chunkview.find_chunks(cs, query)
        more = len(found) > chunkview.CARD_WINDOW
        st.caption(
            f"{counted(len(found), 'chunk')} with “{md_escape(query.strip())}”"
            + (f"; the first {chunkview.CARD_WINDOW} are shown." if more else ".")
        )
        shown = [cs[i] for i in found[: chunkview.CARD_WINDOW]]
        return shown, ((shown[0].start, shown[0].end) if shown else None)
    lo = min(int(first) - 1, total - 1)
    hi = min(lo + chunkview.CARD_WINDOW, total)
    st.caption(chunkview.window_line(lo, hi, total, focus))
    inside = focus is not None and lo <= focus < hi
    return cs[lo:hi], (None if inside else (cs[lo].start, cs[lo].end))


def footer(
    ctx: Context, slug: str, view: dict[str, Any], extra: dict[str, Any] | None = None
) -> None:
    numbers = dict(view["numbers"])
    numbers.update(extra or {})
    with frame.slot(1):  # under the chunk view it exports
        pin_box(ctx, slug, view["verdict"], numbers)
        export_buttons(ctx, view, slug)


def not_for_imported_chunks(
    ctx: Context, why: str, *, key: str, slug: str, extra: dict[str, Any]
) -> None:
    """A lab that chunks the document itself, shown with an uploaded chunk file: ``why``
    it cannot measure them, then the file's chunks in the chunk view and the footer."""
    st.info(why)
    footer(ctx, slug, chunk_view(ctx, key=key), extra)
