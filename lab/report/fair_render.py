"""The fair comparisons in words: the figures at a budget, what context bought, and the
diff at equal cost (lab.measure.fair), laid out from the data the reports carry."""

from __future__ import annotations

from typing import Any

from lab.measure.diff import DiffReport
from lab.measure.fair import EqualCost


def budget_line(b: dict[str, Any], k: int) -> str:
    """The figures at the budget in one line, beside the figures at k."""
    return (
        f"at a budget of {b['tokens']:,} {b['unit']} (against the top {k}): "
        f"{b['chunks']:.2f} chunks fit on average; coverage {b['coverage']:.3f}  "
        f"recall {b['recall']:.3f}  precision {b['precision']:.3f}  IoU {b['iou']:.3f}"
    )


def budget_lines(data: dict[str, Any]) -> list[str]:
    """The check's budget lines: one per retriever (named when there are several)."""
    judged = [r for r in data["retrievers"] if r.get("budget")]
    many = len(judged) > 1
    return [
        f"{r['retriever']}: {budget_line(r['budget'], data['k'])}"
        if many
        else budget_line(r["budget"], data["k"])
        for r in judged
    ]


def _change(row: dict[str, Any]) -> str:
    if "failure_at_20_none" not in row:
        return ""
    change = row["relative_change"]
    said = "no failures to lower" if change is None else f"{change:+.0%}"
    return f" (none: {row['failure_at_20_none']:.1%}; {said})"


def context_lines(c: dict[str, Any]) -> list[str]:
    """What was indexed beside each chunk, the title note, and top-20 failures per judge."""
    failures = "; ".join(
        f"{r['retriever']} {r['failure_at_20']:.1%}{_change(r)}" for r in c["retrievers"]
    )
    lines = [f"context {c['mode']}: top-{c['k']} failures (1 - recall@{c['k']}): {failures}"]
    if c.get("note"):
        lines.append(c["note"])
    return lines


# -- the diff at equal cost ------------------------------------------------------------------
def equal_cost_json(report: DiffReport) -> dict[str, Any] | None:
    e = report.equal_cost
    if e is None:
        return None
    # -- each JSON key and the field it reads (the keys are the budget object's names)
    named = {"tokens": "units", "cost_ratio": "ratio"}
    keys = ("tokens", "unit", "cheaper", "cost_ratio", "leans_on_it", "given")
    out: dict[str, Any] = {key: getattr(e, named.get(key, key)) for key in keys}
    return out | {"a": [f.to_json() for f in e.a], "b": [f.to_json() for f in e.b]}


def equal_cost_rows(e: EqualCost) -> list[tuple[str, str, str, str]]:
    """Both sides' figures at the shared budget (the first retriever's)."""
    if not e.a or not e.b:
        return []
    a, b = e.a[0], e.b[0]
    rows = []
    for name in ("chunks", "coverage", "recall", "precision", "iou"):
        va, vb = getattr(a, name), getattr(b, name)
        better = "" if va == vb else ("higher" if vb > va else "lower")
        rows.append((name if name != "iou" else "IoU", f"{va:.3f}", f"{vb:.3f}", better))
    return rows


def equal_cost_title(e: EqualCost) -> str:
    why = "the budget given" if e.given else "the cheaper side's context at k"
    return f"At equal cost ({e.units:,} {e.unit} a question: {why})"


def equal_cost_said(report: DiffReport) -> str:
    """Which comparison the advice leans on, and why (empty with no gold set)."""
    e, ga, gb = report.equal_cost, report.a.gold, report.b.gold
    if ga is None or gb is None:
        return ""
    if e is None or not e.a or not e.b:
        return (
            f" It leans on the figures at k={ga.k}: A and B cost the context about the same "
            "there (or count it in different units)."
        )
    a, b = e.a[0], e.b[0]
    dear = "B" if e.cheaper == "A" else "A"
    at = f"coverage {a.coverage:.3f} vs {b.coverage:.3f}, recall {a.recall:.3f} vs {b.recall:.3f}"
    if not e.leans_on_it:
        return f" At {e.units:,} {e.unit} a question, {at}."
    return (
        f" At k={ga.k} {dear} sends {e.ratio:.1f}x {e.cheaper}'s context, so it leans on "
        f"the comparison at equal cost ({e.units:,} {e.unit} a question): {at}."
    )
