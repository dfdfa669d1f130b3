"""The benchmark cannot rot: its quick mode runs and prints every figure.

Speed is never asserted in a test (a shared CI machine says nothing about it);
this only runs `python -m bench.run --quick` and reads the table it prints. A
peer that is not installed is reported as such, so this needs nothing beyond
what the tests already install.
"""

from __future__ import annotations

import re

import pytest

from bench.run import DOC_PEER_FIGURES, FIGURES
from tests.support import run_python


def test_quick_benchmark_prints_every_figure(corpus) -> None:
    table = run_python("-m", "bench.run", "--quick")
    assert [name for name in FIGURES if name not in table] == []
    assert "| figure" in table and "holds?" in table


@pytest.mark.slow  # the peers' layout model alone takes seconds a page
def test_document_converters_are_timed_on_the_same_files_in_one_run() -> None:
    # -- markitdown and pymupdf4llm beside ours on each document: a ratio, or one line
    # -- saying why there is none (not installed, or the peer's own failure)
    table = run_python("-m", "bench.run", "--documents", "--quick")
    rows = {line.split("|")[1].strip(): line.split("|")[2:-1] for line in table.splitlines()[4:]}
    assert "Traceback" not in table
    for name in DOC_PEER_FIGURES:
        ours, peer, ratio = (cell.strip() for cell in rows[name][:3])
        assert ours.endswith("ms") or ours.endswith(" s"), name
        assert re.fullmatch(r"\d+\.\dx", ratio) or re.match(r"(not installed|failed: )", peer)
    assert any(name.endswith("vs markitdown") for name in DOC_PEER_FIGURES)
    assert any(name.endswith("vs pymupdf4llm") for name in DOC_PEER_FIGURES)
