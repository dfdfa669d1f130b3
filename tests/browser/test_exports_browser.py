"""The chunk exports in real Chromium: a click on the button writes the file then
(not on every run), and the file is the chunks the page shows."""

from __future__ import annotations

from pathlib import Path

from bench.browser import VIEWS, new_page, wait_idle
from chunkers import chunk
from lab.inputs.exports import from_jsonl
from tests.support import SAMPLES

MAIN = '[data-testid="stMain"]'


def test_a_click_on_export_downloads_the_chunks_on_screen(app_url, browser, tmp_path):
    page = new_page(browser)
    page.goto(f"{app_url}/{VIEWS[1]}")  # the platform document, fixed, 24 words
    page.get_by_role("heading", name="1.").first.wait_for(timeout=60_000)
    wait_idle(page)
    button = page.locator(MAIN).get_by_role("button", name="Export chunks (JSONL)")
    button.scroll_into_view_if_needed()
    with page.expect_download(timeout=60_000) as got:
        button.click()
    download = got.value
    assert download.suggested_filename == "platform_data_fixed_24words_0.jsonl"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    config, chunks = from_jsonl(Path(saved).read_text(encoding="utf-8"))
    text = (SAMPLES / "platform_data.md").read_text(encoding="utf-8")
    want = chunk(text, "fixed", 24, 0, unit="words")
    assert [c.body for c in chunks] == [c.body for c in want]
    assert (config["strategy"], config["size"], config["overlap"]) == ("fixed", 24, 0)
    page.close()
