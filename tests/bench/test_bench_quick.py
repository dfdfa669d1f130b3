"""The benchmark cannot rot: its quick mode runs and prints every figure.

Speed is never asserted in a test (a shared CI machine says nothing about it);
this only runs `python -m bench.run --quick` and reads the table it prints. A
peer that is not installed is reported as such, so this needs nothing beyond
what the tests already install.
"""

from __future__ import annotations

import subprocess
import sys

from bench.run import FIGURES
from tests.support import ROOT


def test_quick_benchmark_prints_every_figure(corpus) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bench.run", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    table = out.stdout
    assert [name for name in FIGURES if name not in table] == []
    assert "| figure" in table and "holds?" in table
