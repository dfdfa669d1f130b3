"""The lessons told right: what a user sees for each lab's fixes (Streamlit AppTest)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.app.app_harness import (
    all_text,
    curve_key,
    open_app,
    rerun,
    set_widget,
    verdicts,
)

ROOT = Path(__file__).resolve().parents[2]


def _click_curve(at, name: str, size: int) -> None:
    at.session_state[curve_key(at, name)] = {"selection": {"points": [{"x": size, "y": 1}]}}
    rerun(at)


# --------------------------------------------------------------------------- lab 1


def test_clicking_the_same_point_twice_moves_the_slider_both_times():
    at = open_app()
    _click_curve(at, "lab1_curve", 22)
    assert at.slider(key="size").value == 22
    set_widget(at, "slider", "size", 30)
    _click_curve(at, "lab1_curve", 22)  # the same point again
    assert at.slider(key="size").value == 22
    assert verdicts(at)[0].startswith("✓")


def test_the_size_table_shows_every_row_without_an_inner_scroll():
    at = open_app()
    [table] = at.table  # a static table: every row on the page
    rows = table.value
    assert list(rows["Chunk size"]) == [
        "8-16", "17", "18-20", "21-22", "23-25", "26-29",
        "30-33", "34-44", "45-50", "51-88", "89-100", "101+",
    ]  # fmt: skip
    assert not any("Chunk size" in d.value.columns for d in at.dataframe)


def test_lab1_explains_the_second_split_in_its_own_words():
    at = open_app()
    text = all_text(at)
    assert "Why the answer splits again at 89-100 words" in text
    assert "The answer occupies words 89-101 of the document" in text
    assert "every size from 89 to 100 ends the very first chunk inside it" in text
    assert "published lottery table" in text and "52+ ✓" in text
    set_widget(at, "slider", "overlap", 5)  # the first-chunk rule is about no overlap
    assert "Why the answer splits again" not in all_text(at)


def test_no_page_names_a_document_the_user_does_not_have():
    pattern = re.compile(r"\bseeds? ?\d|\bissue ?#?\d", re.IGNORECASE)
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("pages", "ui")
        for path in sorted((ROOT / folder).glob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]
    assert offenders == []
