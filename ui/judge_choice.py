"""The judges' widgets: the BM25 switch and the embedder choice, drawn by every lab
that ranks under the same keys (ui.state keeps their values from lab to lab and
writes them into the link; a pin keeps them as ``bm25`` and ``embedder``)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from lab.retrieval.embedders import EmbedderError, reading_note
from lab.retrieval.retrievers import BM25
from ui import cached, frame, state
from ui.present import controls, judge_rows
from ui.present.urlstate import EMBEDDERS_ENV


def bm25_switch(container: Any = None, note: Any = None) -> str:
    """The BM25 variant, as a row of choices, and a note (in ``note``, else under the
    switch; not for a projector) saying which is shown and why. ``note=False``: the
    page writes it itself, with variant_caption, where it does not push its chart down."""
    c = controls.BM25
    where = container or st
    variant = where.radio(c.label, c.options, key=state.BM25, horizontal=True)
    if note is not False:
        variant_caption(variant, note or where)
    return variant


def variant_caption(variant: str, where: Any = None) -> None:
    """Which BM25 is shown and why (not for a projector)."""
    if not state.presenter():
        (where or st).caption(judge_rows.variant_note(variant))


def embedder_choice(container: Any = None) -> str:
    """The dense judge's model: wordllama, or one the server lists in CHUNK_LAB_EMBEDDERS."""
    c = controls.EMBEDDER
    return (container or st).selectbox(
        c.label,
        c.options,
        key=state.EMBEDDER,
        help=f"{judge_rows.STATIC_MODEL} The server's owner can offer their own models: "
        f"{EMBEDDERS_ENV}=package.module:function (a function of a list of texts returning "
        "one vector per text), comma-separated.",
    )


def judges_row(control: controls.Control) -> tuple[str, str, str]:
    """The retriever a lab ranks by (its own ``control``), the BM25 variant and the
    embedder, side by side: (retriever, variant, embedder) as ui.cached.judge_of takes them."""
    a, b, c = st.columns([2, 3, 2])
    name = a.radio(control.label, control.options, key=control.key, horizontal=True)
    variant = bm25_switch(b, note=False)  # the page writes the note where it fits
    return name, variant, embedder_choice(c)


def loaded(
    judge: tuple[str, str, str], text: str | None = None, question: str | None = None
) -> tuple[str, str, str]:
    """``judge`` when its embedder loads; else BM25, with one line on the page saying why.
    One line too when the embedder cannot read ``text`` or ``question`` (the dense
    judge's ranks are then noise, and the hybrid ranks as BM25 does)."""
    name, variant, spec = judge
    if name == BM25:  # -- no model to load
        return judge
    try:
        model = cached.embedder(spec)
    except EmbedderError as e:
        st.error(f"The embedder cannot judge: {frame.one_line(e)} Ranked by BM25 instead.")
        return BM25, variant, spec
    unread = reading_note(model, question or "", [text] if text else [])
    if unread:
        st.warning(unread)
    return judge
