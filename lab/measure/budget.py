"""A context budget: which ranked chunks a prompt of N units holds (docs/gate.md).

A comparison at a fixed k flatters big chunks: five 800-token chunks hand the
model four times the text five 200-token chunks do. A budget puts every
chunking on the same footing: the ranked chunks go into the context in rank
order until N units are spent, and the one that passes N is cut there, as a
prompt would cut it.

A chunk costs what it sends: its source text (overlap prefix and body) in the
run's unit, so text two sent chunks share is paid for twice, as the context
window pays for it (``Efficiency.cost`` counts the same way). The heading path
is left out, as it is of every token figure. The figures at the budget are the
same ``Efficiency`` the figures at k are, computed over the spans sent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .efficiency import Efficiency, Span, merged


class BudgetTooSmall(ValueError):
    """A budget that holds no whole chunk for any question: one line, with the units the
    smallest first-ranked chunk needs."""


@dataclass(frozen=True, slots=True)
class Sent:
    """One chunk in the context: its position in the index and the units it cost."""

    position: int
    units: int  # what it cost (all of it, or what was left of the budget)
    whole: int  # what all of it costs

    @property
    def cut(self) -> bool:
        return self.units < self.whole


def fill(ranked: Iterable[int], cost: Callable[[int], int], budget: int) -> list[Sent]:
    """The ranked positions (best first) that go into a context of ``budget`` units,
    each with what it costs (``cost``); the one that passes the budget is cut there.
    A chunk that costs nothing (empty) is passed over."""
    out: list[Sent] = []
    left = budget
    for position in ranked:
        if left <= 0:
            break
        whole = cost(position)
        if whole <= 0:
            continue
        out.append(Sent(position, min(whole, left), whole))
        left -= whole
    return out


def first_units(counts: np.ndarray, spans: Sequence[Span], units: int) -> list[Span]:
    """The first ``units`` units of a chunk's source text (``spans``, read in document
    order; ``counts``: the document's ``unit_counts``): where a budget cuts it. A unit
    is kept whole up to the next unit's first character."""
    out: list[Span] = []
    left = units
    for s, e in merged(spans):
        if left <= 0:
            break
        here = int(counts[e] - counts[s])
        if here <= left:
            out.append((s, e))
            left -= here
            continue
        # -- the end: where the unit after the last one kept starts
        stop = int(np.searchsorted(counts, counts[s] + left, side="right")) - 1
        out.append((s, min(max(stop, s), e)))
        left = 0
    return out


@dataclass(frozen=True, slots=True)
class AtBudget:
    """One question's context at the budget: what it held and what that found."""

    chunks: float  # chunks sent, the cut one by the share of it sent
    found: bool  # a chunk relevant to the question (its relevant part) is in the context
    coverage: float  # share of the passages' characters in the context
    efficiency: Efficiency  # the same token figures as at k, over the spans sent


@dataclass(frozen=True, slots=True)
class BudgetFigures:
    """A gold set's means at one budget (JSON: the check's ``budget`` object)."""

    units: int  # the budget, in the run's unit
    unit: str  # that unit's name ("words", "chars", "cl100k_base tokens")
    chunks: float  # chunks that fit, on average (the cut one by its share)
    coverage: float
    recall: float  # share of questions with a relevant chunk in the context
    precision: float
    iou: float
    token_recall: float
    cost: float  # units sent on average (below the budget when the chunks run out)

    def to_json(self) -> dict[str, float | int | str]:
        return {
            "tokens": self.units,
            "unit": self.unit,
            "chunks": self.chunks,
            "coverage": self.coverage,
            "recall": self.recall,
            "precision": self.precision,
            "iou": self.iou,
            "token_recall": self.token_recall,
            "context_cost": self.cost,
        }


def figures(budget: int, each: Sequence[AtBudget | None], unit: str) -> BudgetFigures:
    """The means over the questions measured at the budget."""
    shown = [a for a in each if a is not None]
    n = len(shown) or 1

    def mean(figure: Callable[[AtBudget], float]) -> float:
        return sum(figure(a) for a in shown) / n

    return BudgetFigures(
        budget,
        unit,
        mean(lambda a: a.chunks),
        mean(lambda a: a.coverage),
        mean(lambda a: float(a.found)),
        mean(lambda a: a.efficiency.precision),
        mean(lambda a: a.efficiency.iou),
        mean(lambda a: a.efficiency.recall),
        mean(lambda a: float(a.efficiency.cost)),
    )


def check_budget(budget: int | None, first_costs: Sequence[int], unit: str) -> None:
    """Refuse a budget below one unit, or one that holds no question's first-ranked chunk
    whole (``first_costs``: what each question's first chunk costs): the figures would
    all be of cut text. None: no budget, nothing to check."""
    if budget is None:
        return
    if budget < 1:
        raise BudgetTooSmall(f"a budget must be a whole number of at least 1, got {budget}")
    if first_costs and budget < min(first_costs):
        need = min(first_costs)
        raise BudgetTooSmall(
            f"a budget of {budget} {unit} holds no whole chunk: the first-ranked chunk needs "
            f"{need} {unit} at least (the smallest over the questions); give a budget of "
            f"{need} or more"
        )
