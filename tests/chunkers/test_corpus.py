"""Real markdown from ../shared/corpus, ../shared/corpus-more and ../shared/corpus-cjk
(and the folders CHUNK_LAB_CORPUS names): indented fences, admonitions, content tabs,
includes, code listings, a long changelog, Chinese and Japanese prose."""

from __future__ import annotations

import pytest

from chunkers import STRATEGIES, ChunkOptions, chunk
from tests.chunkers.invariants import (
    ending_breaks,
    heading_context_breaks,
    over_max_breaks,
    overlap_breaks,
    page_breaks,
    runt_breaks,
    trust_breaks,
)
from tests.support import (
    CORPORA,
    SHARED_CORPORA,
    assert_spans_true,
    corpus_files,
    corpus_name,
    lost_characters,
)

pytestmark = pytest.mark.corpus
FILES = corpus_files()


def test_corpus_is_there() -> None:
    assert FILES, f"no markdown files under {', '.join(map(str, CORPORA))}"


@pytest.mark.shared_corpus
def test_the_shared_corpus_is_whole() -> None:
    assert [len(sorted(f.rglob("*.md"))) for f in SHARED_CORPORA] == [332, 120, 74]


@pytest.mark.parametrize("name", list(STRATEGIES))
@pytest.mark.parametrize("unit,size,overlap", [("chars", 1800, 150), ("words", 200, 20)])
def test_no_text_lost_on_the_corpus(name: str, unit: str, size: int, overlap: int) -> None:
    failures: list[str] = []
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        chunks = chunk(text, name, size, overlap, unit=unit)
        lost = lost_characters(text, chunks)
        if lost:
            failures.append(f"{corpus_name(path)}: {len(lost)} characters lost")
        assert_spans_true(text, chunks)
    assert failures == []


@pytest.mark.parametrize(
    "unit,size,overlap",
    [("chars", 1800, 150), ("chars", 400, 40), ("chars", 200, 20), ("words", 200, 20)],
)
def test_structural_invariants_hold_on_the_corpus(unit: str, size: int, overlap: int) -> None:
    """No chunk passes the effective maximum unless it is one unit with no inner
    seam; no chunk ends with a heading, a tab or admonition title, anchors or a
    lead-in; no overlap holds code, HTML or table text; no runt without an
    excuse; every heading above a chunk named; trust and pages as the text says."""
    opts = ChunkOptions(size=size, overlap=overlap, unit=unit)
    failures: list[str] = []
    for path in FILES:
        # "\n" line breaks: chunk offsets are then the parse's offsets
        text = path.read_text(encoding="utf-8").replace("\r\n", "\n").replace("\r", "\n")
        chunks = chunk(text, "structural", size, overlap, unit=unit)
        breaks = (
            over_max_breaks(chunks, opts)
            + ending_breaks(text, chunks, opts)
            + overlap_breaks(text, chunks)
            + runt_breaks(chunks, opts)
            + heading_context_breaks(text, chunks)
            + trust_breaks(text, chunks)
            + page_breaks(text, chunks)
        )
        failures += [f"{corpus_name(path)}: {b}" for b in breaks]
    assert failures == []
