"""The embedder's hard limit (ChunkOptions.limit): no chunk's indexed text passes it."""

from __future__ import annotations

import pytest

from chunkers import STRATEGIES, ChunkOptions, LimitUnreachable, chunk_fitted, chunk_with
from chunkers.limit import indexed_lengths
from tests.support import assert_spans_true, lost_characters

# -- deep headings, so the heading path costs a good share of the limit
DOC = (
    "# Operations handbook\n\n## Storage and retention policies\n\n"
    "### Audit logs kept for the compliance team\n\n"
    + "\n\n".join(
        f"Paragraph {i} says the audit log keeps entry {i} for ninety days before "
        "it is archived to cold storage and removed from the primary cluster."
        for i in range(30)
    )
    + "\n\n| region | days |\n| --- | --- |\n"
    + "".join(f"| region-{i} | {i * 3} |\n" for i in range(40))
)


@pytest.mark.parametrize("strategy", list(STRATEGIES))
@pytest.mark.parametrize(("unit", "limit", "overlap"), [("words", 60, 8), ("chars", 400, 0)])
def test_no_indexed_text_passes_the_limit(strategy: str, unit: str, limit: int, overlap: int):
    opts = ChunkOptions(size=200 if unit == "words" else 1800, overlap=overlap, unit=unit)
    limited = ChunkOptions(size=opts.size, overlap=overlap, unit=unit, limit=limit)
    before = max(indexed_lengths(chunk_with(DOC, strategy, opts), opts))
    fitted = chunk_fitted(DOC, strategy, limited)
    assert before > limit  # the document needs the limit at all
    assert max(indexed_lengths(fitted.chunks, limited)) <= limit
    assert overlap < fitted.size <= limit
    assert_spans_true(DOC, fitted.chunks)
    assert lost_characters(DOC, fitted.chunks) == []
    assert chunk_with(DOC, strategy, limited) == fitted.chunks


def test_structural_size_is_lowered_below_the_limit_for_runts_and_paths() -> None:
    # -- size = limit would let a merged runt and the heading path pass it
    opts = ChunkOptions(size=60, overlap=0, unit="words", limit=60)
    fitted = chunk_fitted(DOC, "structural", opts)
    assert fitted.size < 60
    assert max(indexed_lengths(fitted.chunks, opts)) <= 60
    plain = chunk_with(DOC, "structural", ChunkOptions(size=60, overlap=0, unit="words"))
    assert max(indexed_lengths(plain, opts)) > 60


def test_a_limit_that_fits_keeps_the_size() -> None:
    opts = ChunkOptions(size=100, overlap=0, unit="words", limit=100_000)
    fitted = chunk_fitted(DOC, "structural", opts)
    assert fitted.size == 100
    assert fitted.chunks == chunk_with(
        DOC, "structural", ChunkOptions(size=100, overlap=0, unit="words")
    )


def test_in_tokens() -> None:
    opts = ChunkOptions(size=512, overlap=0, unit="tokens", limit=120)
    fitted = chunk_fitted(DOC, "structural", opts)
    assert max(indexed_lengths(fitted.chunks, opts)) <= 120


def test_a_heading_path_longer_than_the_limit_is_one_line() -> None:
    with pytest.raises(LimitUnreachable) as err:
        chunk_with(DOC, "structural", ChunkOptions(size=100, overlap=0, unit="words", limit=8))
    message = str(err.value)
    assert "\n" not in message
    assert "limit 8 words cannot be met" in message
    assert "heading path alone" in message


def test_a_table_row_longer_than_the_limit_is_one_line() -> None:
    # -- a table row is never cut (docs/chunker.md): it has no seam to cut at
    row = "| " + " ".join(["word"] * 80) + " | x |\n"
    text = "Intro words here.\n\n| a | b |\n| --- | --- |\n" + row + "\nMore words after it."
    with pytest.raises(LimitUnreachable, match="one piece with no seam"):
        chunk_with(text, "structural", ChunkOptions(size=200, overlap=0, unit="chars", limit=100))


@pytest.mark.parametrize(
    ("limit", "overlap", "message"),
    [
        (0, 0, "limit must be an integer >= 1, got 0"),
        (True, 0, "limit must be an integer >= 1, got True"),
        (10, 10, "limit (10) must be larger than overlap (10)"),
    ],
)
def test_bad_limits_are_refused(limit: object, overlap: int, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ChunkOptions(size=20, overlap=overlap, limit=limit)  # type: ignore[arg-type]
