"""PDF, HTML and broken uploads through the sidebar's uploader in real Chromium:
what a person sees is the converted document's chunks, each with its page, or
one line saying why the file cannot be read."""

from __future__ import annotations

from typing import Any

from bench.browser import new_page, wait_idle
from tests import doc_builders as build
from tests.browser.conftest import ARTIFACTS, MAIN

# structural, 120 characters: each page's section, its table a chunk of its own
VIEW = "?lab=boundary&doc=platform_data&q=0&strategy=structural&unit=chars&size=120&overlap=0"
SIDEBAR = '[data-testid="stSidebar"]'
MIME = {
    ".pdf": "application/pdf",
    "html": "text/html",
}


def _upload(page: Any, name: str, data: bytes) -> None:
    page.locator(f'{SIDEBAR} input[type="file"][accept*=".pdf"]').set_input_files(
        files=[{"name": name, "mimeType": MIME[name[-4:]], "buffer": data}]
    )


def _cards(page: Any) -> list[str]:
    return page.locator(f"{MAIN} .chunk-card").all_inner_texts()


def test_an_uploaded_pdf_shows_its_chunks_with_their_pages_and_a_broken_one_a_line(
    app_url: str, browser
) -> None:
    page = new_page(browser, {"width": 1400, "height": 1600})
    page.goto(f"{app_url}/{VIEW}")
    page.get_by_role("heading", name="1.").first.wait_for(timeout=60_000)
    wait_idle(page)
    page.get_by_label("Document").click()
    page.get_by_role("option", name="Upload a file…").click()

    _upload(page, "manual.pdf", build.three_page_pdf())
    page.locator(f"{MAIN} .chunk-card", has_text="Impeller bolt").first.wait_for(timeout=60_000)
    wait_idle(page)
    cards = _cards(page)
    # every chunk of the PDF says which page it is on, and the pages are the PDF's
    for n in (1, 2, 3):
        on_page = [c for c in cards if f"page {n}" in c]
        assert on_page, (n, cards)
        assert all(f"Page {n} > {n}. Section {n}" in c for c in on_page)
    assert len(cards) == sum(any(f"page {n}" in c for n in (1, 2, 3)) for c in cards)
    [table] = [c for c in cards if "Impeller bolt" in c]
    assert "table" in table.splitlines()[0] and "page 2" in table and "Flange bolt" in table
    page.locator(f"{MAIN} .chunk-card", has_text="Impeller bolt").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "browser_pdf_upload.png"), full_page=True)

    _upload(page, "guide.html", build.HTML.encode())
    page.locator(f"{MAIN} .chunk-card", has_text="discharge valve").first.wait_for(timeout=60_000)
    wait_idle(page)
    cards = _cards(page)
    assert not any("Acme site header" in c or "tracking" in c for c in cards)
    [table] = [c for c in cards if "Impeller bolt" in c]
    assert "Pump guide > Torques" in table and "page —" in table  # a web page has no pages

    _upload(page, "cut.pdf", b"%PDF-1.7\n1 0 obj <<")
    alert = page.locator(f'{SIDEBAR} [data-testid="stAlertContentError"]')
    alert.first.wait_for(timeout=60_000)
    wait_idle(page)
    assert alert.inner_text().strip() == "cut.pdf is not a readable PDF (damaged or cut short)"
    assert page.locator('[data-testid="stException"]').count() == 0
    assert _cards(page) == []  # the last document's chunks are gone, not shown as this one's
    page.screenshot(path=str(ARTIFACTS / "browser_pdf_broken.png"), full_page=True)
    page.close()
