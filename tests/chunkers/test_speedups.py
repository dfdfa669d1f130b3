"""The compiled twins do exactly what their Python references do.

Three steps have a compiled twin (issue 5's speed): the block scanner, whose
reference is parse.py's Python scanner; packing, pack.py compiled as it
stands; and finish, whose reference is spans.finish_python. Every field must
agree: block kinds and spans, table rows and headers, sections with their
heading paths, pages and trust; every draft; and every field of every Chunk.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkers import ChunkOptions, speedups
from chunkers.model import Chunk
from chunkers.spans import finish
from chunkers.structural import pack_drafts
from chunkers.structural.parse import ParsedDocument, parse
from chunkers.text import surrogates_and_returns_python
from tests.support import corpus_files


def fields(doc: ParsedDocument) -> tuple:
    return (
        doc.kinds,
        doc.starts,
        doc.ends,
        doc.block_sections,
        doc.section_starts,
        doc.sections,
        doc.tables,
    )


def assert_same_parse(text: str) -> None:
    compiled, python = parse(text, compiled=True), parse(text, compiled=False)
    assert fields(compiled) == fields(python)


def assert_same_chunks(text: str, opts: ChunkOptions) -> None:
    """Each step's twin against its reference, on the same input."""
    doc = parse(text, compiled=False)
    drafts = pack_drafts(doc, opts, compiled=False)
    # a parse of its own: packing caches block lengths and sentences on the parse
    assert pack_drafts(parse(text, compiled=False), opts, compiled=True) == drafts
    compiled = finish(doc.source, drafts, opts.unit, compiled=True)
    assert compiled == finish(doc.source, drafts, opts.unit, compiled=False)
    assert all(type(c) is Chunk for c in compiled)


def test_the_compiled_twins_are_built_and_used_by_default() -> None:
    assert speedups.compiled is not None, speedups.WHY_NOT
    assert speedups.scan is not None and speedups.finish is not None
    packer, why = speedups.pack_drafts()
    assert packer is not None, why
    assert packer.__module__ == "chunkers.structural._pack_compiled"
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


@pytest.mark.corpus
def test_compiled_and_python_scanners_agree_on_the_corpus() -> None:
    paths = corpus_files()
    differ = [
        p.name
        for p in paths
        if fields(parse(p.read_text("utf-8"), compiled=True))
        != fields(parse(p.read_text("utf-8"), compiled=False))
    ]
    assert differ == []


@pytest.mark.parametrize(
    "opts",
    [
        ChunkOptions(1800, 150),
        ChunkOptions(200, 20, unit="words"),
        ChunkOptions(300, 0, sweep="off"),
    ],
    ids=str,
)
@pytest.mark.corpus
def test_compiled_and_python_pack_and_finish_agree_on_the_corpus(opts: ChunkOptions) -> None:
    for path in corpus_files()[::3]:
        text = path.read_text("utf-8")
        assert_same_chunks(text, opts)
        assert_same_chunks(text.replace("\n", "\r\n"), opts)  # offsets mapped back to CRLF


def test_compiled_finish_keeps_what_the_caller_gave() -> None:
    # a lone surrogate (a lossy decode) is U+FFFD only in the working copy: the
    # body, the repeated table header and the overlap prefix come from the text as given
    text = "Intro \ud800 words here.\n\n| a \ud800 | b |\n|---|---|\n" + "".join(
        f"| row {i} \ud800 | {i} |\n" for i in range(40)
    )
    for newline in ("\n", "\r\n"):
        given = text.replace("\n", newline)
        for opts in (ChunkOptions(80, 20), ChunkOptions(12, 3, unit="words")):
            assert_same_chunks(given, opts)
        doc = parse(given)
        chunks = finish(doc.source, pack_drafts(doc, ChunkOptions(80, 20)), "chars")
        header = f"| a \ud800 | b |{newline}|---|---|{newline}"
        assert sum(c.header_repeated and c.body.startswith(header) for c in chunks) > 1


def test_a_chunk_class_the_twin_does_not_know_is_refused() -> None:
    from dataclasses import fields, make_dataclass

    other = make_dataclass("Other", [("index", int), ("extra", int)], frozen=True, slots=True)
    with pytest.raises(RuntimeError, match="fields changed"):
        speedups.finish(parse("x").source, [], "chars", other, len)
    # the same fields without slots: finish writes through slot descriptors, so it refuses
    no_slots = make_dataclass("NoSlots", [(f.name, f.type, f) for f in fields(Chunk)], frozen=True)
    with pytest.raises(RuntimeError, match="slots dataclass"):
        speedups.finish(parse("x").source, [], "chars", no_slots, len)


# Lines that exercise every rule the scanner reimplements: fences (width,
# backticks in the info string, tildes, indentation), ATX headings (levels,
# indentation, closing hashes, tabs), GFM table starts, linearised rows, list
# markers (\d is any Unicode decimal digit, at most nine of them), blank lines
# made of Unicode whitespace, and characters of each storage width.
LINES = st.sampled_from(
    [
        "",
        " ",
        "\t",
        "\u00a0",
        "\x1c",
        "\u2003 ",
        "\x85",
        "plain prose",
        "é accent",
        "→ arrow",
        "😀 emoji",
        "a | b",
        "x|y",
        "# One",
        "## Two ##",
        "###### Six",
        "####### seven",
        "   # three spaces",
        "    # four spaces",
        "#",
        "## ",
        "#\ttab",
        "#no space",
        "## Page 12",
        "### Scan (transcribed)",
        "# page 3 notes",
        "## closing # #",
        "# ends with #",
        "```",
        "```python",
        "~~~",
        "~~~~",
        "````",
        "  ```",
        "``` a`b",
        "``",
        "~~~ info ~",
        "| a | b |",
        "|---|---|",
        "| :-: | --- |",
        "--- | ---",
        "a | b",
        "|-",
        "| - |",
        ": | -",
        "Name: Ada | Role: x",
        "Region: EU | Revenue: 4",
        "- item",
        "* item",
        "+ item",
        "-item",
        "1. one",
        "10) ten",
        "1234567890. ten digits",
        "123456789. nine",
        "\u0663. arabic-indic three",
        "  - indented",
        "1.",
        "-",
    ]
)


@st.composite
def documents(draw) -> str:
    lines = draw(st.lists(LINES, max_size=30))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n", " \n"]))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_compiled_and_python_scanners_agree_on_generated_markdown(text: str) -> None:
    assert_same_parse(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    documents(),
    st.sampled_from(["\n", "\r\n"]),
    st.integers(5, 60),
    st.sampled_from(["chars", "words"]),
)
def test_compiled_and_python_pack_and_finish_agree_on_generated_markdown(
    text, newline, size, unit
) -> None:
    assert_same_chunks(text.replace("\n", newline), ChunkOptions(size, size // 4, unit=unit))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    documents(), st.integers(5, 200), st.sampled_from(["backward", "forward", "off"]), st.booleans()
)
def test_compiled_and_python_pack_agree_on_every_option(text, size, sweep, heading_paths) -> None:
    opts = ChunkOptions(size, size // 3, sweep=sweep, heading_paths=heading_paths)
    assert_same_chunks(text, opts)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("#`~|-:*+1. \t\n\u00a0a😀é→")), max_size=120))
def test_compiled_and_python_scanners_agree_on_any_string(text: str) -> None:
    assert_same_parse(text)


@pytest.mark.parametrize("extra", ["", "é", "→", "😀"], ids=["ascii", "latin-1", "ucs-2", "ucs-4"])
def test_every_string_width_scans_alike(extra: str) -> None:
    # CPython stores a string 1, 2 or 4 bytes per character; each width has its own search
    text = (
        f"# Title {extra}\n\nA para {extra}\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        f"```\ncode {extra}\n\n```\n- item {extra}\n"
    )
    assert_same_parse(text)
    # (the one-line paragraph above the table is its caption and travels with it)
    assert parse(text).kinds == ("heading", "table", "code", "list")


@pytest.mark.parametrize(
    "text,expected",
    [
        ("", (False, False)),
        ("ascii", (False, False)),
        ("latin-1 é\r\n", (False, True)),
        ("ucs-2 → \ud7ff \ue000", (False, False)),
        ("ucs-4 😀 \U0010ffff\r", (False, True)),
        ("\ud800", (True, False)),
        ("→ \udfff\r", (True, True)),
        ("😀 x \udbff", (True, False)),
        ("é" * 1000 + "\udc00", (True, False)),
        ("\r" + "😀" * 1000, (False, True)),
    ],
    ids=repr,
)
def test_the_surrogate_and_return_checks_agree_at_every_width(text: str, expected) -> None:
    assert speedups.surrogates_and_returns(text) == expected
    assert surrogates_and_returns_python(text) == expected


ANY_CHARACTER = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=ANY_CHARACTER, max_size=80))
def test_the_surrogate_and_return_checks_agree_on_any_string(text: str) -> None:
    assert speedups.surrogates_and_returns(text) == surrogates_and_returns_python(text)


def test_a_build_older_than_its_source_is_not_used(tmp_path: Path) -> None:
    built, source = tmp_path / "_speedups.so", tmp_path / "_speedups.pyx"
    built.write_text("")
    source.write_text("")
    module = SimpleNamespace(__file__=str(built))
    past = time.time() - 60
    os.utime(built, (past, past))
    assert speedups.usable(module, source) == (None, speedups.STALE)
    os.utime(source, (past - 60, past - 60))
    assert speedups.usable(module, source) == (module, "")
    assert speedups.usable(None, source) == (None, speedups.NOT_BUILT)


def test_insisting_on_a_twin_without_a_build_says_why(monkeypatch) -> None:
    monkeypatch.setattr(speedups, "scan", None)
    monkeypatch.setattr(speedups, "finish", None)
    monkeypatch.setattr(speedups, "WHY_NOT", speedups.NOT_BUILT)
    monkeypatch.setattr(speedups, "_pack", (None, speedups.NOT_BUILT))
    doc = parse("# a\n\nb")
    drafts = pack_drafts(doc, ChunkOptions())  # the Python pack: no twin is built
    for insist in (
        lambda: parse("text", compiled=True),
        lambda: pack_drafts(doc, ChunkOptions(), compiled=True),
        lambda: finish(doc.source, drafts, "chars", compiled=True),
    ):
        with pytest.raises(RuntimeError, match="scripts/build.sh"):
            insist()
    assert doc.kinds == ("heading", "prose")  # without `compiled`, the Python code runs
    assert [c.body for c in finish(doc.source, drafts, "chars")] == ["# a\n\nb"]
