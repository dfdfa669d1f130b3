"""Real markdown from ../shared/corpus: indented fences, admonitions, includes."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkers import STRATEGIES, ChunkOptions, chunk
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


def test_structural_invariants_hold_on_the_corpus() -> None:
    opts = ChunkOptions()
    over, runts = [], []
    for path in FILES:
        chunks = chunk(path.read_text(encoding="utf-8"))
        for c in chunks:
            if c.length > opts.effective_max and "\n" in c.body.strip() and c.kind != "code":
                over.append((path.name, c.index, c.length, c.kind))
            if c.length < opts.floor and len(chunks) > 1 and not c.runt_excuse:
                runts.append((path.name, c.index, c.length))
    assert runts == []
    assert over == []


def _relative(path: Path) -> str:
    return str(path.relative_to(CORPUS))
