"""`python -m lab`: the lab's measurements from a terminal or a CI job.

Human-readable tables by default, ``--json`` for machines. Bad input exits 2
with one line saying what is wrong and how to fix it; `check` exits 1 when an
answer is not intact or the runt invariant fails, so an index build can be
gated on it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from chunkers import STRATEGIES, ChunkOptions, chunk_with
from chunkers.model import UNITS, Chunk
from chunkers.options import DEFAULT_OVERLAP, DEFAULT_SIZE, DEFAULT_STRATEGY, RUNT_MERGES

from . import diff_render
from .bm25 import score_chunks
from .diff import DEFAULT_LIMIT, ConfigError, build_diff, parse_config
from .distributed import ClusterUnavailable, chunk_documents
from .documents import DocumentError, read_document, read_folder
from .fts5 import Fts5Unavailable, fts5_scores
from .gate import Thresholds, check_report, render_markdown, render_text
from .gold import load_gold
from .integrity import DEFAULT_K, Pair, check_index
from .progress import track
from .stats import length_stats, runt_invariant
from .survival import AnswerNotFound, survival_curve
from .tables import snippet as _snippet
from .tables import table as _table

EXIT_BAD_INPUT = 2
EXIT_CHECK_FAILED = 1


class BadInput(Exception):
    """A one-line problem with what the user gave us."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not usage + message
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see --help)\n")


# -- options -------------------------------------------------------------------------
def _chunk_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("chunking")
    g.add_argument("--strategy", default=DEFAULT_STRATEGY, choices=list(STRATEGIES))
    g.add_argument("--unit", default="chars", choices=list(UNITS))
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


def _corpus_options(p: argparse.ArgumentParser) -> None:
    """Options for work over many documents: progress and where the chunking runs."""
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    g = p.add_argument_group("distributed chunking (needs Dask: requirements-dask.txt)")
    where = g.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler", metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://host:8786"
    )
    where.add_argument(
        "--workers", type=int, metavar="N", help="start a local Dask cluster of N processes"
    )


def _opts(args: argparse.Namespace, size: int | None = None) -> ChunkOptions:
    try:
        return ChunkOptions.sized(
            args.size if size is None else size,
            args.overlap,
            unit=args.unit,
            runt_merge=args.runt_merge,
            heading_paths=not args.no_heading_paths,
        )
    except ValueError as exc:
        raise BadInput(str(exc)) from None


def _read(path: str) -> str:
    try:
        return read_document(Path(path)).text
    except DocumentError as exc:
        raise BadInput(str(exc)) from None


def _documents(path: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """One file, or every .md/.txt under a folder (named by relative path), with
    what could not be read: nothing is skipped silently."""
    p = Path(path)
    if p.is_dir():
        try:
            docs, problems = read_folder(p)
        except DocumentError as exc:
            raise BadInput(str(exc)) from None
        if not docs:
            raise BadInput(problems[0][1] if problems else f"{path} holds no .md or .txt files")
        return {d.name: d.text for d in docs}, problems
    return {p.name: _read(path)}, []


def _sizes(spec: str | None, unit: str) -> list[int]:
    if spec is None:
        spec = "10:120" if unit == "words" else "200:3000:50"
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


# -- output ------------------------------------------------------------------------------
def _emit_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


# -- subcommands ----------------------------------------------------------------------------
def cmd_chunk(args: argparse.Namespace) -> int:
    text = _read(args.doc)
    opts = _opts(args)
    chunks = chunk_with(text, args.strategy, opts)
    if args.json:
        _emit_json([c.to_dict() for c in chunks])
        return 0
    print(
        f"{len(chunks)} chunks, {args.strategy}, size {opts.size} {opts.unit}, "
        f"overlap {opts.overlap}"
    )
    # people count chunks from 1, as the verdicts do; --json keeps the 0-based index
    rows = [
        (c.index + 1, c.length, c.kind, c.page, " > ".join(c.heading_path), _snippet(c.body))
        for c in chunks
    ]
    print(_table(["#", "length", "kind", "page", "heading path", "body"], rows))
    return 0


def cmd_survival(args: argparse.Namespace) -> int:
    text = _read(args.doc)
    sizes = _sizes(args.sizes, args.unit)
    for size in sizes:  # validate every size before the sweep
        if args.overlap_fraction is None:
            _opts(args, size)
    if args.overlap_fraction is not None and not 0 <= args.overlap_fraction < 1:
        raise BadInput(
            f"--overlap-fraction must be at least 0 and below 1, got {args.overlap_fraction}"
        )
    extra = {"runt_merge": args.runt_merge, "heading_paths": not args.no_heading_paths}
    try:
        curve = survival_curve(
            text,
            args.answer,
            args.strategy,
            sizes,
            unit=args.unit,
            overlap=args.overlap or 0,
            overlap_fraction=args.overlap_fraction,
            **extra,
        )
    except ValueError as exc:  # AnswerNotFound, or an overlap too large for a size
        raise BadInput(str(exc)) from None
    if args.json:
        _emit_json({"sizes": curve.sizes, "intact": curve.intact})
        return 0
    kept = sum(curve.intact)
    print(f"answer intact at {kept} of {len(curve.sizes)} sizes ({args.strategy}, {args.unit})")
    print(
        _table(
            ["size", "overlap", "intact"],
            list(zip(curve.sizes, curve.overlaps, curve.intact, strict=True)),
        )
    )
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    text = _read(args.doc)
    opts = _opts(args)
    chunks = chunk_with(text, args.strategy, opts)
    try:
        scores = score_chunks(chunks, args.query, k1=args.k1, b=args.b)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    try:
        fts = {f.index: f.rank for f in fts5_scores(chunks, args.query)}
    except Fts5Unavailable as exc:
        raise BadInput(str(exc)) from None
    rows = [
        {
            "index": c.index,
            "rank": s.rank,
            "score": s.score,
            "length": c.length,
            "body": c.body,
            "fts5_rank": fts.get(c.index),
        }
        for c, s in zip(chunks, scores, strict=True)
    ]
    rows.sort(key=lambda r: r["rank"])
    if args.json:
        _emit_json(rows)
        return 0
    print(
        f"{len(chunks)} chunks scored for {args.query!r} "
        f"(BM25 k1={args.k1}, b={args.b}; rank 1 is best)"
    )
    print(
        _table(
            ["rank", "#", "score", "length", "fts5 rank", "body"],
            [
                (
                    r["rank"],
                    r["index"] + 1,
                    r["score"],
                    r["length"],
                    r["fts5_rank"],
                    _snippet(r["body"], 50),
                )
                for r in rows
            ],
        )
    )
    return 0


def _chunked(
    args: argparse.Namespace, docs: dict[str, str], opts: ChunkOptions
) -> dict[str, list[Chunk]]:
    """Every document's chunks: here, or on the Dask cluster --scheduler/--workers name."""
    try:
        return chunk_documents(
            docs,
            args.strategy,
            opts,
            scheduler=args.scheduler,
            workers=args.workers,
            quiet=args.quiet,
        )
    except ClusterUnavailable as exc:
        raise BadInput(str(exc)) from None


def cmd_stats(args: argparse.Namespace) -> int:
    docs, problems = _documents(args.path)
    opts = _opts(args)
    chunked = _chunked(args, docs, opts)
    everything = [c for cs in chunked.values() for c in cs]
    st = length_stats(everything, opts)
    inv = runt_invariant(chunked, opts)
    data = {
        "documents": len(docs),
        "unreadable": [{"path": p, "problem": m} for p, m in problems],
        "chunks": st.count,
        "min": st.min,
        "p1": st.p1,
        "p5": st.p5,
        "median": st.median,
        "mean": st.mean,
        "max": st.max,
        "effective_max": st.effective_max,
        "over_effective_max": len(st.over_effective_max),
        **inv,
        "invariant_holds": not inv["failing"],
    }
    if args.json:
        _emit_json(data)
        return 0
    print(
        f"{len(docs)} documents, {st.count} chunks ({args.strategy}, size {opts.size} "
        f"{opts.unit}, overlap {opts.overlap})"
    )
    print(
        _table(
            ["min", "p1", "p5", "median", "mean", "max", "effective max"],
            [(st.min, st.p1, st.p5, st.median, st.mean, st.max, st.effective_max)],
        )
    )
    print(
        f"below the floor ({opts.floor}): {inv['below_floor']}, excused {len(inv['excused'])}, "
        f"failing {len(inv['failing'])}: invariant {'holds' if not inv['failing'] else 'FAILS'}"
    )
    for e in inv["excused"] + inv["failing"]:
        print(f"  {e['doc']} chunk {e['index'] + 1}: {e['length']} ({e['excuse'] or 'no excuse'})")
    for p, m in problems:
        print(f"not read: {p}: {m}")
    return 0


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


def _gold_pairs(
    args: argparse.Namespace, docs: dict[str, str], *, unknown_doc_is_bad: bool = True
) -> tuple[list[Pair], int]:
    """The gold lines to check, as pairs naming their document, and how many lines
    were skipped because they name another document (checking one file, or, unless
    ``unknown_doc_is_bad``, a folder that lacks it)."""
    gold_path = Path(args.gold)
    try:
        gold = load_gold(gold_path)
    except (OSError, ValueError) as exc:  # GoldFileError says what and how to fix it
        raise BadInput(str(exc)) from None
    if gold.errors:
        first = gold.errors[0]
        more = f" (and {len(gold.errors) - 1} more bad lines)" if len(gold.errors) > 1 else ""
        raise BadInput(f"{args.gold} line {first.line}: {first.message}{more}")
    if not gold.pairs:
        raise BadInput(f"{args.gold} holds no questions")
    path = Path(args.path)
    pairs, skipped = [], 0
    for p in gold.pairs:
        if not path.is_dir():  # one document: lines for others are skipped, and counted
            if p.doc and not _same_file(p.doc, gold_path, path):
                skipped += 1
                continue
            pairs.append(Pair(p.question, p.answer, next(iter(docs)), p.passages, p.line))
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
        pairs.append(Pair(p.question, p.answer, doc, p.passages, p.line))
    if not pairs:
        raise BadInput(
            f"no line of {args.gold} is for {path.name} ({skipped} name other documents)"
        )
    return pairs, skipped


def _thresholds(args: argparse.Namespace) -> Thresholds:
    for name in ("min_recall", "min_coverage"):
        value = getattr(args, name)
        if value is not None and not 0 <= value <= 1:
            flag = "--" + name.replace("_", "-")
            raise BadInput(f"{flag} must be a share from 0 to 1, got {value}")
    return Thresholds(args.min_recall, args.min_coverage)


def check_data(args: argparse.Namespace) -> dict[str, Any]:
    """The check's report as data (see lab.gate): read, chunk, index, measure."""
    if args.k < 1:
        raise BadInput(f"--k must be a whole number of at least 1, got {args.k}")
    thresholds = _thresholds(args)
    docs, problems = _documents(args.path)
    pairs, skipped = _gold_pairs(args, docs)
    opts = _opts(args)
    chunked = _chunked(args, docs, opts)
    try:
        report = check_index(
            docs,
            pairs,
            args.strategy,
            opts,
            k=args.k,
            chunked=chunked,
            track=lambda qs: track(qs, "questions", total=len(pairs), quiet=args.quiet),
        )
    except AnswerNotFound as exc:  # a gold line that does not fit its document
        raise BadInput(f"{args.gold}: {exc}") from None
    except ValueError as exc:  # a parameter check_index refuses
        raise BadInput(str(exc)) from None
    return check_report(
        report,
        runt_invariant(chunked, opts),
        documents=len(docs),
        unreadable=problems,
        skipped=skipped,
        thresholds=thresholds,
    )


def cmd_check(args: argparse.Namespace) -> int:
    data = check_data(args)
    fmt = "json" if args.json else args.format
    if fmt == "json":
        _emit_json(data)
    else:
        print(render_markdown(data) if fmt == "markdown" else render_text(data))
    return 0 if data["passed"] else EXIT_CHECK_FAILED


def _relative(path: Path, root: Path) -> str:
    """A gold line's "doc" (relative to the gold file) as a name under the folder."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


# -- diff ---------------------------------------------------------------------------------------
DIFF_FORMATS = ("md", "html", "json")


def cmd_diff(args: argparse.Namespace) -> int:
    try:
        config_a, config_b = parse_config(args.a), parse_config(args.b)
    except ConfigError as exc:
        raise BadInput(str(exc)) from None
    if args.k < 1:
        raise BadInput(f"--k must be a whole number of at least 1, got {args.k}")
    if args.limit < 0:
        raise BadInput(f"--limit must be a whole number of at least 0, got {args.limit}")
    docs, problems = _documents(args.path)
    gold = None
    if args.gold:
        gold, skipped = _gold_pairs(args, docs, unknown_doc_is_bad=False)
        if skipped:
            print(f"{args.gold}: {skipped} line(s) name other documents; skipped", file=sys.stderr)
    try:
        report = build_diff(
            docs, config_a, config_b, gold=gold, k=args.k, limit=args.limit, unreadable=problems
        )
    except AnswerNotFound as exc:
        raise BadInput(f"{args.gold}: {exc}") from None
    if args.format == "json":
        _emit_json(diff_render.to_json(report))
    elif args.format == "html":
        sys.stdout.write(diff_render.to_html(report))
    else:
        sys.stdout.write(diff_render.to_markdown(report))
    return EXIT_CHECK_FAILED if report.worse else 0


# -- entry ----------------------------------------------------------------------------------------
def _prog() -> str:
    """How the user ran us: ``chunk-lab`` when installed, else ``python -m lab``."""
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return name if name and name not in ("__main__.py", "-c") else "python -m lab"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=_prog(), description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("chunk", help="the chunks of a document")
    p.add_argument("doc")
    _chunk_options(p)
    p.set_defaults(func=cmd_chunk)

    p = sub.add_parser("survival", help="is the answer intact at each size?")
    p.add_argument("doc")
    p.add_argument("--answer", required=True)
    p.add_argument("--sizes", help="FROM:TO[:STEP], both ends included")
    p.add_argument(
        "--overlap-fraction", type=float, default=None, help="overlap as a fraction of each size"
    )
    _chunk_options(p)
    p.set_defaults(func=cmd_survival)

    p = sub.add_parser("score", help="per-chunk BM25 scores and ranks for a question")
    p.add_argument("doc")
    p.add_argument("--query", required=True)
    p.add_argument("--k1", type=float, default=1.2)
    p.add_argument("--b", type=float, default=0.75)
    _chunk_options(p)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("stats", help="chunk-length distribution and the runt invariant")
    p.add_argument("path", metavar="DOC|DIR")
    _chunk_options(p)
    _corpus_options(p)
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("check", help="the integrity check over a gold set (exit 1 on failure)")
    p.add_argument("path", metavar="DOC|DIR")
    p.add_argument(
        "--gold", required=True, metavar="GOLD", help="gold set: .jsonl, or .csv (docs/gate.md)"
    )
    p.add_argument("--k", type=int, default=DEFAULT_K, help="a question is found within rank k")
    p.add_argument("--min-recall", type=float, metavar="SHARE", help="fail below this recall@k")
    p.add_argument("--min-coverage", type=float, metavar="SHARE", help="fail below this coverage@k")
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    _chunk_options(p)
    _corpus_options(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser(
        "diff",
        help="compare the chunks of two configurations (exit 1 when B is worse than A)",
        description="Compare the chunk populations of configuration A (the old) and B (the new): "
        "sizes, chunks per document, atomic-element violations, gold metrics and the "
        "most-changed chunks side by side. Exit 1 when B is worse than A on intact share or "
        "on any violation rate.",
    )
    p.add_argument("path", metavar="DOC|DIR")
    p.add_argument(
        "--a",
        required=True,
        metavar="CONFIG",
        help="the old configuration: STRATEGY:UNIT:SIZE:OVERLAP, e.g. structural:chars:1800:150",
    )
    p.add_argument("--b", required=True, metavar="CONFIG", help="the new configuration")
    p.add_argument("--gold", metavar="GOLD.jsonl", help="also compare intact share, recall, MRR")
    p.add_argument("--k", type=int, default=DEFAULT_K, help="rank cut-off for the gold check")
    p.add_argument(
        "--limit", type=int, default=DEFAULT_LIMIT, help="how many changed chunks to show"
    )
    p.add_argument("--format", choices=DIFF_FORMATS, default="md", help="report format")
    p.set_defaults(func=cmd_diff)

    for name in ("chunk", "survival", "score", "stats", "check"):
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
