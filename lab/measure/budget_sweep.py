"""Coverage over chunk sizes at a fixed k and at a fixed budget, side by side: the lesson
that bigger chunks win at top k because they send more text (lab.measure.budget)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chunkers import ChunkOptions
from lab.inputs.gold import GoldQuestion
from lab.retrieval.bm25_variants import Bm25Retriever
from lab.retrieval.interface import Retriever

from .integrity import check_judged


@dataclass(frozen=True, slots=True)
class SizeRow:
    """One size: its figures at the top k and at the budget."""

    size: int
    coverage_k: float
    recall_k: float
    cost_k: float  # units the top k send on average
    coverage_budget: float
    recall_budget: float
    chunks_budget: float  # chunks that fit in the budget on average


def sizes_at_budget(
    documents: dict[str, str],
    pairs: Sequence[GoldQuestion],
    strategy: str,
    sizes: Sequence[int],
    *,
    unit: str,
    k: int,
    budget: int,
    tokenizer: str | None = None,
    retriever: Retriever | None = None,
) -> list[SizeRow]:
    """Each size's coverage and recall at the top ``k`` and at ``budget`` units (no
    overlap, so a chunk's cost is its length; a chunk bigger than the budget is cut)."""
    rows = []
    for size in sizes:
        extra = {"tokenizer": tokenizer} if tokenizer else {}
        opts = ChunkOptions.sized(size, 0, unit=unit, **extra)
        (report,) = check_judged(
            documents,
            pairs,
            strategy,
            opts,
            retrievers=[retriever or Bm25Retriever()],
            k=k,
            budget=budget,
            whole_first=False,
        )
        at = report.at_budget
        assert at is not None  # a budget was given
        rows.append(
            SizeRow(
                size,
                report.coverage_at(k),
                report.recall_at(k),
                report.context_cost,
                at.coverage,
                at.recall,
                at.chunks,
            )
        )
    return rows
