"""Chunk Lab: `streamlit run app.py`.

A thin entry: page config, URL state, the sidebar, and navigation over the
labs in lab_pages/ (ui.present.urlstate.LABS). Every number a lab shows comes from
lab/ and chunkers/.
"""

from __future__ import annotations

import streamlit as st

from ui import frame, sidebar, state
from ui.present.urlstate import LABS

st.set_page_config(page_title="Chunk Lab", layout="wide")

state.init()
state.apply_pending()

PAGES = {
    lab.slug: st.Page(lab.page, title=f"{n}. {lab.title}", url_path=lab.slug)
    for n, lab in enumerate(LABS, start=1)
}


def _home() -> None:
    """Never drawn: the app's root opens Lab 1 (see below)."""


# -- why a hidden root -- Streamlit serves its default page at "/" only, never at
# the page's own name: Lab 1 as the default answered "/" and "Page not found" at
# /boundary. Every lab now answers at its name, and "/" opens Lab 1 there.
HOME = st.Page(_home, title="Chunk Lab", url_path="home", default=True, visibility="hidden")
page = st.navigation([HOME, *PAGES.values()])
current = next((slug for slug, p in PAGES.items() if p is page), None)
state.open_on_example(current)

st.session_state[frame.CTX] = sidebar.render(current or LABS[0].slug)

# A projector hides the sidebar; switching presenter mode off opens it again.
st.set_page_config(initial_sidebar_state="collapsed" if state.presenter() else "expanded")
frame.page_style()

wanted = state.take_wanted_lab() or (None if current else LABS[0].slug)
if wanted and wanted != current and wanted in PAGES:
    st.switch_page(PAGES[wanted])

for notice in state.notices():
    st.warning(notice)
if state.notices():
    st.button("Dismiss", key="dismiss_notices", on_click=state.dismiss_notices)

state.sync_url(current or LABS[0].slug)  # the root opens Lab 1
page.run()
