"""What a teacher preparing a class tripped over, checked in real Chromium."""

from __future__ import annotations

import itertools

import pytest

from bench.browser import new_page, open_view, wait_idle
from ui.present.urlstate import LABS

DESKTOP = {"width": 1440, "height": 900}
PROJECTOR = {"width": 1280, "height": 720}
MAIN = '[data-testid="stMain"]'

# Every frame, the slider's value as the page shows it: a value that goes back
# down during ten presses up is a press the page lost, even if a later one hides it.
_RECORD_VALUES = """el => { window.__values = [];
  const note = () => { window.__values.push(Number(el.value));
                       window.__recording = requestAnimationFrame(note); };
  note(); }"""
# the gaps between presses (ms): shorter than a run, about a run, a little longer
GAPS_MS = (40, 90, 140, 60, 110, 160, 70, 120, 50, 100)


# (Labs 1-3's size control redraws at each press and reports once the keys rest:
# tests/browser/test_drag_browser.py)
@pytest.mark.parametrize("lab", [4, 5, 6])
def test_ten_quick_presses_move_the_size_slider_ten_steps(app_url, browser, lab):
    page = new_page(browser, DESKTOP)
    open_view(page, app_url, lab)
    slider = page.get_by_role("slider", name="Chunk size")
    start, step = int(slider.input_value()), int(slider.get_attribute("step"))
    slider.evaluate(_RECORD_VALUES)
    slider.focus()
    for gap in GAPS_MS:
        slider.press("ArrowRight")
        page.wait_for_timeout(gap)
    wait_idle(page)
    page.wait_for_timeout(1000)  # any late run would move it now
    wait_idle(page)
    values = page.evaluate(
        "() => { cancelAnimationFrame(window.__recording); return window.__values; }"
    )
    went_back = [(a, b) for a, b in itertools.pairwise(values) if b < a]
    assert (int(slider.input_value()), went_back) == (start + 10 * step, [])
    # the page's settings agree with the slider: the link and the pointer say the same size
    assert f"size={start + 10 * step}" in page.url
    page.close()


def test_every_lab_answers_at_its_name_and_the_root_opens_lab_1(app_url, browser):
    from ui.present.urlstate import LAB_SLUGS

    page = new_page(browser, DESKTOP)
    # -- offline by construction: every lab's page, scripts, fonts and charts come
    # -- from the app's own server (Labs 1-6's example views: test_browser.py)
    outside: list[str] = []
    own = (app_url, "data:", "blob:", "about:")
    page.on("request", lambda r: None if r.url.startswith(own) else outside.append(r.url))
    opened = {}
    for path in ("", *LAB_SLUGS):
        page.goto(f"{app_url}/{path}")
        page.locator(f"{MAIN} h1").first.wait_for(timeout=60_000)
        wait_idle(page)
        title = page.locator(f"{MAIN} h1").first.inner_text()
        not_found = page.get_by_text("Page not found").count()
        opened[path] = (title.split(".")[0], page.url.split("?")[0].rsplit("/", 1)[-1], not_found)
    want = {slug: (str(n), slug, 0) for n, slug in enumerate(LAB_SLUGS, start=1)}
    assert opened == {"": ("1", "boundary", 0), **want}
    page.wait_for_timeout(500)  # the last lab's charts' own loading
    assert outside == []
    # the sidebar's link to Lab 1 is its name too
    first = page.locator('[data-testid="stSidebarNav"] a').first
    assert first.get_attribute("href").rstrip("/").endswith("/boundary")
    # every lab's name shows whole in the sidebar at 1440x900, none cut off with "..."
    cut = page.locator('[data-testid="stSidebarNav"] a span').evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.innerText)"
    )
    assert cut == []
    page.close()


_BOX = """el => { const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }"""


def _on_screen(page, locator, viewport) -> bool:
    box = locator.evaluate(_BOX)
    return (
        box["top"] >= 0
        and box["bottom"] <= viewport["height"]
        and box["left"] >= 0
        and box["right"] <= viewport["width"]
    )


LAB2_SENTENCE = "overlap?doc=release_handbook&q=1&strategy=sentence&unit=words&size=27&overlap=5"


@pytest.mark.parametrize(
    ("viewport", "presenter"), [(DESKTOP, False), (PROJECTOR, True)], ids=["1440x900", "presenter"]
)
def test_lab2_says_on_its_first_screen_why_its_map_and_its_verdict_differ(
    app_url, browser, viewport, presenter
):
    """Sentence chunks keep the answer at 27 words with overlap 5; fixed-size windows
    (the map) split it. Both verdicts show, and so does the reason, on the first screen."""
    page = new_page(browser, viewport)
    page.goto(f"{app_url}/{LAB2_SENTENCE}{'&presenter=1' if presenter else ''}")
    page.locator(f"{MAIN} .js-plotly-plot .main-svg").first.wait_for(timeout=60_000)
    wait_idle(page)
    banner = page.locator(f'{MAIN} [data-testid="stAlert"]').first
    note = page.get_by_text("The verdict above is Sentence chunking's (✓ intact)")
    title = page.locator(f"{MAIN} .js-plotly-plot .gtitle").first
    pointer = page.locator(f"{MAIN} .size-pointer").first
    assert banner.inner_text().startswith("✓ answer intact")
    assert "fixed-size windows" in note.inner_text() and "disagree" in note.inner_text()
    assert title.text_content().startswith("Lottery map of fixed-size windows")
    assert pointer.inner_text().endswith("✗ split")
    off = [
        n
        for n, el in (
            ("banner", banner),
            ("note", note),
            ("map title", title),
            ("pointer", pointer),
        )
        if not _on_screen(page, el, viewport)
    ]
    assert off == []
    page.close()


_SWITCH_OVER = """() => {
  const bar = document.querySelector('[data-testid="stHeader"]');
  const switchBox = document.querySelector('.st-key-presenter_switch');
  const sw = switchBox.getBoundingClientRect(), b = bar.getBoundingClientRect();
  const inside = sw.top >= b.top && sw.bottom <= b.bottom
    && sw.left >= b.left && sw.right <= b.right;
  const alpha = getComputedStyle(bar).backgroundColor.match(/[\\d.]+/g).map(Number)[3] ?? 1;
  // what is stacked under the switch, topmost first (the bar lets clicks through, so
  // it is made to catch them while we look): the bar must come before the page's content
  const before = bar.style.pointerEvents;
  bar.style.pointerEvents = 'auto';
  let content = 0, above = 0;
  for (const fx of [0.1, 0.5, 0.9]) for (const fy of [0.2, 0.8]) {
    const stack = document.elementsFromPoint(sw.left + fx * sw.width, sw.top + fy * sw.height);
    const c = stack.findIndex(el => el.closest('[data-testid="stMainBlockContainer"]')
      && !el.contains(switchBox) && !switchBox.contains(el));
    if (c === -1) continue;
    content += 1;
    const at = stack.indexOf(bar);
    if (at === -1 || c < at) above += 1;
  }
  bar.style.pointerEvents = before;
  return {inside, alpha, content, above};
}"""


@pytest.mark.parametrize(
    ("lab", "viewport", "presenter"),
    [(4, DESKTOP, False), (1, DESKTOP, False), (4, PROJECTOR, True)],
    ids=["lab4", "lab1", "lab4-presenter"],
)
def test_the_presenter_switch_covers_nothing_when_the_page_scrolls(
    app_url, browser, lab, viewport, presenter
):
    from bench.browser import VIEWS

    page = new_page(browser, viewport)
    page.goto(f"{app_url}/{VIEWS[lab]}{'&presenter=1' if presenter else ''}")
    page.locator(f"{MAIN} h1").first.wait_for(timeout=60_000)
    wait_idle(page)
    seen = []
    for _ in range(6):  # the page scrolls under the top bar, 120 px at a time
        page.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
        page.mouse.wheel(0, 120)
        page.wait_for_timeout(150)
        seen.append(page.evaluate(_SWITCH_OVER))
    assert page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop") > 0
    assert sum(s["content"] for s in seen) > 0  # the page's content did pass under the switch
    problems = [s for s in seen if not s["inside"] or s["alpha"] != 1 or s["above"]]
    assert problems == []
    page.close()


@pytest.mark.parametrize("lab", range(1, len(LABS) + 1))
def test_every_lab_fits_a_projector(app_url, browser, lab):
    """Presenter mode at 1280x720: nothing in the lesson scrolls sideways or passes the
    page's edge, no chart text is cut or shortened, every text is at least the
    presenter size, and no slider's value sits on its track (tests/browser/presenter_fit.py)."""
    from bench.browser import VIEWS
    from tests.browser.conftest import ARTIFACTS
    from tests.browser.presenter_fit import fit_problems

    page = new_page(browser, PROJECTOR)
    view = VIEWS[lab]
    page.goto(f"{app_url}/{view}{'&' if '?' in view else '?'}presenter=1")
    page.locator(f"{MAIN} h1").first.wait_for(timeout=60_000)
    wait_idle(page)
    page.wait_for_timeout(800)  # the charts' own drawing
    wait_idle(page)
    page.screenshot(path=str(ARTIFACTS / f"browser_projector_lab{lab}.png"))
    assert fit_problems(page) == []
    page.close()


_TARGET_SEEN = """box => { const t = box.querySelector('[data-scroll-target]');
  if (!t) return null;
  const b = box.getBoundingClientRect(), r = t.getBoundingClientRect();
  return r.top >= b.top && r.bottom <= b.bottom; }"""


def test_a_big_uploads_answer_cards_are_reachable(app_url, browser):
    """About 700 KB, the answer at chunk 1,700 or so of 6,000: its cards open in view;
    the text finder reaches any chunk."""
    from bench.browser import VIEWS
    from tests.support import BIG_ANSWER, big_document

    page = new_page(browser, DESKTOP)
    page.goto(f"{app_url}/{VIEWS[1]}")
    page.get_by_role("heading", name="1.").first.wait_for(timeout=60_000)
    wait_idle(page)
    page.get_by_label("Document").click()
    page.get_by_role("option", name="Upload a file…").click()
    doc = big_document(6400).encode()
    assert len(doc) > 650_000
    page.locator('[data-testid="stSidebar"] input[type="file"][accept*=".md"]').set_input_files(
        files=[{"name": "ledger.md", "mimeType": "text/markdown", "buffer": doc}]
    )
    page.get_by_text("chunks: ").filter(visible=True).first.wait_for(timeout=120_000)
    wait_idle(page, 120_000)
    page.locator('[data-testid="stSidebar"]').get_by_text("paste it").click()
    answer = page.get_by_label("Answer text, copied from the document")
    answer.fill(BIG_ANSWER)
    answer.press("Control+Enter")
    page.get_by_text("around the answer (chunk").wait_for(timeout=120_000)
    wait_idle(page, 120_000)
    page.wait_for_timeout(500)  # the boxes scroll to the answer
    cards = page.locator(f"{MAIN} .chunk-cards").first
    assert cards.evaluate(_TARGET_SEEN) is True
    target = cards.locator("[data-scroll-target]").inner_text()
    assert "part of the answer" in target or "holds the answer" in target
    finder = page.get_by_label("Find text in the chunks")
    finder.fill("crate 44793 left")  # paragraph 6,399: near the end
    finder.press("Enter")
    page.get_by_text("1 chunk with “crate 44793 left”.").wait_for(timeout=120_000)
    wait_idle(page, 120_000)
    assert "crate 44793 left" in " ".join(cards.inner_text().split())
    page.close()
