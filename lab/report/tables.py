"""Plain-text and Markdown tables for the reports (the CLI's output)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from .markup import md_escape


def columns(text: str) -> int:
    """How many terminal columns ``text`` takes: a wide character (Chinese, Japanese,
    Korean, full-width forms) two, any other one."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Columns padded to their widest cell (in terminal columns), a dashed rule under
    the header."""
    cells = [[str(h) for h in headers]] + [[cell(v) for v in row] for row in rows]
    widths = [max(columns(r[i]) for r in cells) for i in range(len(headers))]
    lines = [
        "  ".join(c + " " * (w - columns(c)) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def cell(v: Any) -> str:
    """One value as people read it: 3 decimals, yes/no, "-" for nothing."""
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def md_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub-flavoured Markdown table, each cell shown as written."""

    def esc(v: Any) -> str:
        return md_escape(cell(v), line_start=False)

    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(esc(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)
