"""Importing chunkers (every chunk-lab command does) leaves the peer libraries unloaded
until a peer strategy is used."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PEER_LIBRARIES = ["langchain_text_splitters", "langchain_core", "semchunk", "chonkie"]


def loaded_after(code: str) -> list[str]:
    """The peer libraries loaded once a fresh interpreter has run ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    modules = json.loads(out.splitlines()[-1])
    return [lib for lib in PEER_LIBRARIES if lib in modules]


def test_importing_chunkers_loads_no_peer_library():
    assert loaded_after("import chunkers, chunkers.registry, lab.cli") == []


def test_the_structural_strategy_loads_no_peer_library():
    code = "import chunkers; chunkers.chunk('# A\\n\\nSome text.', 'structural')"
    assert loaded_after(code) == []


@pytest.mark.parametrize(
    "strategy, library",
    [("recursive", "langchain_text_splitters"), ("semchunk", "semchunk")],
)
def test_a_peer_strategy_loads_its_library_when_used(strategy, library):
    code = f"import chunkers; chunkers.chunk('# A\\n\\nSome text.', {strategy!r}, 50)"
    assert library in loaded_after(code)
