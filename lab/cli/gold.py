"""`lab gold`: a gold set made from the documents, written as JSON Lines."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from lab.measure.questions import HOW, KINDS, NothingToAsk, make_gold

from .args import BadInput, emit_json, read_documents

DEFAULT_N = 30


def gold_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, metavar="FILE", help="where to write the gold set")
    p.add_argument(
        "--n", type=int, default=DEFAULT_N, help=f"how many questions (default {DEFAULT_N})"
    )
    p.add_argument(
        "--seed", type=int, default=0, help="which questions: the same seed, the same set"
    )


def _write(path: Path, text: str) -> None:
    """All or nothing: a temporary file beside it, renamed into place."""
    if path.is_dir():
        raise BadInput(f"--out {path} is a folder; give a file name")
    if not path.parent.is_dir():
        raise BadInput(f"--out {path}: the folder {path.parent} does not exist")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise BadInput(f"--out {path} could not be written ({exc.strerror})") from None


def cmd_gold(args: argparse.Namespace) -> int:
    if args.n < 1:
        raise BadInput(f"--n must be a whole number of at least 1, got {args.n}")
    docs, problems = read_documents(args.path)
    try:
        made = make_gold(docs, args.n, args.seed)
    except NothingToAsk as exc:
        raise BadInput(f"{args.path}: {exc}") from None
    out = Path(args.out)
    _write(out, made.jsonl())
    if args.json:
        emit_json({"out": str(out), "questions": len(made.questions), "made": made.counts})
        return 0
    print(f"{len(made.questions)} questions over {len(docs)} document(s) written to {out}")
    for kind in KINDS:
        print(f"  {kind}: {made.counts[kind]}, {HOW[kind]}")
    for path, problem in problems:
        print(f"not read: {path}: {problem}")
    print("generated questions favour lexical retrieval: check marks them (see docs/gate.md)")
    return 0
