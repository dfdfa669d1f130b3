"""The by-type breakdowns as text: a table per report and the one line that names
the weakest type (lab.measure.by_type makes the figures)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .tables import table


def _is_share(column: str) -> bool:
    return column.endswith("_rate") or column.startswith(("recall@", "precision"))


def _cell(column: str, v: Any) -> Any:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.0%}" if _is_share(column) else f"{v:g}" if v == int(v) else f"{v:.1f}"
    return v


def by_type_table(by_type: Mapping[str, Mapping[str, Any]], columns: list[str]) -> str:
    """One row per type, the named figures as columns (shares as percentages)."""
    rows = [(t, *(_cell(c, f.get(c)) for c in columns)) for t, f in by_type.items()]
    return table(["type", *columns], rows)


def compare_lines(by_type: Mapping[str, Mapping[str, Any]], k: int) -> list[str]:
    """A's and B's recall@k for each type, B - A and its paired 95 % interval."""
    if not by_type:
        return []
    rows = [
        (
            t,
            f["questions"],
            f"{f[f'a_recall@{k}']:.0%}",
            f"{f[f'b_recall@{k}']:.0%}",
            f"{f['change']:+.0%}",
            f"[{f['interval'][0]:+.0%}, {f['interval'][1]:+.0%}]",
            "worse" if f["worse"] else "within the noise" if f["interval"][0] <= 0 else "better",
            f"{f['a_precision']:.2f}",
            f"{f['b_precision']:.2f}",
        )
        for t, f in by_type.items()
    ]
    worse = [t for t, f in by_type.items() if f["worse"] and t != "all"]
    return [
        f"recall@{k} by document type, B against A on the same questions "
        "(a paired bootstrap's 95% interval), and the token precision of the top k:",
        table(
            ["type", "questions", "A", "B", "B - A", "interval", "verdict", "A prec", "B prec"],
            rows,
        ),
        f"worse beyond the noise: {', '.join(worse)}"
        if worse
        else "no type is worse beyond the noise",
    ]
