"""Invariants of every strategy over generated markdown (hypothesis)."""

from __future__ import annotations

import re
import sys
from itertools import pairwise

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from chunkers import STRATEGIES, ChunkOptions, chunk
from chunkers.options import RUNT_MERGES
from chunkers.scripts import is_word_seam
from chunkers.structural.blocks import parse
from tests.chunkers.invariants import (
    ending_breaks,
    heading_context_breaks,
    over_max_breaks,
    overlap_breaks,
    page_breaks,
    runt_breaks,
    trust_breaks,
)
from tests.support import assert_spans_true, lost_characters, units

WORDS = st.sampled_from(
    "the audit store keeps logs for four hundred days Mumbai FY24 revenue 4.2% e.g. v3.2 "
    "Dr. naïve café 数据 данные مرحبا 👩‍💻 x\u0301 a|b — … 18,412".split()
)
SENTENCE = st.lists(WORDS, min_size=1, max_size=14).map(lambda ws: " ".join(ws) + ".")
PROSE = st.lists(SENTENCE, min_size=1, max_size=6).map(" ".join)
HEADING = st.tuples(st.integers(1, 4), st.lists(WORDS, min_size=1, max_size=4), st.booleans()).map(
    lambda t: "#" * t[0] + " " + " ".join(t[1]) + (" (transcribed from scan)" if t[2] else "")
)
PAGE = st.integers(1, 40).map(lambda n: f"## Page {n}")
CELL = st.lists(WORDS, min_size=1, max_size=3).map(" ".join)


@st.composite
def tables(draw) -> str:
    cols = draw(st.integers(1, 4))
    rows = draw(st.lists(st.lists(CELL, min_size=cols, max_size=cols), min_size=0, max_size=12))
    header = "| " + " | ".join(f"col{i}" for i in range(cols)) + " |"
    sep = "|" + "---|" * cols
    return "\n".join([header, sep] + ["| " + " | ".join(r) + " |" for r in rows])


CODE = st.lists(st.one_of(st.just(""), st.just("# not a heading"), PROSE), max_size=6).map(
    lambda ls: "```\n" + "\n".join(ls) + "\n```"
)
UNCLOSED = PROSE.map(lambda p: "```python\n" + p)
LIST = st.lists(PROSE, min_size=1, max_size=5).map(lambda ps: "\n".join("- " + p for p in ps))
LINEAR = st.lists(st.tuples(WORDS, WORDS), min_size=1, max_size=5).map(
    lambda rs: "\n".join(f"Name: {a} | Value: {b}" for a, b in rs)
)
BLOCK = st.one_of(PROSE, PROSE, HEADING, PAGE, tables(), CODE, LIST, LINEAR)


@st.composite
def documents(draw) -> str:
    blocks = draw(st.lists(BLOCK, min_size=1, max_size=14))
    if draw(st.booleans()):
        blocks.append(draw(UNCLOSED))
    text = "\n\n".join(blocks)
    return text.replace("\n", draw(st.sampled_from(["\n", "\r\n", "\r"])))


OPTIONS = st.tuples(
    st.sampled_from(["chars", "words", "tokens"]), st.integers(1, 400), st.floats(0, 0.9)
)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _opts(unit: str, size: int, frac: float) -> tuple[int, int]:
    if unit != "chars":
        size = max(1, size // (6 if unit == "words" else 4))
    return size, min(size - 1, int(size * frac))


@SETTINGS
@given(documents(), OPTIONS, st.sampled_from(list(STRATEGIES)))
def test_no_text_lost_and_spans_true(text: str, opt, name: str) -> None:
    size, overlap = _opts(*opt)
    chunks = chunk(text, name, size, overlap, unit=opt[0])
    assert lost_characters(text, chunks) == []
    assert_spans_true(text, chunks)
    assert chunks == chunk(text, name, size, overlap, unit=opt[0])  # deterministic


@SETTINGS
@given(documents(), OPTIONS)
def test_fixed_windows_never_exceed_size(text: str, opt) -> None:
    unit = opt[0]
    # (a tokens window re-counted alone may read a token more at its edges: it is
    # held to the token stream in test_token_unit.py)
    assume(unit != "tokens")
    size, overlap = _opts(*opt)
    for c in chunk(text, "fixed", size, overlap, unit=unit):
        # lengths count line breaks as one character, whatever the line ending
        prefix = c.overlap_prefix.replace("\r\n", "\n")
        assert units(prefix, unit) + c.length <= size


@SETTINGS
@given(documents(), OPTIONS)
def test_structural_limits_and_runt_floor(text: str, opt) -> None:
    unit = opt[0]
    size, overlap = _opts(*opt)
    opts = ChunkOptions(size=size, overlap=overlap, unit=unit)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    chunks = chunk(text, "structural", size, overlap, unit=unit)
    assert over_max_breaks(chunks, opts) == []
    assert runt_breaks(chunks, opts) == []


# -- converted PDFs: page anchors, transcribed headings at any level (so that some
# -- are demoted below their page anchor), headings under them, OCR lines and tables
OCR_LINE = st.lists(WORDS, min_size=2, max_size=10).map(lambda ws: " ".join(ws) + " l1 (illegible)")
TRANSCRIBED = st.tuples(st.integers(1, 4), WORDS).map(
    lambda t: "#" * t[0] + f" {t[1]} chart (transcribed from scan)"
)
PDF_BLOCK = st.one_of(PROSE, PAGE, PAGE, TRANSCRIBED, TRANSCRIBED, HEADING, OCR_LINE, tables())


@st.composite
def converted_pdfs(draw) -> str:
    return "\n\n".join(draw(st.lists(PDF_BLOCK, min_size=1, max_size=24)))


@SETTINGS
@given(st.one_of(documents(), converted_pdfs()), OPTIONS, st.sampled_from(RUNT_MERGES))
def test_heading_context_trust_and_pages(text: str, opt, runt_merge: str) -> None:
    unit = opt[0]
    size, overlap = _opts(*opt)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    chunks = chunk(text, "structural", size, overlap, unit=unit, runt_merge=runt_merge)
    assert heading_context_breaks(text, chunks) == []
    assert trust_breaks(text, chunks) == []
    assert page_breaks(text, chunks) == []
    assert lost_characters(text, chunks) == []
    opts = ChunkOptions(size=size, overlap=overlap, unit=unit, runt_merge=runt_merge)
    assert over_max_breaks(chunks, opts) == []
    assert overlap_breaks(text, chunks) == []
    if runt_merge == "backward":  # the forward merge is the counter-example: it stalls
        assert runt_breaks(chunks, opts) == []
        assert ending_breaks(text, chunks, opts) == []


@SETTINGS
@given(documents(), OPTIONS)
# -- an overlap that starts between two ideographs starts at a word
@example("the.\n\n- the.\n- the the 数据 the the.", ("words", 18, 0.75))
def test_table_fragments_and_overlap_rules(text: str, opt) -> None:
    unit = opt[0]
    size, overlap = _opts(*opt)
    norm = text.replace("\r\n", "\n").replace("\r", "\n")
    text = norm  # offsets below are compared with the parse, which works on LF text
    chunks = chunk(text, "structural", size, overlap, unit=unit)
    doc = parse(norm)
    table_spans = [(b.start, b.end) for b in doc.blocks if b.kind == "table"]
    for prev, c in pairwise(chunks):
        if c.header_repeated:
            lines = re.split(r"\r\n|\r|\n", c.body)
            assert "|" in lines[0] and set(lines[1].replace("|", "").strip()) <= set("-: \t")
        if c.overlap_prefix:
            assert not prev.transcribed and not c.transcribed
            assert c.kind != "table"
            # -- an overlap starts at a word: after whitespace, or between two words of
            # -- CJK text, which writes no space ("数据" is two words)
            assert is_word_seam(text, c.overlap_start) or c.overlap_start == prev.start
            assert not c.overlap_prefix[0].isspace()
    # table rows are never cut: every chunk edge inside a table falls at a line end
    starts = {c.start for c in chunks} | {c.end for c in chunks}
    for s, e in table_spans:
        for edge in starts:
            if s < edge < e:
                assert norm[edge - 1] == "\n" or norm[edge] == "\n", (edge, norm)


@SETTINGS
@given(documents())
def test_crlf_and_cr_chunk_like_lf(text: str) -> None:
    lf = text.replace("\r\n", "\n").replace("\r", "\n")
    for name in ("structural", "fixed", "sentence"):
        a = chunk(lf, name, 300, 40)
        for variant in (lf.replace("\n", "\r\n"), lf.replace("\n", "\r")):
            b = chunk(variant, name, 300, 40)
            assert [x.length for x in a] == [y.length for y in b]
            assert [x.body for x in a] == [
                y.body.replace("\r\n", "\n").replace("\r", "\n") for y in b
            ]


def test_recursive_follows_a_longer_piece_from_the_same_start() -> None:
    # LangChain emits "``" then "```" from the same offset at size 3: the second
    # piece is new text, not a chunk out of order
    text = "the.\n\n```python\nthe."
    chunks = chunk(text, "recursive", 3, 2, unit="chars")
    assert lost_characters(text, chunks) == []
    assert_spans_true(text, chunks)


def test_a_window_of_any_whitespace_is_left_out_as_strip_says() -> None:
    # every character str.isspace() calls whitespace, alone in a chars window between
    # two words: only the words' windows are chunks, as text[start:end].strip() decides
    spaces = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())
    text = "a" + spaces + "b"
    chunks = chunk(text, "fixed", 1, unit="chars")
    assert [c.body for c in chunks] == ["a", "b"]
