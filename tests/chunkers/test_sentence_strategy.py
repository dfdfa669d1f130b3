"""The sentence strategy respects its size: a sentence too long is cut, and its chunks say so.

The bound: every chunk's length is at most ``size``, in either unit, with no
exception. In words one word is one unit, so it always fits; in characters a
run with no whitespace longer than ``size`` is cut between characters.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkers import chunk
from chunkers.seams import SEAMS
from chunkers.segment import sentence_spans
from chunkers.sentence import paragraph_spans
from tests.chunkers.realistic_texts import chat_log, tokenised_wiki
from tests.chunkers.test_properties import documents
from tests.support import assert_spans_true, corpus_files, lost_characters


def _segmenter_sentences(text: str) -> list[tuple[int, int]]:
    return [sp for ps, pe in paragraph_spans(text) for sp in sentence_spans(text, ps, pe)]


def _check(text: str, size: int, unit: str) -> None:
    """Nothing lost, no chunk past size, and a chunk is marked exactly when one of its
    boundaries falls inside a sentence the segmenter returned."""
    chunks = chunk(text, "sentence", size, 0, unit=unit)
    assert lost_characters(text, chunks) == []
    assert_spans_true(text, chunks)
    assert all(c.length <= size for c in chunks), max(c.length for c in chunks)
    if "\r" in text:  # offsets index the text as given: the marks are checked on LF text
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        chunks = chunk(text, "sentence", size, 0, unit=unit)
    sentences = _segmenter_sentences(text)
    inside = {p for s, e in sentences for p in (s, e)}  # sentence starts and ends
    for c in chunks:
        cuts = c.start not in inside or c.end not in inside
        assert bool(c.sentence_cut) == cuts, (c.index, c.sentence_cut, c.body[:60])
        assert c.sentence_cut in SEAMS[1:] or not c.sentence_cut


def test_a_chat_transcript_keeps_its_size() -> None:
    log = chat_log(40_000)  # the segmenter sees a few giant "sentences" in it
    assert max(e - s for s, e in _segmenter_sentences(log)) > 2_000
    for unit, size in (("chars", 400), ("words", 60)):
        _check(log, size, unit)
        chunks = chunk(log, "sentence", size, 0, unit=unit)
        # cut between messages, not mid-message: lines are the rung below sentences
        lines = sum(c.sentence_cut == "line" for c in chunks)
        assert lines > len(chunks) // 2


def test_tokenised_wiki_keeps_its_size() -> None:
    _check(tokenised_wiki(), 200, "chars")
    _check(tokenised_wiki(), 30, "words")


@pytest.mark.parametrize(
    "text,size,seam",
    [
        ("first line of it\nsecond line of it\nthird line of it", 20, "line"),
        ("it said no ! then it left the room ! and went home", 24, "stop"),
        ("one clause, two clause, three clause, four clause", 20, "clause"),
        ("plain words with no marks at all in this long run", 20, "word"),
        ("x" * 50, 20, "char"),
    ],
)
def test_the_mark_names_the_seam_the_cut_fell_on(text: str, size: int, seam: str) -> None:
    chunks = chunk(text, "sentence", size, 0)
    assert len(chunks) > 1
    assert {c.sentence_cut for c in chunks} == {seam}
    assert chunks[0].to_dict()["sentence_cut"] == seam


def test_a_chunk_cut_at_both_ends_names_the_weaker_seam() -> None:
    text = "first line here\nsecond line has many words in it"
    chunks = chunk(text, "sentence", 16, 0)
    assert [c.body for c in chunks] == ["first line here", "second line has", "many words in it"]
    assert [c.sentence_cut for c in chunks] == ["line", "word", "word"]


def test_whole_sentences_stay_unmarked() -> None:
    text = "One two three. Four five six. Seven eight nine."
    assert [c.sentence_cut for c in chunk(text, "sentence", 6, unit="words")] == ["", ""]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.sampled_from(["chars", "words"]), st.integers(1, 400))
def test_no_sentence_chunk_passes_its_size(text: str, unit: str, size: int) -> None:
    _check(text, size if unit == "chars" else max(1, size // 6), unit)


@pytest.mark.corpus
@pytest.mark.parametrize("unit,size", [("chars", 400), ("words", 60)])
def test_no_sentence_chunk_passes_its_size_on_the_corpus(unit: str, size: int) -> None:
    files = corpus_files()
    assert files
    for path in files:
        _check(path.read_text(encoding="utf-8"), size, unit)


def test_a_sweep_over_sizes_segments_the_document_once():
    from chunkers import ChunkOptions, chunk_with
    from chunkers.sentence import document_sentences
    from tests.support import SAMPLES

    text = (SAMPLES / "support_kb.md").read_text()
    document_sentences.cache_clear()
    sweep = [ChunkOptions(size=s, overlap=0, unit="words") for s in (20, 40)]
    curves = [chunk_with(text, "sentence", o) for o in sweep]
    info = document_sentences.cache_info()
    assert (info.misses, info.hits) == (1, 1)
    assert len(curves[0]) > len(curves[1])  # the sizes still chunk differently
