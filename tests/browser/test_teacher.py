"""What a teacher preparing a class tripped over, checked in real Chromium."""

from __future__ import annotations

import itertools

import pytest

from bench.browser import new_page, open_view, wait_idle

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


@pytest.mark.parametrize("lab", [3, 4, 5])
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
    from ui.urlstate import LAB_SLUGS

    page = new_page(browser, DESKTOP)
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
    # the sidebar's link to Lab 1 is its name too
    first = page.locator('[data-testid="stSidebarNav"] a').first
    assert first.get_attribute("href").rstrip("/").endswith("/boundary")
    page.close()
