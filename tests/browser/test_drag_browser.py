"""Lab 1's drag slider in a real browser: held down and moved across sizes, its
verdict follows the lab's own verdict at each size, with no message to the server
until the mouse is released."""

from __future__ import annotations

from bench.browser import DRAG_SLIDER as SLIDER
from bench.browser import hold_drag_slider, new_page, open_view, wait_idle
from lab.measure.drag import drag_frames
from tests.browser.conftest import DESKTOP
from tests.support import AUDIT, SAMPLES
from ui.present.sweeps import sweep_sizes

VERDICT = '[data-testid="drag-verdict"]'


def test_dragging_redraws_the_verdict_at_every_size_without_a_rerun(app_url, browser) -> None:
    text = (SAMPLES / "platform_data.md").read_text(encoding="utf-8")
    # the example view: platform sample, fixed, words, size 24, overlap 0
    expected = {
        f.size: ("✓ " if f.intact else "✗ ") + f.verdict
        for f in drag_frames(text, AUDIT, "fixed", sweep_sizes("words", 24), unit="words")
    }
    page = new_page(browser, DESKTOP)
    sent: list[str] = []  # what the browser sends the server: a rerun is a message
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append("msg")))
    try:
        open_view(page, app_url, 1)
        slider = page.locator(SLIDER)
        slider.wait_for(timeout=30_000)
        assert int(slider.get_attribute("aria-valuenow")) == 24
        assert int(slider.get_attribute("max")) + 1 == len(expected)
        x, y, step_px = hold_drag_slider(page)
        before = len(sent)
        seen: dict[int, str] = {}
        for k in range(1, 10):
            page.mouse.move(x + k * step_px, y, steps=2)
            size = int(slider.get_attribute("aria-valuenow"))
            seen[size] = page.locator(VERDICT).inner_text()
            assert page.locator('[data-testid="drag-value"]').inner_text() == f"{size} words"
        during = len(sent) - before
        page.mouse.up()
        assert len(seen) >= 6, seen
        assert seen == {s: expected[s] for s in seen}
        assert any(v.startswith("✓") for v in seen.values())
        assert any(v.startswith("✗") for v in seen.values())
        assert during == 0, f"{during} messages went to the server during the drag"
        # released: the size it settled on becomes the app's (the sidebar's slider)
        last = max(seen)
        page.wait_for_url(f"**&size={last}&**", timeout=30_000)
        wait_idle(page)
        assert page.get_by_role("slider", name="Chunk size").input_value() == str(last)
    finally:
        page.close()


def test_an_arrow_key_redraws_at_once_and_settles_the_apps_size(app_url, browser) -> None:
    text = (SAMPLES / "platform_data.md").read_text(encoding="utf-8")
    frames = {f.size: f for f in drag_frames(text, AUDIT, "fixed", [22, 23], unit="words")}
    page = new_page(browser, DESKTOP)
    try:
        open_view(page, app_url, 1)
        slider = page.locator(SLIDER)
        slider.wait_for(timeout=30_000)
        slider.focus()
        for size in (23, 22):  # each press: the verdict at once, then the app's size
            slider.press("ArrowLeft")
            verdict = frames[size].verdict
            assert slider.get_attribute("aria-valuenow") == str(size)
            # the keyboard's focus ring is drawn round the slider
            assert slider.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
            mark = "✓ " if frames[size].intact else "✗ "
            assert page.locator(VERDICT).inner_text() == mark + verdict
            assert slider.get_attribute("aria-valuetext") == f"{size} words: {verdict}"
            page.wait_for_url(f"**&size={size}&**", timeout=30_000)
            wait_idle(page)
            assert page.get_by_role("slider", name="Chunk size").input_value() == str(size)
        assert frames[22].intact and not frames[23].intact
        assert page.locator(VERDICT).get_attribute("aria-live") == "polite"
    finally:
        page.close()
