"""chunk_sweep_near: the chunks near a window are the whole chunking's, numbered as
there, wherever the window lies (the chunks before it counted, none of them made)."""

from __future__ import annotations

import pytest

from chunkers import ChunkOptions, chunk_sweep, chunk_sweep_near, parse
from tests.support import corpus_files, release_notes


def _assert_near_is_whole(text: str, strategy: str, options: list[ChunkOptions], step: int) -> int:
    """Windows of 400 characters every ``step`` characters: at each size, the chunks
    kept are the whole chunking's, from its first chunk reaching the window to its
    last; returns how many windows had chunks before them."""
    wholes = list(chunk_sweep(text, strategy, options))
    parsed = parse(text) if strategy == "structural" else None
    counted = 0
    for lo in range(0, len(text), step):
        hi = min(len(text), lo + 400)
        near = chunk_sweep_near(text, strategy, options, (lo, hi), parsed)
        for opts, whole, (first, chunks) in zip(options, wholes, near, strict=True):
            heads = [min(c.start, c.overlap_start if c.overlap_prefix else c.start) for c in whole]
            reaching = [c.index for c, h in zip(whole, heads, strict=True) if c.end > lo and h < hi]
            where = (strategy, opts.size, opts.unit, lo)
            assert chunks == whole[first : first + len(chunks)], where
            assert reaching and reaching[0] == first, where
            assert reaching[-1] < first + len(chunks), where
            counted += first > 0
    return counted


@pytest.mark.parametrize("strategy", ["structural", "sentence"])
@pytest.mark.parametrize(
    ("unit", "sizes"), [("words", (9, 23, 41)), ("chars", (90, 250)), ("tokens", (10, 37))]
)
def test_chunks_near_any_window_are_the_whole_chunkings(strategy: str, unit: str, sizes) -> None:
    text = release_notes(60)
    options = [ChunkOptions(size=s, overlap=s // 8, unit=unit) for s in sizes]
    assert _assert_near_is_whole(text, strategy, options, 397) > 50


def test_line_ends_given_as_crlf_keep_the_windows_offsets() -> None:
    text = release_notes(30).replace("\n", "\r\n")
    for strategy in ("structural", "sentence"):
        options = [ChunkOptions(size=s, overlap=2, unit="words") for s in (11, 30)]
        assert _assert_near_is_whole(text, strategy, options, 613) > 10


def test_a_size_chosen_by_a_limit_and_other_strategies_chunk_the_whole_text() -> None:
    text = release_notes(20)
    options = [ChunkOptions(size=60, overlap=0, unit="words", limit=40)]
    assert _assert_near_is_whole(text, "structural", options, 1009) > 3
    for strategy in ("fixed", "recursive"):
        options = [ChunkOptions(size=40, overlap=5, unit="words")]
        assert _assert_near_is_whole(text, strategy, options, 1009) > 3


@pytest.mark.corpus
@pytest.mark.parametrize("strategy", ["structural", "sentence"])
def test_chunks_near_windows_across_the_corpus_are_the_whole_chunkings(strategy: str) -> None:
    files = [f for f in corpus_files() if f.stat().st_size > 30_000][::7]
    options = [ChunkOptions(size=s, overlap=3, unit=u) for s, u in ((12, "words"), (20, "tokens"))]
    for f in files:
        text = f.read_text(encoding="utf-8")
        _assert_near_is_whole(text, strategy, options, len(text) // 6 + 1)
