"""Fair comparisons as data: the figures at a budget, at equal cost, and what context buys.

At a fixed k a chunking of big chunks sends more text and so finds more; the
budget (lab.measure.budget) puts every chunking at the same cost. Two
configurations whose top k cost the context differently are also compared at
the cheaper one's cost. And the context modes (lab.measure.context) are compared
as contextual retrieval's results are given: top-20 failures (1 - recall@20)
and their relative change against the chunk's text alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .budget import BudgetFigures
from .integrity import FAILURE_K, IntegrityReport

# -- costs within a tenth of each other count as equal: no second comparison
EQUAL_COST_TOLERANCE = 1.1


def budget_json(report: IntegrityReport) -> dict[str, Any] | None:
    """The check's ``budget`` object for one retriever (None without a budget)."""
    figures = report.at_budget
    return None if figures is None else figures.to_json()


def relative_change(now: float, before: float) -> float | None:
    """(now - before) / before; None when before is 0 (no failures to lower)."""
    return (now - before) / before if before else None


def context_json(reports: Sequence[IntegrityReport]) -> dict[str, Any]:
    """What the run indexed beside each chunk, and per judge its top-20 failures against
    the chunks' text alone (when the reports were also ranked under context none)."""
    first = reports[0]
    titles = first.titles
    judged = []
    for report in reports:
        row: dict[str, Any] = {"retriever": report.retriever, "failure_at_20": report.failure_at_20}
        before = report.baseline_failure_at_20
        if before is not None:
            row["failure_at_20_none"] = before
            row["relative_change"] = relative_change(report.failure_at_20, before)
        judged.append(row)
    return {
        "mode": first.context,
        "k": FAILURE_K,
        "titles": None if titles is None else titles.by_document,
        "titles_from_file_names": [] if titles is None else list(titles.from_file_name),
        "note": None if titles is None else titles.note(),
        "compared_with": first.baseline,
        "retrievers": judged,
    }


@dataclass(frozen=True, slots=True)
class EqualCost:
    """Two configurations at the cheaper one's context cost at k."""

    units: int  # the budget both are measured at
    unit: str
    cheaper: str  # "A" or "B"
    ratio: float  # the dearer side's cost at k over the cheaper's
    a: tuple[BudgetFigures, ...]  # per retriever, in the order named
    b: tuple[BudgetFigures, ...]
    given: bool = False  # the budget was asked for, not the cheaper side's cost

    @property
    def leans_on_it(self) -> bool:
        """Whether the costs at k differ enough that the comparison at k is not fair."""
        return self.ratio > EQUAL_COST_TOLERANCE


def cheaper_cost(cost_a: float, cost_b: float) -> tuple[str, int, float] | None:
    """Which side's top k costs less, its cost rounded to a whole budget, and the ratio
    of the two; None when either costs nothing."""
    if cost_a <= 0 or cost_b <= 0:
        return None
    side, low, high = ("A", cost_a, cost_b) if cost_a <= cost_b else ("B", cost_b, cost_a)
    return side, max(1, round(low)), high / low
