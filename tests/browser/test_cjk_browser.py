"""A Chinese upload in Lab 1, in real Chromium: the drag slider's verdict follows the
lab's own at every size, the answer is underlined in the document, the verdict is
right, and the chunk cards break Chinese lines inside their box."""

from __future__ import annotations

from bench.browser import DRAG_SLIDER as SLIDER
from bench.browser import hold_drag_slider, new_page, wait_idle
from lab.measure.drag import drag_frames
from lab.measure.survival import find_answer
from tests.browser.conftest import ARTIFACTS, DESKTOP, MAIN
from tests.support import SAMPLES
from ui.present.sweeps import sweep_sizes

VIEW = "?lab=boundary&doc=platform_data&q=0&strategy=fixed&unit=chars&size=60&overlap=0"
SIDEBAR = '[data-testid="stSidebar"]'
VERDICT = '[data-testid="drag-verdict"]'
TEXT = (SAMPLES / "rust_variables_zh.md").read_text(encoding="utf-8")
QUESTION = "常量的命名约定是什么？"
ANSWER = "Rust 对常量的命名约定是全部大写，并用下划线分隔单词。"


def _marked(frames) -> dict[int, str]:
    return {f.size: ("✓ " if f.intact else "✗ ") + f.verdict for f in frames}


def test_a_chinese_upload_drags_highlights_and_judges(app_url: str, browser) -> None:
    frames = drag_frames(TEXT, ANSWER, "fixed", sweep_sizes("chars", 60), unit="chars")
    expected = _marked(frames)
    page = new_page(browser, DESKTOP)
    try:
        page.goto(f"{app_url}/{VIEW}")
        page.get_by_role("heading", name="1.").first.wait_for(timeout=60_000)
        wait_idle(page)
        page.get_by_label("Document").click()
        page.get_by_role("option", name="Upload a file…").click()
        page.locator(f'{SIDEBAR} input[type="file"][accept*=".md"]').set_input_files(
            files=[{"name": "变量.md", "mimeType": "text/markdown", "buffer": TEXT.encode()}]
        )
        page.get_by_label("Your question").wait_for(timeout=60_000)
        wait_idle(page)
        page.get_by_label("Your question").fill(QUESTION)
        page.get_by_label("Your question").press("Enter")
        wait_idle(page)
        page.get_by_text("paste it").click()
        wait_idle(page)
        box = page.get_by_label("Answer text, copied from the document")
        box.fill(ANSWER)
        box.press("Control+Enter")
        slider = page.locator(SLIDER)
        slider.wait_for(timeout=60_000)
        wait_idle(page)

        # -- the verdict, read where the page writes it, is the lab's own at 60 chars
        assert page.locator(VERDICT).inner_text() == expected[60]

        # -- the answer is underlined in the document view, all of it and nothing else
        underlined = page.locator(f"{MAIN} .chunk-doc span[style*='border-bottom']")
        assert "".join(underlined.all_inner_texts()) == ANSWER
        start, end = find_answer(TEXT, ANSWER)
        assert TEXT[start:end] == ANSWER

        # -- dragging: the verdict at each size is the lab's at that size
        x, y, step_px = hold_drag_slider(page)
        seen = {}
        for k in range(1, 10):
            page.mouse.move(x + k * step_px, y, steps=2)
            size = int(slider.get_attribute("aria-valuenow"))
            seen[size] = page.locator(VERDICT).inner_text()
        page.mouse.up()
        assert len(seen) >= 6, seen
        assert seen == {s: expected[s] for s in seen}
        assert any(v.startswith("✓") for v in seen.values())
        assert any(v.startswith("✗") for v in seen.values())
        last = max(seen)
        page.wait_for_url(f"**size={last}&**", timeout=30_000)
        wait_idle(page)

        # -- Chinese lines break inside the cards: no card is wider than its box, and
        # -- the Japanese line-break rule is on
        cards = page.locator(f"{MAIN} .chunk-card")
        cards.first.wait_for(timeout=30_000)
        widths = cards.evaluate_all("cs => cs.map(c => [c.scrollWidth, c.clientWidth])")
        assert widths and all(scroll <= client for scroll, client in widths), widths
        body = cards.first.locator("div").last
        assert body.evaluate("e => getComputedStyle(e).lineBreak") == "strict"
        page.screenshot(path=str(ARTIFACTS / "browser_chinese_upload.png"), full_page=True)
    finally:
        page.close()
