"""The retrieval benchmark cannot rot: its quick mode runs and prints every figure
(times are read by people, never asserted here)."""

from __future__ import annotations

from bench.retrieval import FIGURES
from tests.support import run_python


def test_quick_retrieval_benchmark_prints_every_figure() -> None:
    out = run_python("-m", "bench.retrieval", "--quick")
    assert [name for name in FIGURES if name not in out] == []
    assert "| figure" in out and "holds?" in out
    assert "chunks embedded" in out  # the slider step says how much it re-embedded
