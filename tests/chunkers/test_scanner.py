"""The compiled block scanner finds exactly the blocks the Python one does.

parse.py's Python scanner is the reference; _scan.pyx is its compiled twin
(issue 5's speed). Every field of the parse must agree: block kinds and spans,
table rows and headers, sections with their heading paths, pages and trust.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkers.structural import speedups
from chunkers.structural.parse import ParsedDocument, parse
from tests.support import CORPUS


def fields(doc: ParsedDocument) -> tuple:
    return (doc.kinds, doc.starts, doc.ends, doc.block_sections, doc.section_starts,
            doc.sections, doc.tables)


def assert_same_parse(text: str) -> None:
    compiled, python = parse(text, compiled=True), parse(text, compiled=False)
    assert fields(compiled) == fields(python)


def test_the_compiled_scanner_is_built_and_used_by_default() -> None:
    assert speedups.scan is not None, speedups.WHY_NOT
    text = "# Title\n\nSome prose.\n"
    calls = []

    def spy(parser, t):  # parse() without `compiled` goes through speedups.scan
        calls.append(t)
        return real(parser, t)

    real = speedups.scan
    speedups.scan = spy
    try:
        parse(text)
    finally:
        speedups.scan = real
    assert calls == [text]


def test_compiled_and_python_scanners_agree_on_the_corpus() -> None:
    paths = sorted(CORPUS.rglob("*.md"))
    assert len(paths) > 300, "the shared corpus must sit next to the project"
    differ = [p.name for p in paths if fields(parse(p.read_text("utf-8"), compiled=True))
              != fields(parse(p.read_text("utf-8"), compiled=False))]
    assert differ == []


# Lines that exercise every rule the scanner reimplements: fences (width,
# backticks in the info string, tildes, indentation), ATX headings (levels,
# indentation, closing hashes, tabs), GFM table starts, linearised rows, list
# markers (\d is any Unicode decimal digit, at most nine of them), blank lines
# made of Unicode whitespace, and characters of each storage width.
LINES = st.sampled_from([
    "", " ", "\t", "\u00a0", "\x1c", "\u2003 ", "\x85",
    "plain prose", "é accent", "→ arrow", "😀 emoji", "a | b", "x|y",
    "# One", "## Two ##", "###### Six", "####### seven", "   # three spaces", "    # four spaces",
    "#", "## ", "#\ttab", "#no space", "## Page 12", "### Scan (transcribed)", "# page 3 notes",
    "## closing # #", "# ends with #",
    "```", "```python", "~~~", "~~~~", "````", "  ```", "``` a`b", "``", "~~~ info ~",
    "| a | b |", "|---|---|", "| :-: | --- |", "--- | ---", "a | b", "|-", "| - |", ": | -",
    "Name: Ada | Role: x", "Region: EU | Revenue: 4",
    "- item", "* item", "+ item", "-item", "1. one", "10) ten", "1234567890. ten digits",
    "123456789. nine", "\u0663. arabic-indic three", "  - indented", "1.", "-",
])


@st.composite
def documents(draw) -> str:
    lines = draw(st.lists(LINES, max_size=30))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n", " \n"]))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_compiled_and_python_scanners_agree_on_generated_markdown(text: str) -> None:
    assert_same_parse(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("#`~|-:*+1. \t\n\u00a0a😀é→")), max_size=120))
def test_compiled_and_python_scanners_agree_on_any_string(text: str) -> None:
    assert_same_parse(text)


@pytest.mark.parametrize("extra", ["", "é", "→", "😀"], ids=["ascii", "latin-1", "ucs-2", "ucs-4"])
def test_every_string_width_scans_alike(extra: str) -> None:
    # CPython stores a string 1, 2 or 4 bytes per character; each width has its own search
    text = (f"# Title {extra}\n\nA para {extra}\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
            f"```\ncode {extra}\n\n```\n- item {extra}\n")
    assert_same_parse(text)
    # (the one-line paragraph above the table is its caption and travels with it)
    assert parse(text).kinds == ("heading", "table", "code", "list")


def test_a_build_older_than_its_source_is_not_used(tmp_path: Path) -> None:
    built, source = tmp_path / "_scan.so", tmp_path / "_scan.pyx"
    built.write_text("")
    source.write_text("")
    module = SimpleNamespace(__file__=str(built), scan=lambda parser, text: None)
    past = time.time() - 60
    os.utime(built, (past, past))
    assert speedups.usable(module, source) == (None, speedups.STALE)
    os.utime(source, (past - 60, past - 60))
    assert speedups.usable(module, source) == (module.scan, "")
    assert speedups.usable(None, source) == (None, speedups.NOT_BUILT)


def test_insisting_on_the_compiled_scanner_without_a_build_says_why(monkeypatch) -> None:
    monkeypatch.setattr(speedups, "scan", None)
    monkeypatch.setattr(speedups, "WHY_NOT", speedups.NOT_BUILT)
    with pytest.raises(RuntimeError, match="scripts/build.sh"):
        parse("text", compiled=True)
    assert parse("# a\n\nb").kinds == ("heading", "prose")  # the default falls back
