"""A class's first minutes, in real Chromium: each lab opens on its own example the first
time it is opened in a session (a shared link still opens exactly as linked), Labs 1-3
show one size control and it redraws while it is held, that control is on the first
screen (1440x900, and 1280x720 in presenter mode), and nothing on screen names another
size while the mouse holds it."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from bench.browser import VIEWS, hold_drag_slider, new_page, open_view, wait_idle
from tests.browser.conftest import DESKTOP, MAIN, PROJECTOR
from ui.present.sweeps import DRAG_LABS
from ui.present.urlstate import LAB_SLUGS, LABS

BANNER = f'{MAIN} [data-testid="stAlert"]'


def _params(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query)


def _banners(page) -> list[str]:
    return [t.strip() for t in page.locator(BANNER).all_inner_texts()]


def test_labs_opened_from_the_sidebar_after_lab_1_open_on_their_own_example(
    app_url, browser, views
):
    """Lab 1, then Labs 4, 10 and 11 from the sidebar: each shows what its example link
    shows (its settings in the link, its verdict), not Lab 1's document and 24 words."""
    page = new_page(browser, DESKTOP)
    try:
        open_view(page, app_url, 1)
        for lab in (4, 10, 11):
            page.get_by_role("link", name=f"{lab}. {LABS[lab - 1].title}").click()
            page.get_by_role("heading", name=f"{lab}.").first.wait_for(timeout=60_000)
            page.wait_for_url(f"**{LABS[lab - 1].slug}**", timeout=60_000)
            wait_idle(page)
            example = views.get(lab)
            assert _params(page.url) == _params(example.url), lab
            seen = _banners(page)
            assert seen[:1] == _banners(example)[:1], (lab, seen)
            assert not any("answer split across" in t for t in seen), (lab, seen)
            assert not any("has no '## Page N' sections" in t for t in seen), (lab, seen)
            assert not any("No chunk holds the answer whole" in t for t in seen), (lab, seen)
    finally:
        page.close()


def test_a_shared_link_opens_exactly_as_linked_and_the_next_lab_on_its_example(app_url, browser):
    """A link to Lab 4 on another document and size keeps its settings; the first lab
    opened after it from the sidebar still opens on that lab's own example."""
    link = "runts?doc=platform_data&q=0&strategy=fixed&unit=words&size=30&overlap=5"
    page = new_page(browser, DESKTOP)
    try:
        page.goto(f"{app_url}/{link}")
        page.get_by_role("heading", name="4.").first.wait_for(timeout=60_000)
        wait_idle(page)
        assert _params(page.url) == {**_params(f"{app_url}/{link}"), "lab": ["runts"]}
        assert page.get_by_role("slider", name="Chunk size").input_value() == "30"
        page.get_by_role("link", name=f"10. {LABS[9].title}").click()
        page.get_by_role("heading", name="10.").first.wait_for(timeout=60_000)
        page.wait_for_url("**boilerplate**", timeout=60_000)
        wait_idle(page)
        assert _params(page.url) == {**_params(f"{app_url}/{VIEWS[10]}"), "lab": ["boilerplate"]}
        # back on Lab 4: a lab already opened keeps the settings as they carry
        page.get_by_role("link", name=f"4. {LABS[3].title}").click()
        page.wait_for_url("**runts**", timeout=60_000)
        wait_idle(page)
        assert _params(page.url)["doc"] == ["warehouse_manual"]
    finally:
        page.close()


CONTROL = '[data-testid="drag-size"]'  # the size control's range input
DRAG_VERDICT = '[data-testid="drag-verdict"]'
# the page's own text as a reader sees it: innerText leaves out what is hidden
_SHOWN = f"() => document.querySelector('{MAIN}').innerText"


@pytest.mark.parametrize("lab", [1, 2, 3])
def test_labs_1_to_3_have_one_size_control_and_it_redraws_while_held(app_url, browser, lab):
    page = new_page(browser, DESKTOP)
    try:
        open_view(page, app_url, lab)
        page.locator(CONTROL).wait_for(timeout=30_000)
        wait_idle(page)
        sliders = page.get_by_role("slider", name="Chunk size")
        assert sliders.count() == 1  # no second one in the sidebar
        assert sliders.get_attribute("data-testid") == "drag-size"
        x, y, step_px = hold_drag_slider(page)
        start = int(sliders.get_attribute("aria-valuenow"))
        page.mouse.move(x + 3 * step_px, y, steps=3)
        held = int(sliders.get_attribute("aria-valuenow"))
        assert held > start  # it follows the mouse before the release
        page.mouse.up()
        page.wait_for_url(f"**size={held}&**", timeout=30_000)
        wait_idle(page)
        assert page.get_by_role("slider", name="Chunk size").count() == 1
    finally:
        page.close()


@pytest.mark.parametrize(
    ("viewport", "presenter"), [(DESKTOP, False), (PROJECTOR, True)], ids=["1440x900", "presenter"]
)
def test_every_drag_labs_size_control_is_on_the_first_screen(views, viewport, presenter):
    off = {}
    for lab in (LAB_SLUGS.index(slug) + 1 for slug in DRAG_LABS):
        page = views.get(lab, viewport, presenter)
        page.locator(CONTROL).wait_for(timeout=30_000)
        box = page.locator(CONTROL).bounding_box()  # without scrolling: as the page opens
        inside = (
            0 <= box["x"]
            and box["x"] + box["width"] <= viewport["width"]
            and 0 <= box["y"]
            and box["y"] + box["height"] <= viewport["height"]
        )
        if not inside or page.evaluate("() => window.scrollY") != 0:
            off[lab] = box
    assert off == {}


def test_nothing_on_screen_names_another_size_while_the_control_is_held(app_url, browser):
    """Held at 22 words, Lab 1 shows 22's verdict; the curve's pointer ("24 words: ✗
    split") and the banner for 24 are hidden until the run for 22 redraws them."""
    page = new_page(browser, DESKTOP)
    try:
        open_view(page, app_url, 1)
        page.locator(CONTROL).wait_for(timeout=30_000)
        wait_idle(page)
        shown = page.evaluate(_SHOWN)
        assert "24 words: ✗ split" in shown and "answer split across chunks 4 and 5" in shown
        x, y, step_px = hold_drag_slider(page)
        page.mouse.move(x - 2 * step_px, y, steps=3)
        assert page.locator(CONTROL).get_attribute("aria-valuenow") == "22"
        assert page.locator(DRAG_VERDICT).inner_text().startswith("✓")
        shown = page.evaluate(_SHOWN)
        assert "24 words:" not in shown, shown  # the curve's pointer for 24
        assert "split across chunks 4 and 5" not in shown
        page.mouse.up()
        page.wait_for_url("**size=22&**", timeout=30_000)
        wait_idle(page)
        pointer = page.locator(f"{MAIN} .size-pointer").first
        pointer.get_by_text("22 words").wait_for(state="visible", timeout=10_000)
        assert "✓ answer intact" in page.evaluate(_SHOWN)
    finally:
        page.close()


def test_a_settled_drag_sends_the_size_and_not_the_frames_again(app_url, browser):
    """The frames (every size's chunk bounds) reach the page with its first run; the run
    a released drag starts sends the new size and the page's redraw, not the frames."""
    page = new_page(browser, DESKTOP)
    received: list[bytes] = []

    def note(payload) -> None:
        received.append(payload if isinstance(payload, bytes) else payload.encode())

    page.on("websocket", lambda ws: ws.on("framereceived", note))
    try:
        open_view(page, app_url, 1)
        page.locator(CONTROL).wait_for(timeout=30_000)
        wait_idle(page)
        assert any(b'"bounds"' in m for m in received)  # the frames came once
        before = len(received)
        x, y, step_px = hold_drag_slider(page)
        page.mouse.move(x - 2 * step_px, y, steps=3)
        page.mouse.up()
        page.wait_for_url("**size=22&**", timeout=30_000)
        wait_idle(page)
        after = received[before:]
        assert after, "the release started no run"
        assert not any(b'"bounds"' in m for m in after)
        assert page.locator(DRAG_VERDICT).inner_text().startswith("✓")
    finally:
        page.close()
