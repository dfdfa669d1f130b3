"""Cached calls for the Routing lab: the mixed folder's types and the per-type
comparison, keyed on the settings (as ui.cached does for the other labs)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from chunkers import ChunkOptions
from chunkers.doctype import Classified
from lab.inputs.doctypes import document_types
from lab.inputs.mixed import mixed_folder
from lab.measure.by_type import routing_comparison
from ui import cached

Judge = tuple[str, str, str]


@st.cache_data(max_entries=2, show_spinner=False)
def mixed_types() -> dict[str, Classified]:
    docs, _ = mixed_folder()
    return document_types(docs)


@st.cache_data(max_entries=32, show_spinner="Chunking and checking the mixed folder...")
def comparison(
    strategy: str, opts: ChunkOptions, k: int, judge: Judge, switched: tuple[tuple[str, str], ...]
) -> dict[str, dict[str, Any]]:
    docs, questions = mixed_folder()
    return routing_comparison(
        docs,
        questions,
        mixed_types(),
        strategy,
        opts,
        cached.judge_of(*judge),
        k,
        dict(switched),
    )
