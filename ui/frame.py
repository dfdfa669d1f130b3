"""What every lab page is drawn in: the header and intro, the error guard, the page's
CSS and presenter mode, the chart heights, columns that stack on a projector, and
charts over chunk sizes with their pointer."""

from __future__ import annotations

import contextlib
import hashlib
import pickle
from collections.abc import Callable
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner_utils.exceptions import ScriptControlException

from lab.measure.survival import AnswerNotFound
from lab.report.markup import md_escape
from ui import state
from ui.present import glossary, plotly_charts, urlstate, vega_charts
from ui.present.sweeps import DRAG_LABS
from ui.sidebar import SIZE_HIDDEN, Context
from ui.tables import PRESENTER_TABLE_REM, ROOM_TABLE, TABLES_DRAWN

CTX = "_ctx"
CHART_HEIGHT = 380
# -- why 440 -- a projector is often 1280x720: under the page's top bar, the
# title and the verdict, 440 px is what is left for the main chart.
PRESENTER_HEIGHT = 440
PRESENTER_ROW_PX = 115  # a row of sliders at presenter size
LAPTOP_ROW_PX = 40  # a line of text or half the size control of Labs 1-3, at 1440x900
CONTROL_ROWS = 2  # the size control of Labs 1-3 (slider, strip, verdict), in those lines
POINTER_ROW_PX = 78  # the pointer's two lines under a chart at presenter size, with the gap
PRESENTER_TEXT = 1.5  # chart and body text grow by this much for a room
_SLOTS = "_lab_slots"  # (verdict slot, chunk-view slot) of the page being drawn
AT_SIZE = "at_size"  # a block drawn for the app's size: its key says which (see at_size)

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
    f'[class*="st-key-{ROOM_TABLE}"] '
    f"{{ max-height: {PRESENTER_TABLE_REM}rem; overflow-y: auto; overflow-x: hidden; }}"
)


# where a lab's own size control drags live, it is the page's one size control
_PAGE_CSS += f".st-key-{SIZE_HIDDEN} {{ display: none; }}\n"


def context() -> Context:
    return st.session_state[CTX]


def columns(spec: list[int]) -> list[Any]:
    """Side-by-side columns, or in presenter mode the same places one under the other:
    at a room's text size a chart or table a fraction of the page wide is squeezed."""
    if state.presenter():
        return [st.container() for _ in spec]
    return st.columns(spec)


def chart_height(rows_above: float = 0, *, laptop_rows: float = 0) -> int:
    """The charts' height; in presenter mode less for each row of controls or verdicts
    a lab puts between its verdict and its main chart, so both fit 1280x720; on a
    laptop, less by ``laptop_rows`` lines of text (the size control of Labs 1-3 is
    two), so the chart and the pointer under it fit 1440x900."""
    if not state.presenter():
        return round(CHART_HEIGHT - LAPTOP_ROW_PX * laptop_rows)
    return round(PRESENTER_HEIGHT - PRESENTER_ROW_PX * rows_above)


def page_style() -> None:
    """The page's CSS, and the presenter switch (app.py calls this on every run)."""
    st.session_state[TABLES_DRAWN] = 0
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


def survival_curve(ctx: Context, curve: Any, key: str, height: int, *title: str) -> Any:
    """The sidebar strategy's survival curve over sizes with its pointer at the size: a
    click on a point moves the size there (the page reads the selection under ``key``)."""
    return plot_curve(
        plotly_charts.survival_step,
        (curve, ctx.unit, ctx.strategy, height, *title),
        size=ctx.size,
        text=plotly_charts.pointer_text(curve, ctx.size, ctx.unit),
        key=key,
        on_select="rerun",
        selection_mode="points",
    )


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


def at_size(size: int, name: str) -> Any:
    """A container for what a lab draws at the app's size ``size``, on a lab whose size
    control drags live: while the control holds another size, the browser hides it (its
    key names the size it was drawn for; ui.drag_slider), so nothing on screen names a
    size other than the one held."""
    return st.container(key=f"{AT_SIZE}_{size}_{name}")


def slot(n: int) -> Any:
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
    if slug in DRAG_LABS:  # what the run drew for the app's size hides while another is held
        verdict_slot, main = at_size(ctx.size, "verdict"), st.container()
        with st.container(key="chunk_view"):
            view_slot = at_size(ctx.size, "view")
    else:
        verdict_slot, main = st.container(), st.container()
        view_slot = st.container(key="chunk_view")
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


def explain(text: str) -> None:
    """An explanation: hidden in presenter mode."""
    if not state.presenter():
        st.caption(text)
