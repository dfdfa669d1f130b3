"""Chunk Lab: `streamlit run app.py`.

A thin entry: page config, URL state, the sidebar, and navigation over the
labs in lab_pages/ (ui.urlstate.LABS). Every number a lab shows comes from lab/ and chunkers/.
"""

from __future__ import annotations

import streamlit as st

from ui import shell, sidebar, state
from ui.urlstate import LABS

st.set_page_config(page_title="Chunk Lab", layout="wide")

state.init()
state.apply_pending()

PAGES = {
    lab.slug: st.Page(lab.page, title=f"{n}. {lab.title}", url_path=lab.slug, default=(n == 1))
    for n, lab in enumerate(LABS, start=1)
}
page = st.navigation(list(PAGES.values()))
current = next(slug for slug, p in PAGES.items() if p.url_path == page.url_path)

st.session_state[shell.CTX] = sidebar.render()

# A projector hides the sidebar; switching presenter mode off opens it again.
st.set_page_config(initial_sidebar_state="collapsed" if state.presenter() else "expanded")
shell.page_style()

wanted = state.take_wanted_lab()
if wanted and wanted != current and wanted in PAGES:
    st.switch_page(PAGES[wanted])

for notice in state.notices():
    st.warning(notice)
if state.notices():
    st.button("Dismiss", key="dismiss_notices", on_click=state.dismiss_notices)

state.sync_url(current)
page.run()
