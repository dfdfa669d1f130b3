from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest
from hypothesis import settings
from streamlit.logger import get_logger

from tests.support import (
    COMMONMARK_SPEC,
    CORPORA,
    REQUIRE_SHARED,
    SAMPLES,
    SHARED_CORPORA,
    SHARED_CORPUS,
    block_network,
    missing,
    missing_corpus,
)

# -- The tests import the app's modules outside a running app, on purpose: Streamlit
# -- would warn "No runtime found" once for every cached function they define.
get_logger("streamlit.runtime.caching.cache_data_api").setLevel(logging.ERROR)

# -- Tests that read the shared material carry one of these marks. Without the
# -- material they skip with one line; in CI (REQUIRE_SHARED) that line is a failure.
NEEDS = {
    "corpus": lambda: (
        missing_corpus() is None,
        missing("the markdown corpus", missing_corpus() or CORPORA[0]),
    ),
    # golden figures pinned on the shared corpus itself, not on a corpus of your own
    "shared_corpus": lambda: (
        all(f.is_dir() for f in SHARED_CORPORA),
        missing(
            "the shared corpus",
            next((f for f in SHARED_CORPORA if not f.is_dir()), SHARED_CORPUS),
            "CHUNK_LAB_SHARED to a copy",
        ),
    ),
    "commonmark": lambda: (
        COMMONMARK_SPEC.is_file(),
        missing("CommonMark's examples", COMMONMARK_SPEC, "CHUNK_LAB_SHARED to a copy"),
    ),
}


# -- In CI the properties draw the same examples every run, so a run is reproducible;
# -- a developer's run explores new ones (and keeps what fails in .hypothesis/).
settings.register_profile("ci", derandomize=True)
if REQUIRE_SHARED:
    settings.load_profile("ci")


def pytest_configure(config: pytest.Config) -> None:
    for name in NEEDS:
        config.addinivalue_line("markers", f"{name}: needs the shared material ({name})")


def _require(what: str) -> None:
    present, message = NEEDS[what]()
    if present:
        return
    if REQUIRE_SHARED:
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def pytest_runtest_setup(item: pytest.Item) -> None:
    for what in NEEDS:
        if item.get_closest_marker(what) is not None:
            _require(what)


# -- Every test of tests/browser drives Chromium: one mark for the folder, so
# -- `--fast` (-m "not browser and not slow") leaves the browser uninstalled.
BROWSER_TESTS = Path(__file__).parent / "browser"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)


_skipped: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped:
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # -- In CI a skipped test is a test that did not run: the run fails.
    if REQUIRE_SHARED and _skipped and session.exitstatus == 0:
        session.exitstatus = 1
        print(f"\n{len(_skipped)} test(s) skipped where every test must run, e.g. {_skipped[0]}")


@pytest.fixture(scope="session")
def samples() -> Path:
    return SAMPLES


@pytest.fixture(scope="session")
def corpus() -> tuple[Path, ...]:
    _require("corpus")
    return tuple(f for f in CORPORA if f.is_dir())


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test runs with Python's sockets refusing every connection."""
    block_network(monkeypatch, "this test")


_MAIN = sys.modules["__main__"]


@pytest.fixture(autouse=True)
def _main_module_restored():
    # -- Streamlit's script runner (AppTest included) installs the page as
    # -- sys.modules["__main__"] and leaves it there. A process started later by
    # -- spawning (Dask's local workers) re-runs __main__, so after an app test it
    # -- would run a Streamlit page and die: each test gets back pytest's own.
    yield
    sys.modules["__main__"] = _MAIN
