"""The retrieval benchmark cannot rot: its quick mode runs and prints every figure
(times are read by people, never asserted here)."""

from __future__ import annotations

import subprocess
import sys

from bench.retrieval import FIGURES
from tests.support import ROOT


def test_quick_retrieval_benchmark_prints_every_figure() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bench.retrieval", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert [name for name in FIGURES if name not in out.stdout] == []
    assert "| figure" in out.stdout and "holds?" in out.stdout
    assert "chunks embedded" in out.stdout  # the slider step says how much it re-embedded
