"""The command line's parser and entry point: `python -m lab` or `chunk-lab`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from chunkers.limit import LimitUnreachable
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
from .export import export_options
from .fair import fair_options
from .gold import cmd_gold, gold_options
from .lessons import check_options, cmd_boilerplate, drift_options
from .routing import cmd_types, types_options

DESCRIPTION = "the lab's measurements from a terminal or a CI job."


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not usage + message
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see --help)\n")


# -- options -------------------------------------------------------------------------
def _one_document(p: argparse.ArgumentParser) -> None:
    p.add_argument("doc", help="a .md, .txt, .pdf, .html or .docx file")


def _documents(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "path",
        metavar="DOC|DIR",
        help="a .md, .txt, .pdf, .html or .docx file, or a folder of them (formats may mix)",
    )


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
    g.add_argument(
        "--limit",
        type=int,
        default=None,
        metavar="N",
        help="the embedder's hard limit in the unit: no chunk's indexed text (heading path + "
        "overlap + body) passes N; the size is lowered to fit (at most --size) and said",
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


# -- each command's own options ----------------------------------------------------------
def _survival_options(p: argparse.ArgumentParser) -> None:
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


def _score_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--query", required=True, metavar="TEXT", help="the question to rank chunks for")
    # -- BM25's two knobs, each with its default in its help --
    for flag, default, what in (
        ("--k1", DEFAULT_K1, "BM25's term saturation: each repeat of a word counts less"),
        ("--b", DEFAULT_B, "BM25's length normalisation, 0 (none) to 1 (full)"),
    ):
        p.add_argument(flag, type=float, default=default, help=f"{what} (default {default})")


def _gate_options(p: argparse.ArgumentParser) -> None:
    """The check's gold set, its thresholds and its report."""
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
        "--max-runts",
        type=int,
        metavar="N",
        help="fail when more than N chunks are runts with no excuse, whatever the strategy "
        "(without it, runts fail only the structural strategy, which promises a floor)",
    )
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
        "lengths in --unit; for a folder, each row's metadata names its document (source, "
        "file_path or file_name)",
    )
    p.add_argument(
        "--embeds-headings",
        action="store_true",
        help="with --chunks: the pipeline embeds each chunk's heading path (from its "
        "metadata) with its text, so lengths, limits and ranks count it (default: the "
        "row's own text, page_content or text, as LangChain and LlamaIndex embed)",
    )


def _diff_options(p: argparse.ArgumentParser) -> None:
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
    p.add_argument(
        "--embedder-limit",
        type=int,
        metavar="N",
        help="the embedder's hard limit, in each side's unit: count its chunks whose "
        "indexed text (heading path + overlap + body) passes N",
    )
    p.add_argument(
        "--embeds-headings",
        action="store_true",
        help="for a chunks:FILE side: its pipeline embeds each chunk's heading path with its "
        "text (default: the row's own text)",
    )
    p.add_argument("--format", choices=DIFF_FORMATS, default="md", help="report format")


def _samples_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dir", action="store_true", help="print only the samples' folder")


def _strip_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--strip", metavar="OUT_DIR", help="write copies without it there (originals untouched)"
    )


# -- the commands -------------------------------------------------------------------------
Options = Callable[[argparse.ArgumentParser], None]


@dataclass(frozen=True)
class Command:
    """One subcommand: what it runs, its help, and its options in --help's order."""

    name: str
    run: Callable[[argparse.Namespace], int]
    help: str
    options: tuple[Options, ...]
    description: str | None = None
    json: bool = True  # a --json switch for machine-readable output


COMMANDS = (
    Command(
        "chunk",
        cmd_chunk,
        "the chunks of a document, or a folder's exported for LangChain, LlamaIndex, JSONL, CSV",
        (_documents, _chunk_options, export_options),
    ),
    Command(
        "survival",
        cmd_survival,
        "is the answer intact at each size?",
        (_one_document, _survival_options, _chunk_options),
    ),
    Command(
        "score",
        cmd_score,
        "per-chunk scores and ranks for a question, by retriever",
        (_one_document, _score_options, _chunk_options, _retrieval_options),
    ),
    Command(
        "stats",
        cmd_stats,
        "chunk-length distribution and the runt invariant",
        (_documents, _chunk_options, _corpus_options, drift_options),
    ),
    Command(
        "check",
        cmd_check,
        "the integrity check over a gold set (exit 1 on failure)",
        (
            _documents,
            _gate_options,
            _chunk_options,
            _retrieval_options,
            _corpus_options,
            check_options,
            fair_options,
        ),
    ),
    Command(
        "gold",
        cmd_gold,
        "a gold set made from the documents: questions with character spans, offline",
        (_documents, gold_options),
        description="Make a gold set from the documents themselves, with no model: heading "
        "paths ask for their section's first sentence, a sentence asks for the sentences "
        "around it (itself masked out), a sentence's rarest words ask for it. Passages are "
        "character spans, so no chunking changes the set; each line is marked generated.",
    ),
    Command(
        "diff",
        cmd_diff,
        "compare the chunks of two configurations (exit 1 when B is worse than A)",
        (_documents, _diff_options, _retrieval_options, fair_options),
        description="Compare the chunk populations of configuration A (the old) and B (the "
        "new): sizes, chunks per document, atomic-element violations, gold metrics and the "
        "most-changed chunks side by side. Exit 1 when B is worse than A on intact share or "
        "on any violation rate.",
        json=False,  # its --format says how the report is written
    ),
    Command(
        "samples",
        cmd_samples,
        "the sample documents and examples shipped with the package, and where they are",
        (_samples_options,),
        description="List the sample documents (each with its gold set) and the examples "
        "the package ships, so every command can run on them without a checkout, e.g. "
        'chunk-lab check "$(chunk-lab samples --dir)/support_kb.md" '
        '--gold "$(chunk-lab samples --dir)/support_kb.gold.jsonl".',
    ),
    Command(
        "boilerplate",
        cmd_boilerplate,
        "lines repeated across pages or documents: headers, footers, disclaimers",
        (_documents, _strip_options, _chunk_options),
        description="Find running text repeated on at least half the pages of a converted "
        "document (its '## Page N' sections), or at the same place on a quarter of them, "
        "or on half the documents of a folder: how many "
        "carry it, the characters it adds to the index, the chunks that consist mostly of it.",
    ),
    Command(
        "types",
        cmd_types,
        "each document's type (faq, api, transcript, contract, prose) and the evidence",
        (types_options,),
        description="Name each document's type by its marks (question headings or Q:/A: "
        "lines, endpoint lines, speaker turns, numbered clauses and 'shall'), the evidence "
        "in one line, and the chunker --strategy routed sends it to. A document whose marks "
        "are too few, or mixed, is prose and says it is uncertain. A folder's doctypes.json "
        '({"notes.md": "faq"}) says the type of any document the rules get wrong.',
    ),
)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=_prog(), description=f"`python -m lab`: {DESCRIPTION}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in COMMANDS:
        p = sub.add_parser(command.name, help=command.help, description=command.description)
        for add in command.options:
            add(p)
        if command.json:
            p.add_argument("--json", action="store_true", help="machine-readable output")
        p.set_defaults(func=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (BadInput, LimitUnreachable) as exc:  # -- LimitUnreachable: no size fits --limit
        print(f"{parser.prog} {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `| head` closed the pipe: not an error worth a traceback
        return 0
