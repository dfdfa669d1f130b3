"""What the user typed, read and checked: chunk options, documents, size ranges; and
how a command's ``--json`` answer is written.

Anything wrong becomes a BadInput, one line that names the problem and the fix;
the entry point prints it and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from chunkers import ChunkOptions
from chunkers.tokens import DEFAULT_TOKENIZER
from lab.inputs.documents import Document, DocumentError, read_document, read_folder
from lab.retrieval.bm25 import DEFAULT_B, DEFAULT_K1, DEFAULT_VARIANT
from lab.retrieval.embedders import DEFAULT_EMBEDDER
from lab.retrieval.interface import Retriever
from lab.retrieval.retrievers import BM25, get_retriever, parse_retrievers

EXIT_BAD_INPUT = 2
EXIT_CHECK_FAILED = 1


def emit_json(data: Any) -> None:
    """A command's ``--json`` answer on stdout: indented, non-ASCII kept as it is."""
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


class BadInput(Exception):
    """A one-line problem with what the user gave us."""


def chunk_options(args: argparse.Namespace, size: int | None = None) -> ChunkOptions:
    if args.tokenizer is not None and args.unit != "tokens":
        raise BadInput(
            f"--tokenizer {args.tokenizer} counts tokens, but the unit is {args.unit}; "
            "add --unit tokens, or leave --tokenizer out"
        )
    if args.limit is not None and args.limit < 1:  # -- before the size it would start at
        raise BadInput(f"--limit must be an integer >= 1, got {args.limit}")
    try:
        if size is None:  # -- --limit alone: the size starts at the limit, with no overlap
            size = args.size if args.size is not None or args.limit is None else args.limit
        return ChunkOptions.sized(
            size,
            args.overlap,
            unit=args.unit,
            runt_merge=args.runt_merge,
            heading_paths=not args.no_heading_paths,
            tokenizer=args.tokenizer or DEFAULT_TOKENIZER,
            limit=args.limit,
        )
    except ValueError as exc:
        raise BadInput(f"--{exc}" if str(exc).startswith("limit") else str(exc)) from None


def sweep_extras(args: argparse.Namespace) -> dict:
    """The options a sweep passes on besides size, overlap and unit."""
    return {
        "runt_merge": args.runt_merge,
        "heading_paths": not args.no_heading_paths,
        "tokenizer": args.tokenizer or DEFAULT_TOKENIZER,
    }


def read_text(path: str) -> str:
    try:
        doc = read_document(Path(path))
    except DocumentError as exc:
        raise BadInput(str(exc)) from None
    _say_notes([doc])
    return doc.text


def _say_notes(docs: list[Document]) -> None:
    """What conversion says about a document (a page read another way, glyphs
    with no meaning as text): on stderr, a line each, so stdout stays data."""
    for doc in docs:
        for note in doc.notes:
            print(f"note: {note}", file=sys.stderr)


def read_documents(path: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """One file, or every document (.md, .txt, .pdf, .html, .docx) under a folder
    (named by relative path), with what could not be read: nothing is skipped silently."""
    p = Path(path)
    if p.is_dir():
        try:
            docs, problems = read_folder(p)
        except DocumentError as exc:
            raise BadInput(str(exc)) from None
        if not docs:
            raise BadInput(problems[0][1] if problems else f"{path} holds no documents")
        _say_notes(docs)
        return {d.name: d.text for d in docs}, problems
    return {p.name: read_text(path)}, []


def sweep_sizes(spec: str | None, unit: str) -> list[int]:
    if spec is None:
        spec = {"words": "10:120", "tokens": "16:800:8"}.get(unit, "200:3000:50")
    parts = spec.split(":")
    try:
        nums = [int(x) for x in parts]
    except ValueError:
        raise BadInput(
            f"--sizes must look like FROM:TO or FROM:TO:STEP with whole numbers, got {spec!r}"
        ) from None
    if len(nums) not in (2, 3):
        raise BadInput(f"--sizes must look like FROM:TO or FROM:TO:STEP, got {spec!r}")
    start, stop, step = nums[0], nums[1], nums[2] if len(nums) == 3 else 1
    if start < 1 or stop < start or step < 1:
        raise BadInput(f"--sizes needs 1 <= FROM <= TO and STEP >= 1, got {spec!r}")
    if (stop - start) // step > 100_000:
        raise BadInput(f"--sizes {spec!r} asks for too many sizes; use a larger STEP")
    return list(range(start, stop + 1, step))


def retrievers(
    args: argparse.Namespace, *, k1: float = DEFAULT_K1, b: float = DEFAULT_B
) -> list[Retriever]:
    """The judges --retriever names, with --bm25, --embedder, and BM25's ``k1`` and
    ``b`` (the score command's --k1 and --b); BadInput for an unknown name, a bad
    setting, an embedder that cannot be loaded, or a setting no named judge uses."""
    try:
        names = parse_retrievers(args.retriever)
    except ValueError as exc:
        raise BadInput(f"--retriever: {exc}") from None
    if args.embedder is not None and names == [BM25]:
        raise BadInput(
            "--embedder is for the dense and hybrid retrievers: add --retriever bm25,dense"
        )
    if args.bm25 is not None and BM25 not in names and "hybrid" not in names:
        raise BadInput("--bm25 is for the bm25 and hybrid retrievers: add --retriever bm25")
    try:
        return [
            get_retriever(
                name,
                variant=args.bm25 or DEFAULT_VARIANT,
                embedder=args.embedder or DEFAULT_EMBEDDER,
                k1=k1,
                b=b,
            )
            for name in names
        ]
    except ValueError as exc:  # EmbedderError is one: a name that cannot be imported
        raise BadInput(str(exc)) from None
