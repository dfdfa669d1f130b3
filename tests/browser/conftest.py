"""The real app for the browser tests: `streamlit run` on a free local port, driven
by headless Chromium (Debian's package, through Playwright; no browser download).
One server and one browser serve every test of this folder (bench.browser starts
them, the same way for the benchmark)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.browser import VIEWS, chromium_path, launch, new_page, running_app, wait_idle
from tests.support import ROOT

ARTIFACTS = ROOT / "artifacts"

DESKTOP = {"width": 1440, "height": 900}
PROJECTOR = {"width": 1280, "height": 720}
MAIN = '[data-testid="stMain"]'
# the charts over sizes are Plotly, the charts a step redraws Vega-Lite (both SVG)
PLOTLY = f"{MAIN} .js-plotly-plot"
VEGA = f'{MAIN} [data-testid="stVegaLiteChart"]'
DRAWN = f"{PLOTLY} .main-svg, {VEGA} svg.marks"


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    log = ARTIFACTS / "streamlit.log"
    try:
        with running_app(log) as url:
            yield url
    except RuntimeError as e:
        pytest.fail(str(e))


@pytest.fixture(scope="session")
def browser():
    if chromium_path() is None:  # never a skip: the test command installs it
        pytest.fail(
            "Debian's chromium is not installed; run the README's test command, which installs it"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


class Views:
    """Each lab's example view, opened once and shared by the tests that only look.

    Opening a view (a new session's run, the browser's load and first paint) is
    most of a browser test's time, and several tests look at the same views. A
    test that changes a page (a click, a key press) opens its own, or ``take``s
    the shared one out (then it is the test's to close), so the next test gets a
    fresh one. Each page has a browser context of its own, as a new visitor has,
    and records the requests it makes to anywhere but the app's own server.
    """

    def __init__(self, url: str, browser: Any) -> None:
        self.url, self.browser = url, browser
        self.pages: dict[tuple, Any] = {}
        self.outside: dict[tuple, list[str]] = {}

    def get(self, lab: int, viewport: dict = DESKTOP, presenter: bool = False) -> Any:
        key = (lab, viewport["width"], viewport["height"], presenter)
        if key not in self.pages:
            outside = self.outside[key] = []
            page = new_page(self.browser, viewport)
            own = (self.url, "data:", "blob:", "about:")
            page.on("request", lambda r: None if r.url.startswith(own) else outside.append(r.url))
            page.goto(f"{self.url}/{VIEWS[lab]}{'&presenter=1' if presenter else ''}")
            page.get_by_role("heading", name=f"{lab}.").first.wait_for(timeout=60_000)
            wait_idle(page)
            if lab != 5:  # Lab 5 has no chart: its table fragments are what it shows
                page.locator(DRAWN).first.wait_for(timeout=60_000)
            self.pages[key] = page
        return self.pages[key]

    def outside_of(self, page: Any) -> list[str]:
        """The requests ``page`` made to anywhere but the app's own server."""
        [key] = [k for k, kept in self.pages.items() if kept is page]
        return self.outside[key]

    def take(self, lab: int, viewport: dict = DESKTOP, presenter: bool = False) -> Any:
        """The view, now the caller's to change and to close; the next ``get``
        opens it afresh."""
        page = self.get(lab, viewport, presenter)
        del self.pages[(lab, viewport["width"], viewport["height"], presenter)]
        return page

    def close(self) -> None:
        for page in self.pages.values():
            page.close()


@pytest.fixture(scope="session")
def views(app_url: str, browser) -> Iterator[Views]:
    shared = Views(app_url, browser)
    yield shared
    shared.close()
