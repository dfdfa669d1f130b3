"""A lab's result kept: pinned to the notebook, or downloaded as files (the chunks as
JSONL and CSV, a lab's reports)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from lab.inputs import exports as chunk_exports
from ui import state
from ui.present import controls, notebook, urlstate
from ui.sidebar import Context


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
            st.session_state.setdefault(state.PINS, []).append(pin)
            st.success(f"Pinned: {len(st.session_state[state.PINS])} pin(s) in the notebook.")


def export_buttons(ctx: Context, view: dict[str, Any], slug: str) -> None:
    chunks, strategy = view["chunks"], view["strategy"]
    cfg = chunk_exports.chunking_config(ctx.doc_label, ctx.chunked.text, strategy, view["opts"])
    stem = f"{(ctx.doc_name or 'upload')}_{strategy}_{ctx.size}{ctx.unit}_{ctx.overlap}"
    # -- why deferred -- the files are written when a button is clicked, not on every
    # run: writing every chunk twice was most of a step's time on a large upload
    download_buttons(
        stem,
        slug,
        [
            ("Export chunks (JSONL)", lambda: chunk_exports.to_jsonl(chunks, cfg), "jsonl"),
            ("Export chunks (CSV)", lambda: chunk_exports.to_csv(chunks, cfg), "csv"),
        ],
    )


# the files the labs offer for download, by extension
MIME_TYPES = {
    "md": "text/markdown",
    "json": "application/json",
    "jsonl": "application/jsonl",
    "csv": "text/csv",
}


_FILE_NAME = re.compile(r"[^\w.-]+")


def download_buttons(
    stem: str, key: str, files: Sequence[tuple[str, str | Callable[[], str], str]]
) -> None:
    """A download button per (label, payload, extension), side by side: it saves
    ``{stem}.{extension}``; its widget key is ``{key}_{extension}``. A payload may be
    a function, called when the button is clicked."""
    stem = _FILE_NAME.sub("_", stem)  # a unit's name has a space, your chunks a colon
    for column, (label, payload, extension) in zip(st.columns(len(files)), files, strict=True):
        column.download_button(
            label,
            payload,
            file_name=f"{stem}.{extension}",
            mime=MIME_TYPES[extension],
            key=f"{key}_{extension}",
            # -- why no rerun -- a download changes nothing on the page; a rerun on the
            # -- click made a new run replace the file being fetched, and under load the
            # -- click sometimes downloaded nothing
            on_click="ignore",
        )
