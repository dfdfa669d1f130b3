"""A class's first minutes, in real Chromium: each lab opens on its own example the first
time it is opened in a session (a shared link still opens exactly as linked), Labs 1-3
show one size control and it redraws while it is held, that control is on the first
screen (1440x900, and 1280x720 in presenter mode), and nothing on screen names another
size while the mouse holds it."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from bench.browser import VIEWS, new_page, open_view, wait_idle
from tests.browser.conftest import DESKTOP, MAIN
from ui.present.urlstate import LABS

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
