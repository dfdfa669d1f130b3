"""The check's and the diff's fair comparisons: --budget (the same context for every
chunking) and --context (what is indexed beside each chunk), and their part of the report."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from lab.measure.context import CONTEXTS, DEFAULT_CONTEXT, NONE, TITLE_PATH, titles
from lab.measure.fair import budget_json, context_json
from lab.measure.integrity import IntegrityReport

from .args import BadInput


def fair_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("fair comparisons")
    g.add_argument(
        "--context",
        choices=CONTEXTS,
        help=f"what is indexed beside each chunk: nothing, its heading path (default, "
        f"{DEFAULT_CONTEXT}) or the document's title and heading path; reports top-20 "
        "failures against none",
    )
    g.add_argument(
        "--budget",
        type=int,
        metavar="N",
        help="also measure at a context of N units (the run's unit): the ranked chunks are "
        "sent in order until N are spent, the last cut there; coverage, recall, precision "
        "and IoU at the budget, and how many chunks fit",
    )


def budget_given(args: argparse.Namespace) -> int | None:
    budget = getattr(args, "budget", None)
    if budget is not None and budget < 1:
        raise BadInput(f"--budget must be a whole number of at least 1, got {budget}")
    return budget


def context_given(args: argparse.Namespace) -> str:
    return getattr(args, "context", None) or DEFAULT_CONTEXT


def title_note(args: argparse.Namespace, docs: dict[str, str]) -> str | None:
    """With --context title+path, the line that names the file names used as titles."""
    return titles(docs).note() if getattr(args, "context", None) == TITLE_PATH else None


def baseline_given(args: argparse.Namespace) -> str | None:
    """With --context path or title+path, the questions are ranked with no context too."""
    context = getattr(args, "context", None)
    return NONE if context is not None and context != NONE else None


def add_fair(
    args: argparse.Namespace, data: dict[str, Any], reports: Sequence[IntegrityReport]
) -> None:
    """Put the budget's and the context's figures into the check's data: a top-level
    ``budget`` (the first retriever's) and each retriever's; with --context, the top-20
    failures (against no context, for path and title+path)."""
    if args.budget is not None:
        for row, report in zip(data["retrievers"], reports, strict=True):
            row["budget"] = budget_json(report)
        data["budget"] = data["retrievers"][0]["budget"]
    if getattr(args, "context", None) is not None:
        data["context"] = context_json(reports)
