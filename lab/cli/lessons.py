"""The three lessons on the command line: `boilerplate`, the check's --small-to-big and
--strip-boilerplate, and stats' --save-baseline and --baseline (drift)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chunkers import Chunk, ChunkOptions
from lab.inputs.gold import GoldQuestion
from lab.measure import drift
from lab.measure.boilerplate import (
    BoilerplateError,
    find_boilerplate,
    strip_all,
    write_stripped,
)
from lab.measure.diff import ChunkConfig, ConfigError
from lab.measure.integrity import GoldRun
from lab.measure.small_to_big import evaluate, parse_tiers
from lab.measure.strip_effect import map_gold
from lab.measure.survival import AnswerNotFound
from lab.report import fair_render
from lab.report import lessons as render
from lab.retrieval.interface import Retriever

from .args import EXIT_CHECK_FAILED, BadInput, chunk_options, emit_json, read_documents


def _sources(path: str, names: list[str]) -> list[Path]:
    """The files the documents were read from."""
    p = Path(path)
    return [p / n for n in names] if p.is_dir() else [p]


# --------------------------------------------------------------------------- boilerplate


def cmd_boilerplate(args: argparse.Namespace) -> int:
    docs, problems = read_documents(args.path)
    opts = chunk_options(args)
    try:
        report = find_boilerplate(docs, strategy=args.strategy, options=opts)
    except BoilerplateError as exc:
        raise BadInput(str(exc)) from None
    written = 0
    if args.strip:
        stripped = strip_all(docs, report)
        try:
            written = write_stripped(stripped, Path(args.strip), _sources(args.path, list(docs)))
        except BoilerplateError as exc:
            raise BadInput(str(exc)) from None
        except OSError as exc:
            raise BadInput(
                f"--strip could not write to {args.strip} ({exc.strerror}); pick a folder "
                "you can write to"
            ) from None
    if args.json:
        data = report.to_json()
        data["unreadable"] = [{"path": p, "problem": m} for p, m in problems]
        data["stripped_copies"] = {"folder": args.strip, "files": written} if args.strip else None
        emit_json(data)
        return 0
    print(render.boilerplate_text(report))
    if args.strip:
        print(f"wrote {written} stripped cop{'y' if written == 1 else 'ies'} to {args.strip} "
              "(the originals are untouched)")  # fmt: skip
    for p, m in problems:
        print(f"not read: {p}: {m}")
    return 0


# --------------------------------------------------------------------------- check


def strip_for_check(
    args: argparse.Namespace, docs: dict[str, str], pairs: list[GoldQuestion], opts: ChunkOptions
) -> tuple[dict[str, str], list[GoldQuestion], dict[str, Any] | None]:
    """With --strip-boilerplate: the documents without their boilerplate, the gold
    pairs that still apply, and what was set aside (for the report); else as given."""
    if not getattr(args, "strip_boilerplate", False):
        return docs, pairs, None
    try:
        report = find_boilerplate(docs, strategy=args.strategy, options=opts)
    except BoilerplateError as exc:
        raise BadInput(str(exc)) from None
    stripped = strip_all(docs, report)
    try:
        kept, aside = map_gold(stripped, pairs)
    except AnswerNotFound as exc:
        raise BadInput(f"{args.gold}: {exc}") from None
    info = {
        "removed_chars": sum(s.inside_removed(0, len(s.original)) for s in stripped.values()),
        "findings": len(report.findings),
        "gold_in_stripped": [
            {"question": a.question, "doc": a.doc, "line": a.line, "reason": a.reason}
            for a in aside
        ],
    }
    if not kept:
        raise BadInput(
            f"every gold passage of {args.gold} lies in text stripped as boilerplate; "
            "check the gold set, or run without --strip-boilerplate"
        )
    return {n: s.text for n, s in stripped.items()}, kept, info


def stripped_count(strip: dict[str, Any] | None) -> int:
    """Gold questions whose passage lay in stripped text: the gate fails on them (the
    strip took text the gold set says is needed)."""
    return len(strip["gold_in_stripped"]) if strip else 0


def small_to_big_for_check(
    args: argparse.Namespace,
    docs: dict[str, str],
    pairs: list[GoldQuestion],
    chunked: dict[str, list[Chunk]],
    opts: ChunkOptions,
    judges: Sequence[Retriever],
) -> list[dict[str, Any]] | None:
    """With --small-to-big: the ways of delivering context, measured on the gold set,
    once per retriever the check names (each ranks the children and the plain chunks)."""
    spec = getattr(args, "small_to_big", None)
    if not spec:
        return None
    try:
        tiers = parse_tiers(spec, opts.unit)
    except ConfigError as exc:
        raise BadInput(f"--small-to-big: {exc}") from None
    plain = ChunkConfig(args.strategy, opts.unit, opts.size, opts.overlap, opts.tokenizer)
    return [
        evaluate(GoldRun(docs, pairs, args.k, j), tiers, plain, plain_chunks=chunked).to_json()
        for j in judges
    ]


def finish_check(
    data: dict[str, Any], strip: dict[str, Any] | None, s2b: list[dict[str, Any]] | None
) -> None:
    """Put the lessons' parts into the check's data (what the strip set aside already
    went to the gate's verdict: see ``stripped_count``)."""
    if strip is not None:
        data["stripped"] = strip
    if s2b is not None:
        data["small_to_big"] = s2b


def check_extras(data: dict[str, Any], *, markdown: bool = False) -> list[str]:
    """The lessons' lines for the check's text or Markdown report."""
    lines: list[str] = []
    if "budget" in data:
        lines += fair_render.budget_lines(data)
    if "context" in data:
        lines += fair_render.context_lines(data["context"])
    if "stripped" in data:
        lines += render.stripped_lines(data)
    if "small_to_big" in data:
        for report in data["small_to_big"]:
            lines += render.small_to_big_lines(report, markdown=markdown)
    return lines


# --------------------------------------------------------------------------- drift


def stats_drift(
    args: argparse.Namespace,
    docs: dict[str, str],
    chunked: dict[str, list[Chunk]],
    opts: ChunkOptions,
    data: dict[str, Any],
) -> tuple[list[str], int]:
    """--baseline and --save-baseline: the comparison's lines (and data[\"drift\"]), and
    the exit code (1 when something moved past a threshold)."""
    if not (args.baseline or args.save_baseline):
        return [], 0
    limits = (("--max-change", args.max_change), ("--max-rate-change", args.max_rate_change))
    for flag, value in limits:
        if not value > 0:
            raise BadInput(f"{flag} must be a share above 0, e.g. 0.25, got {value}")
    snap = drift.snapshot(docs, chunked, args.strategy, opts)
    lines: list[str] = []
    code = 0
    if args.baseline:
        name = Path(args.baseline).name
        try:
            baseline = drift.load_baseline(Path(args.baseline))
            drift.check_config(baseline, snap.config, name)
        except drift.BaselineError as exc:
            raise BadInput(str(exc)) from None
        report = drift.compare(
            baseline, snap, max_change=args.max_change, max_rate_change=args.max_rate_change
        )
        data["drift"] = report.to_json()
        lines += render.drift_lines(report, name)
        code = EXIT_CHECK_FAILED if report.drifted else 0
    if args.save_baseline:
        try:
            drift.save_baseline(snap, Path(args.save_baseline))
        except OSError as exc:
            raise BadInput(
                f"--save-baseline could not write {args.save_baseline} ({exc.strerror}); "
                "pick a path you can write to"
            ) from None
        data["baseline_saved"] = args.save_baseline
        lines.append(
            f"baseline saved to {args.save_baseline}: {len(snap.sources)} source(s), "
            f"{len(snap.documents)} document(s), {drift.config_label(snap.config)}"
        )
    return lines, code


def drift_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("drift (per source: a sub-folder of DIR)")
    g.add_argument("--save-baseline", metavar="FILE", help="save this run's figures as a baseline")
    g.add_argument(
        "--baseline",
        metavar="FILE",
        help="compare with a saved baseline; exit 1 when a source or a document moved",
    )
    g.add_argument(
        "--max-change",
        type=float,
        default=drift.MAX_CHANGE,
        metavar="SHARE",
        help="a length or count moved past this share of its baseline "
        f"(default {drift.MAX_CHANGE})",
    )
    g.add_argument(
        "--max-rate-change",
        type=float,
        default=drift.MAX_RATE_CHANGE,
        metavar="SHARE",
        help=f"a rate moved past this many points, as a share (default {drift.MAX_RATE_CHANGE})",
    )


def check_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("lessons")
    g.add_argument(
        "--small-to-big",
        metavar="CHILD:PARENT",
        help="also measure small-to-big: children and parents as sizes (300:1800, structural "
        "in --unit) or as two configs CHILD/PARENT "
        "(structural:chars:300:0/structural:chars:1800:0); ranked by each --retriever",
    )
    g.add_argument(
        "--strip-boilerplate",
        action="store_true",
        help="strip repeated headers, footers and disclaimers before chunking; gold passages "
        "inside them are listed and fail the gate",
    )
