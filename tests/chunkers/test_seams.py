"""Text too big for a chunk is cut at the strongest seam that lets it fit.

The ladder (chunkers/seams.py): sentence ends, lines, stops, clause marks,
words, characters. The structural chunker's prose and the sentence strategy
both cut down it.
"""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkers import ChunkOptions, chunk, chunk_sweep, chunk_with
from chunkers.scripts import is_word_seam
from chunkers.seams import SeamPacker, clause_spans, seam_at, stop_spans
from chunkers.segment import sentence_spans
from chunkers.text import count_units
from tests.chunkers.realistic_texts import chat_log, tokenised_wiki
from tests.support import SAMPLES, lost_characters


def _cuts(text: str, chunks) -> list[tuple[int, int]]:
    """(end of one chunk, start of the next) for every boundary."""
    return [(a.end, b.start) for a, b in pairwise(chunks)]


# -- chat logs: lines, never mid-message ---------------------------------------------
def _line_around(text: str, pos: int) -> str:
    return text[text.rfind("\n", 0, pos) + 1 : (text.find("\n", pos) + 1 or len(text) + 1) - 1]


def test_chat_log_paragraph_splits_at_line_ends() -> None:
    log = chat_log(12_000)
    assert "\n\n" not in log  # one paragraph: the segmenter finds (almost) no sentence end
    for unit, size in (("chars", 400), ("words", 60)):
        chunks = chunk(log, "structural", size, 0, unit=unit)
        assert len(chunks) > 10
        assert lost_characters(log, chunks) == []
        line_cuts = 0
        for end, _ in _cuts(log, chunks):
            if log[end] == "\n":
                line_cuts += 1
                continue
            # mid-line only inside a message too long for a chunk, and then at a comma
            line = _line_around(log, end)
            assert (len(line) if unit == "chars" else len(line.split())) > size, line
            assert log[end - 1] == ",", log[end - 40 : end + 40]
        assert line_cuts >= len(chunks) * 3 // 4


def test_a_chat_message_longer_than_a_chunk_is_cut_at_its_commas() -> None:
    long_message = ", ".join(f"step {n} of the rollout went fine" for n in range(30))
    log = "[09:00] alice: starting\n[09:01] bob: " + long_message + "\n[09:02] alice: thanks"
    chunks = chunk(log, "structural", 200, 0)
    assert len(chunks) > 4
    for end, _ in _cuts(log, chunks):
        assert log[end - 1] == ",", log[end - 30 : end + 5]


# -- tokenised wiki text: sentence ends, then clause marks ----------------------------
_WIKI_SENTENCE_END = re.compile(r" \.(?= |\n|$)")


def _wiki_sentences(text: str) -> list[tuple[int, int]]:
    """The fixture's own sentences: every sentence ends with a spaced full stop."""
    out = []
    for para in re.finditer(r"[^\n]*\S[^\n]*", text):
        start = para.start() + len(para.group()) - len(para.group().lstrip())
        for m in _WIKI_SENTENCE_END.finditer(text, para.start(), para.end()):
            out.append((start, m.end()))
            start = m.end() + 1
    return out


def test_tokenised_wiki_splits_at_stops_or_clause_marks() -> None:
    wiki = tokenised_wiki()
    sentences = _wiki_sentences(wiki)
    size = 300
    assert any(e - s > size for s, e in sentences)  # some sentences must be cut
    chunks = chunk(wiki, "structural", size, 0)
    assert lost_characters(wiki, chunks) == []
    clause_cuts = 0
    for end, _ in _cuts(wiki, chunks):
        if wiki[:end].rstrip()[-2:] in (" .", " ="):  # a sentence or a section's title ends
            continue
        # a cut inside a sentence: only one too long for a chunk, and at a clause mark
        inside = [(s, e) for s, e in sentences if s < end < e]
        assert inside and inside[0][1] - inside[0][0] > size, wiki[end - 60 : end + 10]
        assert wiki[end - 1] in ",;:", wiki[end - 60 : end + 10]
        clause_cuts += 1
    assert clause_cuts > 0


# -- the rungs, one by one -----------------------------------------------------------
def test_a_stop_the_segmenter_did_not_take_is_the_rung_below_lines() -> None:
    text = "the build passed ! now ship it to the staging cluster , then to production"
    assert len(sentence_spans(text)) == 1  # the segmenter sees one sentence
    parts = [text[s:e] for s, e in stop_spans(text, 0, len(text))]
    assert parts == [
        "the build passed !",
        "now ship it to the staging cluster , then to production",
    ]
    chunks = chunk(text, "structural", 40, 0)
    assert chunks[0].body == "the build passed !"


def test_clause_marks_inside_a_token_are_not_seams() -> None:
    text = "revenue was 18,412 crores at 12:30, v3.2 shipped; the end — mostly"
    parts = [text[s:e] for s, e in clause_spans(text, 0, len(text))]
    assert parts == ["revenue was 18,412 crores at 12:30,", "v3.2 shipped;", "the end —", "mostly"]


def test_seam_names_what_a_cut_reads_like() -> None:
    text = "one two,\nthree four; five six seven"
    assert seam_at(text, 8, 9) == "line"
    assert seam_at(text, 20, 21) == "clause"
    assert seam_at(text, 25, 26) == "word"
    assert seam_at(text, 23, 23) == "char"
    assert seam_at("said no . He", 9, 10) == "stop"


def test_a_sentence_end_never_falls_inside_a_token() -> None:
    text = "Copy the `./app` directory into the image. Sega and Media.Vision made it."
    assert [text[s:e] for s, e in sentence_spans(text)] == [
        "Copy the `./app` directory into the image.",
        "Sega and Media.Vision made it.",
    ]


# -- the property: every cut falls at the strongest seam that lets the pieces fit -----
_WORD = st.sampled_from(
    "audit store keeps logs for four hundred days revenue grew quarter margins held "
    "naïve café данные 数据 deploy cache worker".split()
)
_CLAUSE = st.lists(_WORD, min_size=1, max_size=9).map(" ".join)


@st.composite
def _sentence(draw) -> str:
    """Clauses joined by ", " or "; ", some of the spaces turned into line breaks."""
    clauses = draw(st.lists(_CLAUSE, min_size=1, max_size=7))
    marks = draw(
        st.lists(st.sampled_from([", ", "; "]), min_size=len(clauses), max_size=len(clauses))
    )
    text = "".join(c + m for c, m in zip(clauses, marks, strict=True))[:-2]
    text = text[0].upper() + text[1:] + "."
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    breaks = draw(st.sets(st.sampled_from(spaces), max_size=3)) if spaces else set()
    return "".join("\n" if i in breaks else ch for i, ch in enumerate(text))


_PARAGRAPH = st.lists(_sentence(), min_size=1, max_size=6).map(" ".join)


def _level(text: str, end: int, start: int) -> int:
    """0 sentence end, 1 line, 2 clause mark, 3 word, 4 character."""
    if text[end - 1] == ".":
        return 0
    gap = text[end:start]
    if "\n" in gap:
        return 1
    if text[end - 1] in ",;":
        return 2
    # (between two ideographs lies a word seam, with no gap)
    return 3 if gap or is_word_seam(text, end) else 4


# where the unit a rung above each cut level ends: a unit ends at its own seams
# and at every stronger one (a line ends at a line break or a sentence's end)
_UNIT_BOUNDS = {
    1: re.compile(r"(?<=\.)\s"),
    2: re.compile(r"(?<=\.)\s|\n"),
    3: re.compile(r"(?<=[.,;])\s|\n"),
    4: re.compile(r"\s"),
}


def _unit_around(text: str, pos: int, level: int) -> tuple[int, int]:
    """The span of the unit one rung above ``level`` that holds the cut at ``pos``."""
    bounds = _UNIT_BOUNDS[level]
    starts = [0] + [m.end() for m in bounds.finditer(text, 0, pos)]
    m = bounds.search(text, pos)
    return starts[-1], m.start() if m else len(text)


def _size_of(text: str, unit: str) -> int:
    return count_units(text, unit)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_PARAGRAPH, st.sampled_from(["chars", "words"]), st.integers(4, 160))
def test_every_cut_is_at_the_best_seam_available(text: str, unit: str, size: int) -> None:
    size = size if unit == "chars" else max(1, size // 8)
    chunks = chunk(text, "structural", size, 0, unit=unit)
    assert lost_characters(text, chunks) == []
    for end, start in _cuts(text, chunks):
        level = _level(text, end, start)
        if level == 0:
            continue
        # a cut below the sentence only where the unit a rung above is too big for a chunk
        us, ue = _unit_around(text, end, level)
        assert _size_of(text[us:ue], unit) > size, (level, text[us:ue])


def test_the_packer_tries_every_rung_before_characters() -> None:
    text = "a" * 50 + " tail, end"
    packer = SeamPacker(text, "chars")
    pieces = packer.pack(0, len(text), 20, 20, packer.below_sentence)
    assert [text[s:e] for s, e in pieces] == ["a" * 20, "a" * 20, "a" * 10 + " tail, end"]


def test_a_list_item_too_big_for_a_chunk_is_cut_at_its_clause_marks() -> None:
    item = ", ".join(f"check replica {n} of the primary database" for n in range(12))
    text = "- first item\n- " + item + "\n- last item"
    chunks = chunk(text, "structural", 200, 0)
    assert len(chunks) > 2
    for end, _ in _cuts(text, chunks):
        assert text[end] == "\n" or text[end - 1] == ",", text[end - 30 : end + 5]


# -- a sweep keeps what no size changes: never what a unit changes --------------------
SWEPT = [  # small sizes, so most text is cut down the ladder; units and tokenizers mixed
    ChunkOptions(size=size, overlap=2, unit=unit, tokenizer=tokenizer)
    for size in (9, 14, 23)
    for unit, tokenizer in (
        ("tokens", "cl100k_base"),
        ("words", "cl100k_base"),
        ("tokens", "o200k_base"),
        ("chars", "cl100k_base"),
    )
]


@pytest.mark.parametrize("strategy", ["structural", "sentence"])
def test_a_sweep_across_units_chunks_each_size_as_chunking_it_alone_does(strategy: str) -> None:
    # one parse (one text's counts) serves every size, unit and tokenizer of the sweep
    text = (SAMPLES / "inspection_manual.md").read_text(encoding="utf-8")
    for opts, chunks in zip(SWEPT, chunk_sweep(text, strategy, SWEPT), strict=True):
        assert chunks == chunk_with(text, strategy, opts), (opts.unit, opts.tokenizer, opts.size)
