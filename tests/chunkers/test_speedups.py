"""The compiled twins do exactly what their Python references do.

Two steps have a compiled twin: packing, pack.py compiled as it stands; and
finish, whose reference is spans.finish_python (plus the text checks every
strategy makes). Block recognition has none: the CommonMark engine does it.
Every draft and every field of every Chunk must agree. speedups.FORCE is the
one switch that picks a twin or its reference.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkers import ChunkOptions, speedups, structural
from chunkers.model import Chunk
from chunkers.spans import finish
from chunkers.structural import pack_drafts
from chunkers.structural.blocks import parse
from chunkers.text import surrogates_and_returns_python
from tests.support import corpus_files


@contextmanager
def twins(force: bool):
    old, speedups.FORCE = speedups.FORCE, force
    try:
        yield
    finally:
        speedups.FORCE = old


def assert_same_chunks(text: str, opts: ChunkOptions) -> None:
    """Each step's twin against its reference, on the same input."""
    with twins(False):
        doc = parse(text)
        drafts = pack_drafts(doc, opts)
        python = finish(doc.source, drafts, opts.unit)
    with twins(True):
        # a parse of its own: packing caches block lengths and sentences on the parse
        assert pack_drafts(parse(text), opts) == drafts
        compiled = finish(doc.source, drafts, opts.unit)
    assert compiled == python
    assert all(type(c) is Chunk for c in compiled)


def test_the_compiled_twins_are_built_and_used_by_default() -> None:
    assert speedups.compiled is not None, speedups.WHY_NOT
    assert speedups.finish is not None and speedups.surrogates_and_returns is not None
    assert structural.pack_compiled is not None, structural.WHY_NOT
    assert structural.pack_compiled.__module__ == "chunkers.structural._pack_compiled"
    assert speedups.use_twin(structural.pack_compiled) and speedups.use_twin(speedups.finish)


@pytest.mark.parametrize(
    "opts",
    [
        ChunkOptions(1800, 150),
        ChunkOptions(200, 20, unit="words"),
        ChunkOptions(300, 0, runt_merge="off"),
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


# Lines that exercise the block kinds packing meets: fences (width,
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
def test_compiled_and_python_pack_agree_on_every_option(
    text, size, runt_merge, heading_paths
) -> None:
    opts = ChunkOptions(size, size // 3, runt_merge=runt_merge, heading_paths=heading_paths)
    assert_same_chunks(text, opts)


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
    monkeypatch.setattr(speedups, "finish", None)
    monkeypatch.setattr(speedups, "surrogates_and_returns", None)
    monkeypatch.setattr(speedups, "WHY_NOT", speedups.NOT_BUILT)
    monkeypatch.setattr(structural, "pack_compiled", None)
    monkeypatch.setattr(structural, "WHY_NOT", speedups.NOT_BUILT)
    doc = parse("# a\n\nb")
    drafts = pack_drafts(doc, ChunkOptions())  # the Python pack: no twin is built
    with twins(True):
        for insist in (
            lambda: parse("text"),
            lambda: pack_drafts(doc, ChunkOptions()),
            lambda: finish(doc.source, drafts, "chars"),
        ):
            with pytest.raises(RuntimeError, match="scripts/build.sh"):
                insist()
    assert doc.kinds == ("heading", "prose")  # without FORCE, the Python code runs
    assert [c.body for c in finish(doc.source, drafts, "chars")] == ["# a\n\nb"]
