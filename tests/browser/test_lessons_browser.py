"""Lab 9 (small to big) and Lab 10 (boilerplate) in real Chromium: the page a person
sees at 1440x900, a control that changes it, and presenter mode's larger text."""

from __future__ import annotations

from bench.browser import VIEWS, new_page, wait_idle
from tests.browser.conftest import ARTIFACTS

MAIN = '[data-testid="stMain"]'
DRAWN = f'{MAIN} [data-testid="stVegaLiteChart"] svg.marks'


def _open(browser, url: str, lab: int, extra: str = ""):
    page = new_page(browser)
    page.goto(f"{url}/{VIEWS[lab]}{extra}")
    page.get_by_role("heading", name=f"{lab}.").first.wait_for(timeout=60_000)
    wait_idle(page)
    page.locator(DRAWN).first.wait_for(timeout=60_000)
    return page


def test_small_to_big_sends_parents_and_a_smaller_child_changes_the_view(app_url, browser):
    page = _open(browser, app_url, 9)
    main = page.locator(MAIN)
    main.get_by_text("The top 5 children resolve to 4 parent(s)").wait_for(timeout=60_000)
    assert main.get_by_text("duplicate, left out").count() == 1
    assert main.get_by_text("Every sample's gold set (98 questions), k = 5").count() == 1
    # the context chart names every way of delivering, the dedupe's saving among them
    chart = main.locator('[data-testid="stVegaLiteChart"]').first
    for label in ("parents, every copy", "parents, deduplicated", "children alone"):
        assert chart.get_by_text(label).count() >= 1, label
    page.screenshot(path=str(ARTIFACTS / "browser_lab9.png"), full_page=True)
    size = page.get_by_label("Child size (the sidebar's unit)")
    size.fill("2000")
    size.press("Enter")
    main.get_by_text("are not smaller than their parents").wait_for(timeout=60_000)
    size.fill("100")
    size.press("Enter")
    main.get_by_text("The top 5 children resolve to").wait_for(timeout=60_000)
    assert main.get_by_text("are not smaller than their parents").count() == 0
    page.close()


def test_boilerplate_is_found_on_every_page_and_the_strip_is_measured(app_url, browser):
    page = _open(browser, app_url, 10)
    main = page.locator(MAIN)
    main.get_by_text("2 repeated block(s): 3,555 of 9,291 characters (38%)").wait_for(
        timeout=60_000
    )
    assert main.get_by_text("12 of 12 pages").count() == 2
    assert main.get_by_text("The gold set, as given and with the boilerplate stripped").count() == 1
    assert main.get_by_text("How alike the scores are").count() >= 1
    page.screenshot(path=str(ARTIFACTS / "browser_lab10.png"), full_page=True)
    page.close()
    # presenter mode: the explanation goes, the findings stay
    page = _open(browser, app_url, 10, "&presenter=1")
    main = page.locator(MAIN)
    main.get_by_text("12 of 12 pages").first.wait_for(timeout=60_000)
    assert main.get_by_text("A converted PDF repeats its running header").count() == 0
    page.close()
