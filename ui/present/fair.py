"""The fair comparisons as a page shows them: sizes at k and at a budget, and what
context in the index buys beside contextual retrieval's published figures."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lab.measure.budget_sweep import SizeRow
from lab.measure.fair import relative_change

# -- contextual retrieval's published top-20 failure rates (embeddings, then BM25 too)
PUBLISHED = (
    ("no context", 0.057, None),
    ("context in the embeddings", 0.037, -0.35),
    ("context in the embeddings and BM25", 0.029, -0.49),
)


CONTEXT_LESSON = (
    "Anthropic's contextual retrieval has a model write a short context for every chunk "
    "and indexes it with the chunk: top-20 failures fell by a third with it in the "
    "embeddings and by half with it in BM25 as well. The lab's context is structure the "
    "document already has, its title and the heading path, free and offline but not "
    "written for the chunk: it helps where a chunk's own words do not say which section "
    "it belongs to, and buys nothing where the answer's words are in the chunk already. "
    "Their corpora and questions are not these either, so read the two tables for the "
    "direction, not the size."
)


def size_rows(rows: Sequence[SizeRow], k: int, budget: int, unit: str) -> list[dict[str, Any]]:
    """One row a size: coverage and recall at the top k (and what it sends), then at the budget."""
    return [
        {
            f"size ({unit})": r.size,
            f"coverage@{k}": round(r.coverage_k, 3),
            f"recall@{k}": round(r.recall_k, 3),
            f"sent@{k} ({unit})": round(r.cost_k),
            f"coverage@{budget:,}": round(r.coverage_budget, 3),
            f"recall@{budget:,}": round(r.recall_budget, 3),
            "chunks that fit": round(r.chunks_budget, 2),
        }
        for r in rows
    ]


def size_summary(rows: Sequence[SizeRow], k: int, budget: int, unit: str) -> str:
    """What the two columns say: who wins at k, who at the budget, and why."""
    if not rows:
        return "No sizes measured."
    best_k = max(rows, key=lambda r: (r.coverage_k, r.size))
    best_b = max(rows, key=lambda r: (r.coverage_budget, -r.size))
    small, big = rows[0], rows[-1]
    return (
        f"At the top {k} the {best_k.size}-{unit} chunks cover most ({best_k.coverage_k:.3f}); "
        f"but the {big.size}-{unit} chunks send {big.cost_k:,.0f} {unit} a question against "
        f"{small.cost_k:,.0f} for {small.size}-{unit} ones. Given the same {budget:,} {unit}, "
        f"the {best_b.size}-{unit} chunks cover most ({best_b.coverage_budget:.3f}): part of "
        "a big chunk's win at top k is the extra text it sends. Choose a size at the budget "
        "your prompt has, not at a k."
    )


def context_rows(failures: dict[str, dict[str, float]]) -> list[dict[str, Any]]:
    """Top-20 failures per context mode and judge, with the change against none."""
    out = []
    for mode, by_judge in failures.items():
        for judge, failure in by_judge.items():
            before = failures.get("none", {}).get(judge)
            change = None if before is None else relative_change(failure, before)
            out.append(
                {
                    "indexed with the chunk": mode,
                    "judge": judge,
                    "top-20 failures": f"{failure:.1%}",
                    "change against none": "" if change is None else f"{change:+.0%}",
                }
            )
    return out


def published_rows() -> list[dict[str, Any]]:
    return [
        {
            "Anthropic's contextual retrieval (published)": name,
            "top-20 failures": f"{rate:.1%}",
            "change": "" if change is None else f"{change:+.0%}",
        }
        for name, rate, change in PUBLISHED
    ]
