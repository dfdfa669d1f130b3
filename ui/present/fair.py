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


# a size as an adjective: "800-token chunks"
_ONE = {"tokens": "token", "words": "word", "chars": "character"}


def size_summary(rows: Sequence[SizeRow], k: int, budget: int, unit: str) -> str:
    """What the two columns say: who wins at k, who at the budget, and why."""
    if not rows:
        return "No sizes measured."
    one = _ONE.get(unit, unit)
    best_k = max(rows, key=lambda r: (r.coverage_k, r.size))
    top = max(r.coverage_budget for r in rows)
    best_b = [r.size for r in rows if r.coverage_budget == top]
    small, big = rows[0], rows[-1]
    winners = (
        "every size covers"
        if len(best_b) == len(rows)
        else f"the {' and '.join(f'{s:,}' for s in best_b)}-{one} chunks cover most"
    )
    return (
        f"At the top {k} the {best_k.size:,}-{one} chunks cover most "
        f"({best_k.coverage_k:.3f}), but they send more: the {big.size:,}-{one} chunks "
        f"{big.cost_k:,.0f} {unit} a question, the {small.size:,}-{one} ones "
        f"{small.cost_k:,.0f}. Given the same {budget:,} {unit}, {winners} ({top:.3f}) and "
        f"the {big.size:,}-{one} chunks {big.coverage_budget:.3f}: their win at top {k} was "
        "the extra text they send. Where the columns cross is the size to distrust a top-k "
        "table at: choose a size at the budget your prompt has, not at a k."
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
