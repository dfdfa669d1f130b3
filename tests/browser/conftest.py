"""The real app for the browser tests: `streamlit run` on a free local port, driven
by headless Chromium (Debian's package, through Playwright; no browser download).
One server and one browser serve every test of this folder (bench.browser starts
them, the same way for the benchmark)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.browser import chromium_path, launch, running_app
from tests.support import ROOT

ARTIFACTS = ROOT / "artifacts"


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    ARTIFACTS.mkdir(exist_ok=True)
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
