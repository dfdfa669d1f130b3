"""Session state: one key per sidebar widget, seeded from the URL once per session.

Settings carry from lab to lab because the sidebar widgets live in app.py and
keep their keys on every page; the URL is rewritten from them on every run.
Anything that moves a widget from code (a link, a preset, a restored pin, a
click on a survival curve) goes through ``request`` and is applied at the top
of the next run, before the widgets exist.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from lab.inputs.placement import IMPORTED
from lab.inputs.samples import sample_names
from ui import cached
from ui.present import urlstate
from ui.present.sweeps import size_from_selection
from ui.present.urlstate import Settings

# widget keys
DOC = "doc"
UPLOAD = "upload"
QUESTION = "question"
OWN_Q = "own_question"
ANSWER_MODE = "answer_mode"
ANSWER_PICK = "answer_pick"
ANSWER_PASTE = "answer_paste"
STRATEGY = "strategy"
UNIT = "unit"
TOKENIZER = "tok"  # the tokenizer, when the unit is tokens (a link's "tok")
CHUNK_FILE = "chunk_file"  # an upload of chunks made elsewhere: the strategy "your chunks"
SIZE = "size"
OVERLAP = "overlap"
PRESENTER = "presenter"
# The judges: one value each for every lab that ranks (each lab draws its own widget
# under this key), kept alive across labs and carried by the URL
BM25 = "bm25"
EMBEDDER = "embedder"
LIMIT = "limit"  # the embedder's limit in tokens (the truncation lesson, a link's "limit")
SHARED = (BM25, EMBEDDER, LIMIT)

UPLOAD_CHOICE = "__upload__"
OWN_QUESTION = -1
PICK, PASTE = "pick a sentence", "paste it"

# session keys that are not widgets
_INIT = "_init"
NOTICES = "_url_notices"
WANT_LAB = "_want_lab"
PENDING = "_pending"
PINS = "pins"
UPLOAD_ID = "_upload_id"  # file id of the upload the answer fields and gold set belong to
UPLOAD_GOLD = "_upload_gold"  # (file id, file name, GoldPairs) loaded for that upload
_SHAPES = "_widget_shapes"  # widget key -> the range it was last drawn with (see settle)
CURVE_CLICKS = "_curve_clicks"  # survival chart -> clicks applied so far (its key's suffix)
SEEN_LABS = "_seen_labs"  # the labs this session has opened (each opens on its example once)
_LINKED = "_linked"  # the session opened on a link with settings: its first lab keeps them


def question_counts() -> dict[str, int]:
    return {name: len(cached.gold_questions(name)) for name in sample_names()}


def init() -> None:
    """First run of a session: settings from the URL (bad values -> defaults + notices)."""
    ss = st.session_state
    if ss.get(_INIT):
        return
    ss[_INIT] = True
    params = {k: st.query_params.get_all(k) for k in st.query_params}
    settings, notices = urlstate.parse_params(params, sample_names(), question_counts())
    _write(settings)
    ss[NOTICES] = notices
    ss[WANT_LAB] = settings.lab if "lab" in params else None
    ss[_LINKED] = any(k in urlstate.SETTING_KEYS for k in params)
    ss.setdefault(PINS, [])
    ss[PRESENTER] = settings.presenter
    ss.setdefault(ANSWER_MODE, PICK)


def _write(settings: Settings | dict[str, Any]) -> None:
    """Put settings into the widget keys (only call before the widgets are drawn)."""
    s = settings.to_dict() if isinstance(settings, Settings) else dict(settings)
    ss = st.session_state
    if "doc" in s:
        ss[DOC] = s["doc"]
        ss[QUESTION] = 0
    if "q" in s:
        ss[QUESTION] = int(s["q"])
    for key in ("strategy", "unit", TOKENIZER, "size", "overlap", *SHARED):
        if key in s:
            ss[key] = s[key]
    if SIZE in ss and UNIT in ss:
        ss[SIZE] = urlstate.clamp_size(ss[SIZE], ss[UNIT])
        ss[OVERLAP] = urlstate.clamp_overlap(ss.get(OVERLAP, 0), ss[SIZE])


def request(
    settings: dict[str, Any], lab: str | None = None, widgets: dict[str, Any] | None = None
) -> None:
    """Ask for new settings (and optionally another lab, and values for that lab's own
    widgets, by key) from a callback or a page."""
    st.session_state[PENDING] = (dict(settings), lab, dict(widgets or {}))


def apply_pending() -> None:
    """Top of every run: apply requested settings and clicks on survival curves, and
    keep the judges' settings alive."""
    ss = st.session_state
    for key in SHARED:
        # -- why -- Streamlit forgets a widget's value on a page that does not draw it;
        # -- set again before any widget exists, the value outlives the labs without one
        if key in ss:
            ss[key] = ss[key]
    pending = ss.pop(PENDING, None)
    if pending:
        settings, lab, widgets = pending
        _write(settings)
        ss.update(widgets)
        if lab:
            ss[WANT_LAB] = lab
            # a pin or a page that opens a lab on given settings: they win over its example
            ss.setdefault(SEEN_LABS, set()).add(lab)
    for name in ss.get(CURVE_CLICKS, {}):
        size = size_from_selection(ss.get(curve_key(name)))
        if size is None:
            continue
        # -- why -- the click is spent: the chart comes back under a new key with no
        # selection, so clicking the same point again (after moving the slider) is a
        # new selection that moves the slider once more
        ss[CURVE_CLICKS][name] += 1
        set_size(size)


def open_on_example(lab: str | None) -> None:
    """The first visit to a lab in a session opens on its own example (ui.present.urlstate's
    LAB_PRESETS), before the sidebar is drawn; a link's settings win on the lab it opens,
    a restored pin's on its lab, and the user's own upload stays open.

    -- why only the first visit -- the settings a user changes on a lab carry on as they
    did before: a lab they come back to, or the next, keeps them."""
    ss = st.session_state
    if lab is None:  # the hidden root: the lab it opens decides
        return
    seen = ss.setdefault(SEEN_LABS, set())
    if lab in seen:
        return
    seen.add(lab)
    if ss.pop(_LINKED, False):
        return
    example = urlstate.example_for(
        lab, upload=ss.get(DOC) == UPLOAD_CHOICE, own_chunks=ss.get(STRATEGY) == IMPORTED
    )
    if example:
        _write(example)


def set_size(size: int) -> None:
    """Move the app's size (the sidebar slider's key, so the URL and pins follow), the
    overlap kept below it; from a callback or before the sidebar is drawn."""
    ss = st.session_state
    ss[SIZE] = urlstate.clamp_size(size, ss.get(UNIT, "words"))
    ss[OVERLAP] = urlstate.clamp_overlap(ss.get(OVERLAP, 0), ss[SIZE])


def curve_key(name: str) -> str:
    """The widget key a survival chart is drawn under now."""
    return f"{name}_{st.session_state.get(CURVE_CLICKS, {}).get(name, 0)}"


def register_curve(name: str) -> str:
    """A survival chart whose point clicks move the size slider; returns its key."""
    st.session_state.setdefault(CURVE_CLICKS, {}).setdefault(name, 0)
    return curve_key(name)


def take_wanted_lab() -> str | None:
    return st.session_state.pop(WANT_LAB, None)


def on_unit_change() -> None:
    ss = st.session_state
    ss[SIZE], ss[OVERLAP] = urlstate.UNIT_DEFAULTS[ss[UNIT]]


def on_size_change() -> None:
    ss = st.session_state
    ss[OVERLAP] = urlstate.clamp_overlap(ss.get(OVERLAP, 0), ss[SIZE])


def on_doc_change() -> None:
    st.session_state[QUESTION] = 0
    st.session_state[ANSWER_PASTE] = ""  # an answer pasted for one document is not another's


def current_settings(lab: str) -> Settings:
    ss = st.session_state
    doc = ss.get(DOC, urlstate.DEFAULT_DOC)
    q = ss.get(QUESTION, 0)
    return Settings(
        doc=doc if doc != UPLOAD_CHOICE else urlstate.DEFAULT_DOC,
        q=q if isinstance(q, int) and q >= 0 else 0,
        strategy=ss.get(STRATEGY, "fixed"),
        unit=ss.get(UNIT, "words"),
        tok=ss.get(TOKENIZER, urlstate.DEFAULTS.tok),
        size=ss.get(SIZE, 24),
        overlap=ss.get(OVERLAP, 0),
        lab=lab,
        presenter=presenter(),
        bm25=ss.get(BM25, urlstate.DEFAULTS.bm25),
        embedder=ss.get(EMBEDDER, urlstate.DEFAULTS.embedder),
        limit=ss.get(LIMIT, urlstate.DEFAULTS.limit),
    )


def sync_url(lab: str) -> None:
    """Rewrite the query string from the widgets (an upload cannot travel in a link)."""
    ss = st.session_state
    shareable = ss.get(DOC) != UPLOAD_CHOICE and ss.get(QUESTION, 0) != OWN_QUESTION
    wanted = urlstate.to_params(current_settings(lab), shareable_doc=shareable)
    current = {k: st.query_params.get(k) for k in st.query_params}
    if current != wanted:
        st.query_params.from_dict(wanted)


def notices() -> list[str]:
    return st.session_state.get(NOTICES, [])


def dismiss_notices() -> None:
    st.session_state[NOTICES] = []


def settle(key: str, value: Any, shape: tuple = ()) -> None:
    """Give widget ``key`` the value ``value`` before it is drawn with ``shape`` (a
    slider's min, max and step), writing only when the value or the shape changes.

    -- why only then -- any write to a widget's key, even of the value it holds,
    makes Streamlit send that value to the browser with the widget, and the browser
    takes it over its own. A run started by one arrow press would then put the
    slider back where that press left it, undoing the presses made since: ten quick
    presses ended a few steps short, the slider jumping back as each run arrived.
    -- why the shape -- a slider whose range changes is a new widget to Streamlit,
    which starts it at its minimum unless the run gives it its value."""
    ss = st.session_state
    shapes = ss.setdefault(_SHAPES, {})
    if key not in ss or ss[key] != value or shapes.get(key) != shape:
        ss[key] = value
        shapes[key] = shape


def presenter() -> bool:
    return bool(st.session_state.get(PRESENTER, False))
