"""What an embedder truncating at N would cut off (lab.measure.truncation)."""

from __future__ import annotations

import pytest

from chunkers import ChunkOptions, chunk_with, indexed_text
from chunkers.text import count_units
from lab.measure.truncation import truncation
from tests.support import SAMPLES

TEXT = (SAMPLES / "support_kb.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("unit", "size", "limit"), [("tokens", 512, 100), ("words", 200, 60), ("chars", 1800, 300)]
)
def test_the_cut_is_the_tail_past_the_limit(unit: str, size: int, limit: int) -> None:
    opts = ChunkOptions(size=size, overlap=0, unit=unit)
    chunks = chunk_with(TEXT, "structural", opts)
    cut = truncation(chunks, opts, limit)
    over = [c for c in chunks if count_units(indexed_text(c), unit, opts.tokenizer) > limit]
    assert [t.index for t in cut] == [c.index for c in over] and cut
    for t in cut:
        whole = indexed_text(chunks[t.index])
        assert t.kept + t.cut == whole and t.cut.strip()
        assert count_units(t.kept, unit, opts.tokenizer) <= limit
        assert t.length == count_units(whole, unit, opts.tokenizer)


def test_a_limit_no_chunk_passes_cuts_nothing() -> None:
    opts = ChunkOptions(size=100, overlap=0, unit="words", limit=100)
    assert truncation(chunk_with(TEXT, "structural", opts), opts, 100) == []


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="limit must be an integer >= 1, got 0"):
        truncation([], ChunkOptions(), 0)
