"""The chunk files uploaded in the sidebar, kept in this process by digest, and their
chunks placed in the document (lab.inputs.placement)."""

from __future__ import annotations

import hashlib

import streamlit as st

from chunkers.options import Unit
from lab.inputs.placement import (
    ChunkOrigin,
    Placement,
    PlacementError,
    import_chunks,
    require_placed,
)

# -- A chunk file uploaded in the sidebar is the strategy "chunks:<digest>": its bytes
# -- are kept here by digest (content-addressed, so every cached call keyed on the
# -- strategy name gets the same chunks), the last few files only.
_CHUNK_FILES: dict[str, tuple[str, bytes]] = {}
_KEPT_FILES = 8


def register_chunk_file(name: str, content: bytes) -> str:
    """Keep an uploaded chunk file; returns the strategy name that stands for it."""
    digest = hashlib.blake2b(content, digest_size=8).hexdigest()
    _CHUNK_FILES.pop(digest, None)
    _CHUNK_FILES[digest] = (name, content)
    while len(_CHUNK_FILES) > _KEPT_FILES:
        _CHUNK_FILES.pop(next(iter(_CHUNK_FILES)))
    return str(ChunkOrigin(digest, imported=True))


def chunk_file(strategy: str) -> tuple[str, bytes]:
    """(file name, content) of the uploaded chunk file ``strategy`` names."""
    found = _CHUNK_FILES.get(ChunkOrigin.named(strategy).name)
    if found is None:
        raise PlacementError("the chunk file is no longer loaded; upload it again")
    return found


@st.cache_data(max_entries=32, show_spinner=False)
def placement(text: str, strategy: str, unit: str) -> Placement:
    """The uploaded chunk file ``strategy`` names, placed in ``text`` (lengths in
    ``unit``); PlacementError, one line, when it cannot be."""
    name, content = chunk_file(strategy)
    u = Unit.named(unit)
    placed = import_chunks(content, text, name, u.base, u.tokenizer)
    return require_placed(
        placed, name, "this document", "pick the document the chunks were made from"
    )
