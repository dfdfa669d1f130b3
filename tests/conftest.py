from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_docs"
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def samples() -> Path:
    return SAMPLES


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():  # the corpus ships beside the project; its absence is an error
        pytest.fail(f"shared corpus not found next to the project (looked for ../shared/corpus)")
    return CORPUS
