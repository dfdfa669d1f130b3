"""The command line's parser and entry point: `python -m lab` or `chunk-lab`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from chunkers.model import UNITS
from chunkers.options import DEFAULT_OVERLAP, DEFAULT_SIZE, DEFAULT_STRATEGY, RUNT_MERGES
from chunkers.registry import OFFERED
from chunkers.tokens import DEFAULT_TOKENIZER, OPENAI_ENCODINGS
from lab.measure.diff import CONFIG_FORM, DEFAULT_LIMIT, IMPORTED_FORM
from lab.measure.integrity import DEFAULT_K
from lab.retrieval.bm25 import BM25_VARIANTS, DEFAULT_B, DEFAULT_K1, DEFAULT_VARIANT
from lab.retrieval.embedders import DEFAULT_EMBEDDER
from lab.retrieval.fusion import RRF_K
from lab.retrieval.retrievers import DEFAULT_RETRIEVER, RETRIEVERS

from .args import EXIT_BAD_INPUT, BadInput
from .commands import (
    DIFF_FORMATS,
    cmd_check,
    cmd_chunk,
    cmd_diff,
    cmd_samples,
    cmd_score,
    cmd_stats,
    cmd_survival,
)
from .lessons import check_options, cmd_boilerplate, drift_options

DESCRIPTION = "the lab's measurements from a terminal or a CI job."


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not usage + message
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see --help)\n")


# -- options -------------------------------------------------------------------------
def _chunk_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("chunking")
    g.add_argument(
        "--strategy",
        default=DEFAULT_STRATEGY,
        choices=list(OFFERED),
        help=f"how to cut the document (default {DEFAULT_STRATEGY})",
    )
    g.add_argument(
        "--unit", default="chars", choices=list(UNITS), help="what size and overlap count"
    )
    g.add_argument(
        "--tokenizer",
        metavar="NAME|PATH",
        default=None,
        help=f"with --unit tokens: {' or '.join(OPENAI_ENCODINGS)} (default {DEFAULT_TOKENIZER}), "
        "or the path of a Hugging Face tokenizer.json",
    )
    g.add_argument(
        "--size",
        type=int,
        default=None,
        help=f"chunk size in the unit (default {DEFAULT_SIZE} chars)",
    )
    g.add_argument(
        "--overlap",
        type=int,
        default=None,
        help=f"overlap in the unit (default {DEFAULT_OVERLAP} with the default size, else 0)",
    )
    g.add_argument(
        "--runt-merge",
        default="backward",
        choices=list(RUNT_MERGES),
        help="structural: the direction runts merge into a neighbour, or off",
    )
    # -- the option's first name, kept so existing build scripts still run --
    g.add_argument("--sweep", dest="runt_merge", choices=list(RUNT_MERGES), help=argparse.SUPPRESS)
    g.add_argument(
        "--no-heading-paths", action="store_true", help="structural: leave heading paths out"
    )


def _retrieval_options(p: argparse.ArgumentParser) -> None:
    """Who ranks the chunks: BM25, dense vectors, or their fusion (docs/retrieval.md)."""
    g = p.add_argument_group("retrieval")
    g.add_argument(
        "--retriever",
        default=DEFAULT_RETRIEVER,
        metavar="NAMES",
        help=f"who ranks, one or several comma-separated: {', '.join(RETRIEVERS)} "
        f"(hybrid: reciprocal-rank fusion of the two, k={RRF_K}; default {DEFAULT_RETRIEVER})",
    )
    g.add_argument(
        "--bm25",
        choices=BM25_VARIANTS,
        default=None,
        help=f"the BM25 variant (default {DEFAULT_VARIANT}, never below zero; okapi is "
        "rank-bm25's BM25Okapi, fts5 SQLite's)",
    )
    g.add_argument(
        "--embedder",
        default=None,
        metavar="SPEC",
        help=f"the dense judge's model: {DEFAULT_EMBEDDER} (default, offline) or your own "
        "package.module:function taking a list of texts and returning one vector per text",
    )


def _corpus_options(p: argparse.ArgumentParser) -> None:
    """Options for work over many documents: progress and where the chunking runs."""
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    g = p.add_argument_group("distributed chunking (needs Dask: pip install 'chunk-lab[dask]')")
    where = g.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler", metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://host:8786"
    )
    where.add_argument(
        "--workers", type=int, metavar="N", help="start a local Dask cluster of N processes"
    )


# -- entry ----------------------------------------------------------------------------------------
def _prog() -> str:
    """How the user ran us: ``chunk-lab`` when installed, else ``python -m lab``."""
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return name if name and name not in ("__main__.py", "-c") else "python -m lab"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=_prog(), description=f"`python -m lab`: {DESCRIPTION}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("chunk", help="the chunks of a document")
    p.add_argument("doc", help="a .md or .txt file")
    _chunk_options(p)
    p.set_defaults(func=cmd_chunk)

    p = sub.add_parser("survival", help="is the answer intact at each size?")
    p.add_argument("doc", help="a .md or .txt file")
    p.add_argument(
        "--answer",
        required=True,
        metavar="TEXT",
        help="the answer, as it is written in the document (whitespace may differ)",
    )
    p.add_argument("--sizes", help="FROM:TO[:STEP], both ends included")
    p.add_argument(
        "--overlap-fraction", type=float, default=None, help="overlap as a fraction of each size"
    )
    _chunk_options(p)
    p.set_defaults(func=cmd_survival)

    p = sub.add_parser("score", help="per-chunk scores and ranks for a question, by retriever")
    p.add_argument("doc", help="a .md or .txt file")
    p.add_argument("--query", required=True, metavar="TEXT", help="the question to rank chunks for")
    p.add_argument(
        "--k1",
        type=float,
        default=DEFAULT_K1,
        help=f"BM25's term saturation: each repeat of a word counts less (default {DEFAULT_K1})",
    )
    p.add_argument(
        "--b",
        type=float,
        default=DEFAULT_B,
        help=f"BM25's length normalisation, 0 (none) to 1 (full) (default {DEFAULT_B})",
    )
    _chunk_options(p)
    _retrieval_options(p)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("stats", help="chunk-length distribution and the runt invariant")
    p.add_argument("path", metavar="DOC|DIR", help="a .md or .txt file, or a folder of them")
    _chunk_options(p)
    _corpus_options(p)
    drift_options(p)
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("check", help="the integrity check over a gold set (exit 1 on failure)")
    p.add_argument("path", metavar="DOC|DIR", help="a .md or .txt file, or a folder of them")
    p.add_argument(
        "--gold",
        required=True,
        metavar="GOLD",
        help='gold set: .jsonl, one {"question", "doc", and "answer" or "passages"} a line, or '
        ".csv with columns question, doc, answer, text, start, end",
    )
    p.add_argument("--k", type=int, default=DEFAULT_K, help="a question is found within rank k")
    p.add_argument("--min-recall", type=float, metavar="SHARE", help="fail below this recall@k")
    p.add_argument("--min-coverage", type=float, metavar="SHARE", help="fail below this coverage@k")
    p.add_argument(
        "--format",
        choices=("text", "json", "markdown"),
        default="text",
        help="the report: a table for people, JSON, or Markdown for a pull request",
    )
    p.add_argument(
        "--chunks",
        metavar="FILE",
        help="gate these chunks (JSONL or CSV, made by any pipeline: a text column, "
        "optional start and end) instead of chunking the document: they are placed in it, "
        "lengths in --unit",
    )
    _chunk_options(p)
    _retrieval_options(p)
    _corpus_options(p)
    check_options(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser(
        "diff",
        help="compare the chunks of two configurations (exit 1 when B is worse than A)",
        description="Compare the chunk populations of configuration A (the old) and B (the new): "
        "sizes, chunks per document, atomic-element violations, gold metrics and the "
        "most-changed chunks side by side. Exit 1 when B is worse than A on intact share or "
        "on any violation rate.",
    )
    p.add_argument("path", metavar="DOC|DIR", help="a .md or .txt file, or a folder of them")
    p.add_argument(
        "--a",
        required=True,
        metavar="CONFIG",
        help=f"the old configuration: {CONFIG_FORM}; or {IMPORTED_FORM} (chunks made "
        "elsewhere, for one document)",
    )
    p.add_argument(
        "--b", required=True, metavar="CONFIG", help="the new configuration, in the same forms"
    )
    p.add_argument("--gold", metavar="GOLD.jsonl", help="also compare intact share, recall, MRR")
    p.add_argument("--k", type=int, default=DEFAULT_K, help="rank cut-off for the gold check")
    p.add_argument(
        "--limit", type=int, default=DEFAULT_LIMIT, help="how many changed chunks to show"
    )
    p.add_argument("--format", choices=DIFF_FORMATS, default="md", help="report format")
    _retrieval_options(p)
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser(
        "samples",
        help="the sample documents and examples shipped with the package, and where they are",
        description="List the sample documents (each with its gold set) and the examples "
        "the package ships, so every command can run on them without a checkout, e.g. "
        'chunk-lab check "$(chunk-lab samples --dir)/support_kb.md" '
        '--gold "$(chunk-lab samples --dir)/support_kb.gold.jsonl".',
    )
    p.add_argument("--dir", action="store_true", help="print only the samples' folder")
    p.set_defaults(func=cmd_samples)

    p = sub.add_parser(
        "boilerplate",
        help="lines repeated across pages or documents: headers, footers, disclaimers",
        description="Find running text repeated on at least half the pages of a converted "
        "document (its '## Page N' sections) or half the documents of a folder: how many carry "
        "it, the characters it adds to the index, the chunks that consist mostly of it.",
    )
    p.add_argument("path", metavar="DOC|DIR", help="a .md or .txt file, or a folder of them")
    p.add_argument(
        "--strip", metavar="OUT_DIR", help="write copies without it there (originals untouched)"
    )
    _chunk_options(p)
    p.set_defaults(func=cmd_boilerplate)

    for name in ("chunk", "survival", "score", "stats", "check", "samples", "boilerplate"):
        sub.choices[name].add_argument(
            "--json", action="store_true", help="machine-readable output"
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BadInput as exc:
        print(f"{parser.prog} {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `| head` closed the pipe: not an error worth a traceback
        return 0
