"""The embedder's hard limit: the size whose chunks all fit it.

The runt rule lets a chunk reach size + floor - 1, and the index reads the heading
path and the overlap prefix on top of the body, so "size 512" does not mean "at
most 512 for the embedder". With ``ChunkOptions.limit`` set, the size is lowered
from ``size`` (or the limit, if smaller) until every chunk's ``indexed_text`` is
within the limit; when even the smallest size leaves a chunk over it (a heading
path longer than the limit, or one piece with no seam), LimitUnreachable says
which, in one line: nothing is passed over the limit silently.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from .model import HEADING_SEPARATOR, Chunk, indexed_text
from .options import ChunkOptions
from .text import count_units


class LimitUnreachable(ValueError):
    """No size keeps every chunk of the text within the limit; the message is one line."""


@dataclass(frozen=True, slots=True)
class Fitted:
    """The chunks made within the limit, and the size chosen for them."""

    chunks: list[Chunk]
    size: int


def indexed_lengths(chunks: Sequence[Chunk], opts: ChunkOptions) -> list[int]:
    """Each chunk's indexed text (heading path + overlap + body) in the options' unit:
    what an embedder reads, and what the limit holds."""
    return [count_units(indexed_text(c), opts.unit, opts.tokenizer) for c in chunks]


def over_limit(chunks: Sequence[Chunk], opts: ChunkOptions, limit: int) -> list[int]:
    """The indices (in ``chunks``) of the chunks whose indexed text passes ``limit``."""
    return [i for i, n in enumerate(indexed_lengths(chunks, opts)) if n > limit]


def fit(opts: ChunkOptions, run: Callable[[ChunkOptions], list[Chunk]]) -> Fitted:
    """The chunks ``run`` makes at the largest size (stepping down from ``opts.size``)
    whose every indexed text fits ``opts.limit``."""
    limit = opts.limit
    if limit is None:
        return Fitted(run(opts), opts.size)
    smallest = opts.overlap + 1  # size must stay above the overlap
    size = max(smallest, min(opts.size, limit))
    while True:
        chunks = run(replace(opts, size=size, limit=None))
        lengths = indexed_lengths(chunks, opts)
        worst = max(lengths, default=0)
        if worst <= limit:
            return Fitted(chunks, size)
        if size == smallest:
            raise LimitUnreachable(_why(chunks[lengths.index(worst)], worst, opts, size))
        # -- step down by what the worst chunk is over: a chunk shrinks about as fast
        # -- as the size does, so this rarely passes the largest size that fits
        size = max(smallest, size - max(1, worst - limit))


def _why(chunk: Chunk, length: int, opts: ChunkOptions, size: int) -> str:
    unit = opts.unit_name
    path = HEADING_SEPARATOR.join(chunk.heading_path)
    head = (
        f"limit {opts.limit} {unit} cannot be met: the chunk at characters "
        f"{chunk.start}-{chunk.end} is {length} {unit} even at size {size}"
    )
    if path and count_units(path, opts.unit, opts.tokenizer) >= opts.limit:  # type: ignore[operator]
        return f"{head}, and its heading path alone ({path[:60]!r}) fills the limit"
    return f"{head}: one piece with no seam (a long word, line or table row) is longer"
