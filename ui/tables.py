"""Tables as the labs draw them: the data grid, a plain table that wraps its text, and
in presenter mode a table at the room's text size that scrolls inside its box; under
each, the glossary's words it uses."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from lab.report.markup import md_escape
from ui import state
from ui.present import glossary

TABLES_DRAWN = "_tables_drawn"  # tables drawn by ``table`` in this run (their boxes' keys)
ROOM_TABLE = "room_table_"  # a room table box's key begins so: the page's CSS sizes it
PRESENTER_TABLE_REM = 22  # a projector's table scrolls down past this height


def table(rows: list[dict[str, Any]] | pd.DataFrame, height: int | None = None) -> None:
    """A table: the data grid (sortable, scrolling within ``height``), or in presenter
    mode a plain table at the room's text size (the grid draws its text on a canvas,
    at a size the page cannot change) in a box that scrolls down past
    PRESENTER_TABLE_REM, so a long table leaves the rest of the lesson on the screen."""
    if state.presenter():
        records = rows.to_dict("records") if isinstance(rows, pd.DataFrame) else rows
        drawn = st.session_state[TABLES_DRAWN] = st.session_state.get(TABLES_DRAWN, 0) + 1
        with st.container(key=f"{ROOM_TABLE}{drawn}"):  # the key names the CSS's box
            wrapping_table(records)
        return
    df = rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(rows)
    st.dataframe(df, hide_index=True, height=height or "auto")
    _terms(df)


def _terms(df: pd.DataFrame) -> None:
    """Under a table whose headers or row names use the glossary's words (recall@k,
    MRR, p5...): a line whose tooltip explains them."""
    names = [str(c) for c in df.columns]
    if len(df.columns):
        names += [str(v) for v in df.iloc[:, 0] if isinstance(v, str)]
    terms = glossary.terms_in(*names)
    if terms:
        st.caption(
            "Terms in this table: " + ", ".join(t.name for t in terms),
            help=glossary.explain(terms),
        )


def full_table(rows: list[dict[str, Any]]) -> None:
    """A short table shown whole, every row on the page (no inner scroll)."""
    st.table(pd.DataFrame(rows), hide_index=True)


def wrapping_table(rows: list[dict[str, Any]]) -> None:
    """A table whose every column fits the page and whose long text wraps (st.table,
    not the scrolling data grid). Its cells are Markdown, so text is escaped and
    shown as written; numbers as the lab rounded them (0.917, 1), not 1.0000."""
    columns = list(dict.fromkeys(k for r in rows for k in r))
    cells = {c: [r.get(c) for r in rows] for c in columns}
    for c, values in cells.items():
        # formatted in plain Python: pandas' per-column map cost more than the table
        if any(isinstance(v, float) for v in values):
            cells[c] = [f"{v:g}" if isinstance(v, int | float) else v for v in values]
        elif any(type(v) is int and abs(v) >= 1000 for v in values):
            # -- a count a reader compares across rows: 12,345, as the page's sentences write it
            cells[c] = [f"{v:,}" if type(v) is int else v for v in values]
        elif any(isinstance(v, str) for v in values):
            cells[c] = [md_escape(v) if isinstance(v, str) else v for v in values]
    df = pd.DataFrame(cells, columns=columns)
    st.table(df, hide_index=True)
    _terms(df)
