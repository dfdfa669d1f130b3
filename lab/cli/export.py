"""`chunk DOC|DIR --format ...`: every document's chunks in a file a pipeline loads,
and the size chosen for ``--limit``; the file is written whole or not at all."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from chunkers import Chunk, ChunkOptions, chunk_fitted
from chunkers.limit import indexed_lengths
from lab.inputs.exports import EXPORT_FORMATS, chunking_config, export_chunks

from .args import BadInput
from .routing import strategies_of


def export_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("export")
    g.add_argument(
        "--format",
        choices=EXPORT_FORMATS,
        default=None,
        help="write every document's chunks, one a line: the lab's JSONL or CSV (the "
        "configuration on every row), or LangChain Documents / LlamaIndex TextNodes whose "
        "text is what the index reads (heading path + overlap + body)",
    )
    g.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="with --format: write there (default: standard output)",
    )


def fitted(
    docs: dict[str, str],
    strategy: str,
    opts: ChunkOptions,
    strategies: Mapping[str, str] | None = None,
) -> dict[str, tuple[list[Chunk], ChunkOptions]]:
    """Each document's chunks and the options they were made at (the size chosen
    for the limit, per document). ``strategies`` names a document's own strategy
    (routing by a folder's mapping file: lab.cli.routing.strategies_of)."""
    out = {}
    for name, text in docs.items():
        f = chunk_fitted(text, (strategies or {}).get(name, strategy), opts)
        out[name] = (f.chunks, replace(opts, size=f.size))
    return out


def limit_line(opts: ChunkOptions, sizes: list[int]) -> str:
    """What the chunker chose for --limit: 'size chosen: 380 for limit 512 cl100k_base
    tokens' (a range over a folder)."""
    low, high = min(sizes, default=opts.size), max(sizes, default=opts.size)
    chosen = str(low) if low == high else f"{low} to {high} (by document)"
    return f"size chosen: {chosen} for limit {opts.limit} {opts.unit_name}"


INDEXED = "heading path + overlap + body"  # what the lab's own chunks embed


def over_limit_line(
    chunks: list[Chunk],
    opts: ChunkOptions,
    limit: int,
    lengths: list[int] | None = None,
    what: str = INDEXED,
) -> str:
    """How many chunks' embedded text an embedder truncating at ``limit`` would cut:
    the indexed text of the lab's chunks, or ``lengths`` (``what`` says of which text:
    an imported chunk's is the pipeline's own)."""
    if lengths is None:
        lengths = indexed_lengths(chunks, opts)
    over = [n for n in lengths if n > limit]
    worst = f" (largest {max(over)})" if over else ""
    return (
        f"over the embedder's limit ({limit} {opts.unit_name}, {what}): "
        f"{len(over)} of {len(lengths)}{worst}"
    )


def write_export(args: argparse.Namespace, docs: dict[str, str], opts: ChunkOptions) -> int:
    made = fitted(docs, args.strategy, opts, strategies_of(args, docs))
    parts = [
        (name, chunks, chunking_config(name, docs[name], args.strategy, o))
        for name, (chunks, o) in made.items()
    ]
    out = export_chunks(args.format, parts, opts)
    if args.output is None:
        sys.stdout.write(out)
    else:
        write_whole(Path(args.output), out)
    count = sum(len(c) for c, _ in made.values())
    notes = [f"{count} chunks of {len(docs)} document(s) as {args.format}"]
    if opts.limit is not None:
        notes.append(limit_line(opts, [o.size for _, o in made.values()]))
    print("; ".join(notes), file=sys.stderr)
    return 0


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed over it, so a
    failure leaves no half file; a path that cannot be written is BadInput."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # -- as a plain open() would make it, not 0600
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise BadInput(f"cannot write {path}: {exc.strerror or exc}") from None
