from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import CORPUS, SAMPLES


@pytest.fixture(scope="session")
def samples() -> Path:
    return SAMPLES


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():  # the corpus ships beside the project; its absence is an error
        pytest.fail("shared corpus not found next to the project (looked for ../shared/corpus)")
    return CORPUS
