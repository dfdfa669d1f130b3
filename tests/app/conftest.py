"""What the app tests share: the upload children, started with the first app test."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.app.app_harness import Downloads
from tests.support import AUDIT, ROOT
from ui.sidebar import MAX_UPLOAD_MB

# One upload each, through the app in a child process (tests/app/upload_child.py),
# so test_app_resources.py can read the child's own peak memory.
UPLOAD_CHILDREN = {
    "over the limit, Lab 1": [str(MAX_UPLOAD_MB + 1), "boundary"],
    "5 MB, Lab 1": [str(MAX_UPLOAD_MB), "boundary"],
    "5 MB, Lab 3 sweeps": [str(MAX_UPLOAD_MB), "structure", "--unit", "chars", "--answer", AUDIT],
}


@pytest.fixture(scope="session")
def upload_children() -> Iterator[dict[str, subprocess.Popen]]:
    """Every child, started at once; each test waits for its own."""
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-m", "tests.app.upload_child", *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        for name, args in UPLOAD_CHILDREN.items()
    }
    yield procs
    for p in procs.values():
        if p.returncode is None:
            p.kill()
            p.wait()


@pytest.fixture(scope="session", autouse=True)
def upload_children_start_early(request: pytest.FixtureRequest) -> None:
    # -- pytest runs one test at a time, on one core: started with the first app
    # -- test, the children (a minute of work) run on the other core meanwhile,
    # -- instead of being waited for when their tests come. Only when the run
    # -- includes a test that reads them.
    if any("upload_children" in item.fixturenames for item in request.session.items):
        request.getfixturevalue("upload_children")


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> Downloads:
    """What each download button saves, as a user would get it (undone after the test)."""
    return Downloads(monkeypatch)
