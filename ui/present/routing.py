"""What the Routing lab shows, without Streamlit: the types table and the per-type
comparison, as rows (lab.measure.by_type makes every figure)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chunkers.doctype import DOC_TYPES, Classified
from chunkers.routing import route_for


def type_rows(types: Mapping[str, Classified]) -> list[dict[str, Any]]:
    """One row per document: its type, the chunker routing sends it to, the evidence."""
    return [
        {
            "document": f"{n}.md",
            "type": c.doc_type + (" (uncertain)" if c.uncertain else ""),
            "chunker": route_for(c.doc_type),
            "evidence": c.evidence,
        }
        for n, c in types.items()
    ]


def comparison_rows(
    by_type: Mapping[str, Mapping[str, Any]], strategy: str, k: int, switched: str
) -> list[dict[str, Any]]:
    """One row per type (then all questions): recall@k under one strategy, routed, and
    routed with the switch; routed's change and its paired interval; what moved."""
    rows = []
    for t, f in by_type.items():
        low, high = f["interval"]
        rows.append(
            {
                "type": t,
                "questions": f["questions"],
                f"{strategy} recall@{k}": f"{f[f'a_recall@{k}']:.0%}",
                f"routed recall@{k}": f"{f[f'b_recall@{k}']:.0%}",
                "routed - one": f"{f['change']:+.0%}",
                "95% interval": f"[{low:+.0%}, {high:+.0%}]",
                f"{strategy} precision": f"{f['a_precision']:.2f}",
                "routed precision": f"{f['b_precision']:.2f}",
                f"with {switched}": f"{f['switched_recall']:.0%}",
                "moved": "moved" if f["moved"] else "",
            }
        )
    return rows


def verdict_line(by_type: Mapping[str, Mapping[str, Any]], strategy: str) -> str:
    """One line: is routed worse than the one strategy beyond the noise, and where."""
    worse = [t for t, f in by_type.items() if f["worse"] and t != "all"]
    everything = by_type.get("all")
    if everything is None:
        return "No gold questions to compare."
    low, high = everything["interval"]
    overall = (
        f"Routed against {strategy} on all {everything['questions']} questions: "
        f"{everything['change']:+.0%} (95% interval {low:+.0%} to {high:+.0%})"
    )
    if worse:
        return f"{overall}; worse beyond the noise on: {', '.join(worse)}."
    return f"{overall}; no type is worse beyond the noise."


def switchable_types(types: Mapping[str, Classified]) -> list[str]:
    """The types present, in the classifier's order."""
    present = {c.doc_type for c in types.values()}
    return [t for t in DOC_TYPES if t in present]
