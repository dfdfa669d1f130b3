"""The agreement of a generated gold set with the written one is measured, not assumed:
the script docs/gate.md quotes runs and prints a Kendall's tau per metric."""

from __future__ import annotations

import re

from bench.gold_agreement import METRICS
from tests.support import run_python


def test_it_ranks_twelve_configurations_and_prints_a_tau_per_metric() -> None:
    out = run_python("-m", "bench.gold_agreement", "--n", "24")
    assert out.startswith("12 configurations (4 strategies")
    for name in METRICS:
        (line,) = [x for x in out.splitlines() if x.startswith(name + " ")]
        tau = float(re.search(r"tau ([+-][\d.]+|nan)", line).group(1))
        assert -1.0 <= tau <= 1.0
    rows = re.findall(r"^\w+ \d+ +[\d.]+/[\d.]+ +[\d.]+/[\d.]+$", out, flags=re.M)
    assert len(rows) == 12
