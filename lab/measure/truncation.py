"""What an embedder that truncates at N units never reads: for each chunk whose
indexed text (heading path + overlap + body) passes N, the part cut off."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chunkers import Chunk, ChunkOptions, indexed_text
from chunkers.text import count_units, word_spans
from chunkers.tokens import tokenizer_for


@dataclass(frozen=True, slots=True)
class Truncated:
    """One chunk an embedder truncating at the limit reads only in part."""

    index: int  # the chunk's index
    length: int  # its indexed text, in the unit
    kept: str  # what the embedder reads
    cut: str  # what it never reads: the end of the body, where an answer may sit


def cut_at(text: str, limit: int, unit: str, tokenizer: str) -> int:
    """The character offset where the first ``limit`` units of ``text`` end."""
    if unit == "chars":
        return min(limit, len(text))
    if unit == "words":
        spans = word_spans(text)
        return spans[limit - 1][1] if len(spans) > limit else len(text)
    starts = tokenizer_for(tokenizer).offsets(text).starts
    return int(starts[limit]) if len(starts) > limit else len(text)


def truncation(chunks: Sequence[Chunk], opts: ChunkOptions, limit: int) -> list[Truncated]:
    """The chunks an embedder reading at most ``limit`` units (in the options' unit)
    would truncate, each with what it keeps and what it cuts off.

    Raises:
        ValueError: ``limit`` below 1.
    """
    if limit < 1:
        raise ValueError(f"limit must be an integer >= 1, got {limit}")
    out = []
    for c in chunks:
        text = indexed_text(c)
        n = count_units(text, opts.unit, opts.tokenizer)
        if n > limit:
            at = cut_at(text, limit, opts.unit, opts.tokenizer)
            out.append(Truncated(c.index, n, text[:at], text[at:]))
    return out
