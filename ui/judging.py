"""The judges' widgets: the BM25 switch and the embedder choice, drawn by every lab
that ranks under the same keys (ui.state keeps their values from lab to lab and
writes them into the link; a pin keeps them as ``bm25`` and ``embedder``)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui import controls, state
from ui.urlstate import EMBEDDERS_ENV
from ui.views import judges


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
        (where or st).caption(judges.variant_note(variant))


def embedder_choice(container: Any = None) -> str:
    """The dense judge's model: wordllama, or one the server lists in CHUNK_LAB_EMBEDDERS."""
    c = controls.EMBEDDER
    return (container or st).selectbox(
        c.label,
        c.options,
        key=state.EMBEDDER,
        help=f"{judges.STATIC_MODEL} The server's owner can offer their own models: "
        f"{EMBEDDERS_ENV}=package.module:function (a function of a list of texts returning "
        "one vector per text), comma-separated.",
    )
