"""Lab 6's lesson on token efficiency, as rows a page shows (no Streamlit)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lab.measure.efficiency_sweep import Spread, TokenRow


def token_rows(rows: Sequence[TokenRow], k: int, unit: str) -> list[dict[str, Any]]:
    return [
        {
            "size": f"{r.size} {unit}",
            "overlap": r.overlap,
            f"recall@{k}": round(r.recall, 2),
            f"IoU@{k}": round(r.iou, 3),
            f"precision@{k}": round(r.precision, 3),
            f"context@{k} ({unit})": round(r.context),
        }
        for r in rows
    ]


def token_summary(s: Spread, k: int) -> str:
    """The lesson in one line, from the figures just measured."""
    iou = f"{s.iou_times:.1f}×" if s.iou_times else "from zero"
    return (
        f"From the largest chunks to the smallest, recall@{k} moves {s.recall_points:.0f} "
        f"points while IoU moves {iou}; at the same size, a quarter's overlap lowers IoU "
        f"at {s.overlap_lowers_iou} of {s.sizes} sizes (it repeats text the top {k} "
        "already holds and costs the context window)."
    )
