"""Lab 7: the notebook of pins."""

import streamlit as st

from lab.report.markup import md_escape
from ui import exports, frame, state, tables
from ui.present import controls, notebook, urlstate

INTRO = """
Every lab can pin its current result: configuration, verdict, key numbers and a note. Restore a
pin to reopen that exact view, and export the notebook as Markdown for a write-up or as JSON to
load again later. An index should be stored with the chunking configuration that built it;
a finding deserves the same.
"""


RESTORED = ("doc", "q", "strategy", "unit", "tok", "size", "overlap")
ADDED = "_nb_added"  # the file id of the notebook file whose pins were added


def _restore(pin):
    """Reopen a pin's view. Its values go through the same checks as a link's (an
    imported notebook can say anything): a bad one falls back with a notice."""
    cfg = {k: v for k, v in pin.config.items() if k in RESTORED}
    if cfg.get("doc") not in state.sample_names():  # an upload's pin: keep the document open now
        cfg.pop("doc", None)
        cfg.pop("q", None)
    if cfg.get("q") == "own":  # your own question is not kept in a pin
        cfg.pop("q")
    params = {k: str(v) for k, v in cfg.items()}
    settings, notices = urlstate.parse_params(
        params, state.sample_names(), state.question_counts(), source="Pin"
    )
    lab = urlstate.lab_slug(str(pin.lab))
    widgets, bad = controls.restore(lab or "", pin.config)  # k1, b, runt_merge, heading, k
    state.request({k: getattr(settings, k) for k in cfg}, lab=lab, widgets=widgets)
    st.session_state[state.NOTICES] = notices + bad


def _remove(i):
    st.session_state[state.PINS].pop(i)


def body(ctx):
    pins = st.session_state.setdefault(state.PINS, [])
    st.markdown(f"**{len(pins)} pin(s) in this session's notebook.**")
    for i, pin in enumerate(pins):
        with st.container(border=True):
            # a pin's fields are text: typed here or read from a file, never markup
            st.markdown(f"**{i + 1}. {md_escape(pin.title)}** · {md_escape(pin.created)}")
            if pin.question:
                st.markdown(f"Question: “{md_escape(pin.question)}”")
            st.caption(md_escape(notebook.config_line(pin.config)))
            if pin.verdict:
                st.markdown(md_escape(pin.verdict))
            if pin.numbers:
                tables.table([{"measure": str(k), "value": str(v)} for k, v in pin.numbers.items()])
            if pin.note:
                st.markdown("\n".join(notebook.quote_lines(pin.note)))
            a, b = st.columns(2)
            a.button("Restore this view", key=f"restore_{i}", on_click=_restore, args=(pin,))
            b.button("Remove", key=f"remove_{i}", on_click=_remove, args=(i,))
    exports.download_buttons(
        "chunk-lab-notebook",
        "nb",
        [
            ("Export notebook (Markdown)", notebook.to_markdown(pins), "md"),
            ("Export notebook (JSON)", notebook.to_json(pins), "json"),
        ],
    )
    f = st.file_uploader("Load a notebook (.json exported here)", type=["json"], key="nb_import")
    if f is not None:
        try:
            loaded = notebook.from_json(f.getvalue().decode("utf-8", errors="replace"))
        except notebook.NotebookError as e:
            st.error(frame.one_line(e))
        else:
            # -- why remembered -- the file stays in its box after the pins are added:
            # offering them again would add each pin twice
            if st.session_state.get(ADDED) == f.file_id:
                st.caption(f"Added the {len(loaded)} pin(s) from {md_escape(f.name)}.")
            elif st.button(f"Add the {len(loaded)} pin(s) from {md_escape(f.name)}", key="nb_add"):
                pins.extend(loaded)
                st.session_state[ADDED] = f.file_id
                st.rerun()


frame.run_lab("notebook", INTRO, body, needs_document=False)
