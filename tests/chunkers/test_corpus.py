"""Real markdown from ../shared/corpus: indented fences, admonitions, includes."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkers import STRATEGIES, ChunkOptions, chunk
from tests.chunkers.invariants import (
    heading_context_breaks,
    over_max_breaks,
    page_breaks,
    runt_breaks,
    trust_breaks,
)
from tests.support import CORPUS, SHARED_CORPUS, assert_spans_true, corpus_files, lost_characters

pytestmark = pytest.mark.corpus
FILES = corpus_files()


def test_corpus_is_there() -> None:
    assert FILES, f"no markdown files under {CORPUS}"


@pytest.mark.shared_corpus
def test_the_shared_corpus_is_whole() -> None:
    assert len(sorted(SHARED_CORPUS.rglob("*.md"))) == 332


@pytest.mark.parametrize("name", list(STRATEGIES))
@pytest.mark.parametrize("unit,size,overlap", [("chars", 1800, 150), ("words", 200, 20)])
def test_no_text_lost_on_the_corpus(name: str, unit: str, size: int, overlap: int) -> None:
    failures: list[str] = []
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        chunks = chunk(text, name, size, overlap, unit=unit)
        lost = lost_characters(text, chunks)
        if lost:
            failures.append(f"{path.relative_to(CORPUS)}: {len(lost)} characters lost")
        assert_spans_true(text, chunks)
    assert failures == []


@pytest.mark.parametrize("unit,size,overlap", [("chars", 1800, 150), ("words", 200, 20)])
def test_structural_invariants_hold_on_the_corpus(unit: str, size: int, overlap: int) -> None:
    """Nothing over the effective maximum but an unsplittable unit, no runt without
    an excuse, every heading above a chunk named, trust and pages as the text says."""
    opts = ChunkOptions(size=size, overlap=overlap, unit=unit)
    failures: list[str] = []
    for path in FILES:
        # "\n" line breaks: chunk offsets are then the parse's offsets
        text = path.read_text(encoding="utf-8").replace("\r\n", "\n").replace("\r", "\n")
        chunks = chunk(text, "structural", size, overlap, unit=unit)
        breaks = (
            over_max_breaks(chunks, opts)
            + runt_breaks(chunks, opts)
            + heading_context_breaks(text, chunks)
            + trust_breaks(text, chunks)
            + page_breaks(text, chunks)
        )
        failures += [f"{_relative(path)}: {b}" for b in breaks]
    assert failures == []


def _relative(path: Path) -> str:
    return str(path.relative_to(CORPUS))
