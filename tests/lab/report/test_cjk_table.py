"""A terminal table with Chinese or Japanese in it keeps its columns: each of those
characters takes two columns of a terminal, and the padding counts them so."""

from __future__ import annotations

import unicodedata

from lab.report.tables import table


def columns(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def test_columns_line_up_under_chinese_and_japanese_cells():
    out = table(
        ["question", "rank"],
        [["常量可以使用 mut 吗？", 1], ["定数にmutキーワードは使えますか？", 12], ["refunds?", 3]],
    )
    lines = out.splitlines()
    # -- where the second column starts, in terminal columns, is the same on every line
    starts = {columns(ln[: ln.rindex(" ") + 1]) for ln in lines[2:]}
    assert len(starts) == 1, out
    assert columns(lines[1].split("  ")[0]) == columns("定数にmutキーワードは使えますか？")
