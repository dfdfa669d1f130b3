"""Which document each gold line is about, from the paths on the command line.

A gold line's "doc" may name a document relative to the folder being checked or
relative to the gold file itself; checking one file skips (and counts) the
lines that name other documents.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from lab.inputs.gold import GoldQuestion, load_gold

from .args import BadInput


def _gold_doc(doc: str, gold_path: Path, folder: Path, docs: dict[str, str]) -> str | None:
    """A gold line's "doc" as a document name under the folder: a name relative to
    the folder itself, or a path relative to the gold file; None if neither."""
    as_name = Path(doc).as_posix().removeprefix("./")
    if as_name in docs:
        return as_name
    relative = _relative(gold_path.parent / doc, folder)
    return relative if relative in docs else None


def _same_file(doc: str, gold_path: Path, path: Path) -> bool:
    """Does a gold line's "doc" name the one document being checked?"""
    candidates = (gold_path.parent / doc, Path(doc))
    return any(c.resolve() == path.resolve() for c in candidates) or Path(doc).name == path.name


def gold_questions(
    args: argparse.Namespace, docs: dict[str, str], *, unknown_doc_is_bad: bool = True
) -> tuple[list[GoldQuestion], int]:
    """The gold questions to check, each naming its document, and how many lines
    were skipped because they name another document (checking one file, or, unless
    ``unknown_doc_is_bad``, a folder that lacks it)."""
    gold_path = Path(args.gold)
    try:
        gold = load_gold(gold_path)
    except (OSError, ValueError) as exc:  # GoldFileError says what and how to fix it
        raise BadInput(str(exc)) from None
    if gold.bad_lines:
        first, rest = gold.bad_lines[0], len(gold.bad_lines) - 1
        more = f" (and {rest} more bad lines)" if rest else ""
        raise BadInput(f"{args.gold} line {first.line}: {first.message}{more}")
    if not gold.questions:
        raise BadInput(f"{args.gold} holds no questions")
    path = Path(args.path)
    questions, skipped = [], 0
    for p in gold.questions:
        if not path.is_dir():  # one document: lines for others are skipped, and counted
            if p.doc and not _same_file(p.doc, gold_path, path):
                skipped += 1
                continue
            questions.append(replace(p, doc=next(iter(docs))))
            continue
        if not p.doc:
            raise BadInput(f'{args.gold} line {p.line}: a folder needs a "doc" on every gold line')
        doc = _gold_doc(p.doc, gold_path, path, docs)
        if doc is None and not unknown_doc_is_bad:
            skipped += 1
            continue
        if doc is None:
            raise BadInput(
                f"{args.gold} line {p.line}: document {p.doc!r} is not a readable file "
                f"under {args.path}"
            )
        questions.append(replace(p, doc=doc))
    if not questions:
        raise BadInput(
            f"no line of {args.gold} is for {path.name} ({skipped} name other documents)"
        )
    return questions, skipped


def _relative(path: Path, root: Path) -> str:
    """A gold line's "doc" (relative to the gold file) as a name under the folder."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
