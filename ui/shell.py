"""What every lab page shares: the header, the intro, the error guard, the chunk
view with its verdict banner and cards, pinning and the chunk exports."""

from __future__ import annotations

import contextlib
import hashlib
import pickle
import re
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd
import streamlit as st
from streamlit.runtime.scriptrunner_utils.exceptions import ScriptControlException

from lab.inputs import exports
from lab.measure.survival import AnswerNotFound, Survival
from lab.report.markup import md_escape
from lab.report.words import counted
from lab.retrieval.bm25 import DEFAULT_VARIANT
from ui import cached, state
from ui.present import chunkview, controls, glossary, notebook, plotly_charts, urlstate, vega_charts
from ui.sidebar import Context

CTX = "_ctx"
CHART_HEIGHT = 380
# -- why 440 -- a projector is often 1280x720: under the page's top bar, the
# title and the verdict, 440 px is what is left for the main chart.
PRESENTER_HEIGHT = 440
PRESENTER_ROW_PX = 115  # a row of sliders at presenter size
POINTER_ROW_PX = 78  # the pointer's two lines under a chart at presenter size, with the gap
PRESENTER_TEXT = 1.5  # chart and body text grow by this much for a room
DOC_BOX_PX = 520  # the chunk view's document and cards scroll inside this height
_SLOTS = "_lab_slots"  # (verdict slot, chunk-view slot) of the page being drawn
_TABLES = "_tables_drawn"  # tables drawn by ``table`` in this run (their boxes' keys)
_ROOM_TABLE = "room_table_"
PRESENTER_TABLE_REM = 22  # a projector's table scrolls down past this height

# Every page: a shorter top margin, so a lab's verdict and its main chart share one
# screen at 1440x900; the presenter switch pinned in the top bar (which is opaque, so
# the page scrolls under the bar and the switch covers nothing), visible with the
# sidebar closed.
_PAGE_CSS = """
.stMainBlockContainer { padding-top: 3.5rem; }
/* the top bar is opaque: the page scrolls under it, never under the presenter switch */
[data-testid="stHeader"] { background: #fff; }
.st-key-presenter_switch { position: fixed; top: 0.85rem; right: 4.5rem; z-index: 999991;
  width: auto !important; background: rgba(255,255,255,0.9); border-radius: 6px;
  padding: 0 0.4rem; }
"""
# Presenter mode: body text 1.5x (16 -> 24 px) in the main area; headings keep their
# size or grow, never shrink.
_PRESENTER_CSS = """
.stMainBlockContainer { padding-top: 3.75rem; padding-bottom: 2rem; }
.stMain [data-testid="stMarkdownContainer"] p, .stMain [data-testid="stMarkdownContainer"] li,
.stMain [data-testid="stCaptionContainer"], .stMain [data-testid="stWidgetLabel"] p,
.stMain [data-testid="stTable"] td, .stMain [data-testid="stTable"] th,
.stMain [data-testid="stMetricValue"], .stMain .stHtml,
.stMain [data-testid="stFileUploaderDropzoneInstructions"] span,
.stMain [data-testid="stFileUploaderDropzoneInstructions"] small,
.stMain [data-testid="stCode"] code, .stMain input, .stMain textarea { font-size: 1.5rem; }
.stMain h1 { font-size: 3rem; padding-top: 0; }
.stMain [data-testid="stMarkdownContainer"] p code { font-size: 1em; }
.stMain [data-testid="stAlertContainer"] { padding-top: 0.5rem; padding-bottom: 0.5rem; }
.stMain [data-testid="stMetricLabel"] * { white-space: normal; overflow: visible; }
/* a slider's value sits above its thumb whatever its size, and the end values stay
   inside the page: the track is inset by room for them */
.stMain [data-testid="stSliderThumbValue"] { top: auto; bottom: calc(100% + 2px); }
.stMain [data-testid="stSlider"] [role="group"] { padding: 1.4rem 1.2rem 0 1.2rem; }
/* a table's long cells and headers wrap: no table is wider than its column */
.stMain [data-testid="stTable"] th, .stMain [data-testid="stTable"] td {
  white-space: normal; overflow-wrap: anywhere; }
""" + (
    f'[class*="st-key-{_ROOM_TABLE}"] '
    f"{{ max-height: {PRESENTER_TABLE_REM}rem; overflow-y: auto; overflow-x: hidden; }}"
)


def context() -> Context:
    return st.session_state[CTX]


def columns(spec: list[int]) -> list[Any]:
    """Side-by-side columns, or in presenter mode the same places one under the other:
    at a room's text size a chart or table a fraction of the page wide is squeezed."""
    if state.presenter():
        return [st.container() for _ in spec]
    return st.columns(spec)


def chart_height(rows_above: float = 0) -> int:
    """The charts' height; in presenter mode less for each row of controls or verdicts
    a lab puts between its verdict and its main chart, so both fit 1280x720."""
    if not state.presenter():
        return CHART_HEIGHT
    return round(PRESENTER_HEIGHT - PRESENTER_ROW_PX * rows_above)


def page_style() -> None:
    """The page's CSS, and the presenter switch (app.py calls this on every run)."""
    st.session_state[_TABLES] = 0
    css = _PAGE_CSS + (_PRESENTER_CSS if state.presenter() else "")
    st.html(f"<style>{css}</style>")
    with st.container(key="presenter_switch"):
        st.toggle(
            "Presenter mode",
            key=state.PRESENTER,
            help="For a projector: larger text and charts, no explanations, sidebar closed "
            "(open it with the arrow at the top left). A link with presenter=1 opens this way.",
        )


def vega(spec: dict[str, Any], container: Any = None) -> Any:
    """st.vega_lite_chart for a chart a step changes (ui.present.vega_charts), made for a
    projector in presenter mode. No key: a keyed chart would be named by its data."""
    if state.presenter():
        vega_charts.for_presenter(spec, PRESENTER_TEXT)
    return (container or st).vega_lite_chart(spec, width="stretch")


def plot_curve(
    draw: Callable[..., Any], args: tuple, *, size: int, text: str, key: str, **kwargs: Any
) -> Any:
    """A chart over chunk sizes, ``draw(*args)``, drawn without the current size (a
    survival curve, the lottery map: a new size leaves it as it is), and under it the
    pointer at ``size``. ``kwargs`` go to st.plotly_chart."""
    # -- why a digest -- Streamlit's cache hashes its arguments value by value in
    # Python, which for a few survival curves took longer than the step's drawing;
    # a pickle's digest keys the same figure in a fraction of that
    digest = hashlib.blake2b(pickle.dumps((draw.__qualname__, args)), digest_size=16)
    fig = _curve_figure(draw, args, digest.hexdigest(), state.presenter())
    chart = st.plotly_chart(fig, key=key, **kwargs)
    st.html(plotly_charts.size_pointer(fig, size, text))
    return chart


# -- why cached -- a chart over sizes is the same figure at every size, and building
# a Plotly figure (every property validated) was most of a slider step's Python time
# on Labs 1-3, which the browser waits for. Built once per chart and setting, shared
# read-only (st.plotly_chart and size_pointer only read it).
@st.cache_resource(max_entries=48, show_spinner=False)
def _curve_figure(_draw: Callable[..., Any], _args: tuple, digest: str, presenter: bool) -> Any:
    """``_draw(*_args)``, cached under ``digest`` (the arguments'; Streamlit does
    not hash an argument named with a leading underscore); for a projector with text
    1.5x larger, and shorter by the pointer's rows, so chart and pointer both stay on
    the screen."""
    fig = _draw(*_args)
    if presenter:
        plotly_charts.scale_text(fig, PRESENTER_TEXT)
        fig.update_layout(height=fig.layout.height - POINTER_ROW_PX)
    return fig


def _slot(n: int) -> Any:
    """The verdict slot (0) or the chunk-view slot (1) of the page being drawn."""
    slots = st.session_state.get(_SLOTS)
    return slots[n] if slots else contextlib.nullcontext()


def one_line(exc: BaseException) -> str:
    """An exception as one line of Markdown-safe text (messages quote file names,
    answers and values the user gave)."""
    text = str(exc).strip().splitlines()
    return md_escape(text[0] if text else type(exc).__name__)


def _load_preset(slug: str) -> None:
    state.request(urlstate.LAB_PRESETS[slug])


def run_lab(
    slug: str, intro: str, body: Callable[[Context], None], *, needs_document: bool = True
) -> None:
    """Header, intro (hidden for presenters), then the body behind a one-line error guard.

    The chunk view's verdict is drawn right under the header and the chunk view
    itself after the body, so the verdict and the lab's main chart (the body's
    first chart) share one screen."""
    number = urlstate.LAB_SLUGS.index(slug) + 1
    st.title(f"{number}. {urlstate.lab_title(slug)}")
    if not state.presenter():
        st.markdown(intro, help=glossary.help_for(intro))
        if slug in urlstate.LAB_PRESETS:
            p = urlstate.LAB_PRESETS[slug]
            st.button(
                f"Set up this lab's example ({p['doc']}.md, {p['strategy']}, {p['size']} "
                f"{p['unit']}, overlap {p['overlap']})",
                key=f"preset_{slug}",
                on_click=_load_preset,
                args=(slug,),
            )
    ctx = context()
    if needs_document and ctx.text is None:
        st.info(
            "Upload a .md or .txt document in the sidebar (a .pdf, .html or .docx is "
            "converted), or pick a sample, to start."
        )
        return
    # the chunk view's slot is named: a projector's checks leave its scrolling boxes out
    verdict_slot, main, view_slot = st.container(), st.container(), st.container(key="chunk_view")
    st.session_state[_SLOTS] = (verdict_slot, view_slot)
    with main:
        try:
            body(ctx)
        except ScriptControlException:
            raise
        except AnswerNotFound as e:  # caught by the sidebar first; kept as a last guard
            st.warning(f"{one_line(e)}: pick an answer that appears in the document.")
        except Exception as e:  # noqa: BLE001 - the user sees one line, never a traceback
            st.error(f"Something went wrong in this lab: {one_line(e)}")


# --------------------------------------------------------------------------- chunk view


def survival_of(
    ctx: Context, strategy: str | None = None, runt_merge: str = "backward"
) -> Survival | None:
    """The survival check for the current answer, or None without an answer."""
    if not ctx.answer:
        return None
    chunked = ctx.chunked._replace(strategy=strategy or ctx.strategy)
    return cached.survival(chunked, ctx.answer, runt_merge)


def missing_answer_line(ctx: Context) -> str | None:
    """The warning that stands where the verdict goes when the answer is not in the text."""
    if not ctx.answer_missing:
        return None
    return f"{md_escape(ctx.answer_missing)}: pick an answer that appears in the document."


def verdict_for(ctx: Context, surv: Survival | None) -> chunkview.Verdict:
    """The verdict shown: the survival check's, or the missing answer's warning."""
    warning = missing_answer_line(ctx)
    return chunkview.Verdict(None, warning, missing=True) if warning else chunkview.verdict(surv)


def under_verdict(text: str) -> None:
    """A line of the page's own words right under its verdict (on the first screen)."""
    with _slot(0):
        st.markdown(text)


def verdict_banner(v: chunkview.Verdict) -> None:
    if v.missing:
        st.warning(v.text)
        return
    if v.ok is None:
        st.info(v.text)
    elif v.ok:
        st.success(v.text)
    else:
        st.error(v.text)


def chunk_view(
    ctx: Context,
    *,
    key: str,
    strategy: str | None = None,
    heading_path: bool = True,
    runt_merge: str = "backward",
    verdict_on_top: bool = True,
) -> dict[str, Any]:
    """Verdict banner (under the page's title unless ``verdict_on_top`` is False),
    then, after the lab's own body: count line, the shaded document and the chunk
    cards, both opened at the answer.

    Returns the key numbers (for a pin)."""
    strategy = strategy or ctx.strategy
    cs = cached.chunks(ctx.chunked._replace(strategy=strategy), runt_merge)
    surv = survival_of(ctx, strategy, runt_merge)
    v = verdict_for(ctx, surv)
    with _slot(0) if verdict_on_top else contextlib.nullcontext():
        verdict_banner(v)
    with _slot(1):
        return _chunk_view_body(ctx, cs, surv, v, strategy, heading_path, runt_merge)


def _chunk_view_body(
    ctx: Context,
    cs: list[Any],
    surv: Survival | None,
    v: chunkview.Verdict,
    strategy: str,
    heading_path: bool,
    runt_merge: str,
) -> dict[str, Any]:
    scores = None
    if ctx.question:
        try:
            scores = cached.scores(
                ctx.chunked._replace(strategy=strategy),
                ctx.question,
                heading_path=heading_path,
                runt_merge=runt_merge,
                # the BM25 the labs that rank have chosen (ui.state keeps it from lab to lab)
                variant=st.session_state.get(state.BM25, DEFAULT_VARIANT),
            )
        except ValueError as e:
            st.warning(one_line(e))
    elif ctx.qa_source == "own":
        st.info("Type a question in the sidebar to rank the chunks with BM25.")
    text = ctx.chunked.text
    st.caption(chunkview.count_line(cs, text, ctx.unit))
    span = surv.span if surv else None
    shown, around = _card_window(ctx, cs, surv, strategy, runt_merge)
    left, right = st.columns([3, 2])
    with left:
        st.html(chunkview.legend_html())
        doc_html = chunkview.document_html(text, cs, span, height_px=DOC_BOX_PX, around=around)
        st.html(doc_html)
    with right:
        cards = chunkview.chunk_cards(shown, scores, ctx.opts, surv, total=len(cs))
        cards_html = chunkview.cards_html(cards, height_px=DOC_BOX_PX)
        st.html(cards_html)
        # our own fixed script (no document text in it): scroll both boxes to the answer
        st.html(chunkview.scroll_script(doc_html + cards_html), unsafe_allow_javascript=True)
    numbers = {"chunks": len(cs)}
    if surv and surv.intact and surv.chunk_index is not None:
        numbers["chunk holding the answer"] = surv.chunk_index + 1
        if scores:
            numbers["its BM25 rank"] = next(s.rank for s in scores if s.index == surv.chunk_index)
    return {
        "verdict": v.text,
        "numbers": numbers,
        "chunks": cs,
        "strategy": strategy,
        "opts": cached.options(ctx.size, ctx.overlap, ctx.unit, runt_merge),
    }


_FIND = "_find_in_chunks"


def _card_window(
    ctx: Context, cs: list[Any], surv: Survival | None, strategy: str, runt_merge: str
) -> tuple[list[Any], tuple[int, int] | None]:
    """The chunks whose cards show, and the span the document box opens around (None:
    the answer). A long document shows CARD_WINDOW cards around the answer, with a
    field to page through them and one to find text in them."""
    total = len(cs)
    if total <= chunkview.CARD_WINDOW:
        return cs, None
    focus = chunkview.answer_chunk(surv)
    start = chunkview.window_start(total, focus)
    # -- why the view in the key -- a new setting (size, strategy, answer...) opens the
    # cards at its answer again; paging stays put only while the view is the same
    view = hashlib.blake2b(
        repr((strategy, ctx.size, ctx.overlap, ctx.unit, runt_merge, ctx.answer, total)).encode(),
        digest_size=6,
    ).hexdigest()
    a, b = st.columns([1, 2])
    first = a.number_input(
        "Cards from chunk",
        min_value=1,
        max_value=total,
        value=start + 1,
        step=chunkview.CARD_WINDOW,
        key=f"cards_from_{view}",
        help=f"The cards come {chunkview.CARD_WINDOW} at a time; +/- pages through them.",
    )
    query = b.text_input("Find text in the chunks", key=_FIND, placeholder="a word or a phrase")
    if query.strip():
        found = chunkview.find_chunks(cs, query)
        more = len(found) > chunkview.CARD_WINDOW
        st.caption(
            f"{counted(len(found), 'chunk')} with “{md_escape(query.strip())}”"
            + (f"; the first {chunkview.CARD_WINDOW} are shown." if more else ".")
        )
        shown = [cs[i] for i in found[: chunkview.CARD_WINDOW]]
        return shown, ((shown[0].start, shown[0].end) if shown else None)
    lo = min(int(first) - 1, total - 1)
    hi = min(lo + chunkview.CARD_WINDOW, total)
    st.caption(chunkview.window_line(lo, hi, total, focus))
    inside = focus is not None and lo <= focus < hi
    return cs[lo:hi], (None if inside else (cs[lo].start, cs[lo].end))


# --------------------------------------------------------------------------- pins and exports


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
    cfg = exports.chunking_config(ctx.doc_label, ctx.chunked.text, strategy, view["opts"])
    stem = f"{(ctx.doc_name or 'upload')}_{strategy}_{ctx.size}{ctx.unit}_{ctx.overlap}"
    # -- why deferred -- the files are written when a button is clicked, not on every
    # run: writing every chunk twice was most of a step's time on a large upload
    download_buttons(
        stem,
        slug,
        [
            ("Export chunks (JSONL)", lambda: exports.to_jsonl(chunks, cfg), "jsonl"),
            ("Export chunks (CSV)", lambda: exports.to_csv(chunks, cfg), "csv"),
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


def footer(
    ctx: Context, slug: str, view: dict[str, Any], extra: dict[str, Any] | None = None
) -> None:
    numbers = dict(view["numbers"])
    numbers.update(extra or {})
    with _slot(1):  # under the chunk view it exports
        pin_box(ctx, slug, view["verdict"], numbers)
        export_buttons(ctx, view, slug)


def not_for_imported_chunks(
    ctx: Context, why: str, *, key: str, slug: str, extra: dict[str, Any]
) -> None:
    """A lab that chunks the document itself, shown with an uploaded chunk file: ``why``
    it cannot measure them, then the file's chunks in the chunk view and the footer."""
    st.info(why)
    footer(ctx, slug, chunk_view(ctx, key=key), extra)


def table(rows: list[dict[str, Any]] | pd.DataFrame, height: int | None = None) -> None:
    """A table: the data grid (sortable, scrolling within ``height``), or in presenter
    mode a plain table at the room's text size (the grid draws its text on a canvas,
    at a size the page cannot change) in a box that scrolls down past
    PRESENTER_TABLE_REM, so a long table leaves the rest of the lesson on the screen."""
    if state.presenter():
        records = rows.to_dict("records") if isinstance(rows, pd.DataFrame) else rows
        drawn = st.session_state[_TABLES] = st.session_state.get(_TABLES, 0) + 1
        with st.container(key=f"{_ROOM_TABLE}{drawn}"):  # the key names the CSS's box
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


def explain(text: str) -> None:
    """An explanation: hidden in presenter mode."""
    if not state.presenter():
        st.caption(text)
