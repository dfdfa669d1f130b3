"""The subcommands: chunk, survival, score, stats, check, diff and samples.

Each takes the parsed arguments, prints its table (or ``--json``) and returns
the exit code; a problem with the input is raised as BadInput.
"""

from __future__ import annotations

import argparse
import html
import sys
from dataclasses import replace
from typing import Any

from tqdm import tqdm

from chunkers import ChunkOptions, chunk_with, indexed_text
from chunkers.limit import over_limit
from chunkers.model import HEADING_SEPARATOR, Chunk
from chunkers.scripts import unsegmented_note
from lab.inputs.placement import HOW, PlacementError, import_chunk_file, import_chunk_folder
from lab.inputs.samples import EXAMPLES_DIR, SAMPLES_DIR, list_samples
from lab.measure.atomic import Finding, quality
from lab.measure.by_type import check_by_type, drift_by_type, stats_by_type, weakest_line
from lab.measure.diff import ChunkConfig, ConfigError, build_diff, parse_config
from lab.measure.integrity import check_judged
from lab.measure.stats import length_stats, runt_invariant
from lab.measure.survival import AnswerNotFound, survival_curve
from lab.report import diff_render
from lab.report.by_type import by_type_table
from lab.report.gate import Thresholds, check_report, render_markdown, render_text
from lab.report.tables import table as _table
from lab.report.words import counted
from lab.retrieval.bm25_variants import Bm25Retriever
from lab.retrieval.fts5 import Fts5Unavailable, fts5_scores
from lab.retrieval.fusion import HybridRetriever
from lab.retrieval.interface import judge_name
from lab.text import clip

from .args import (
    EXIT_CHECK_FAILED,
    BadInput,
    chunk_options,
    emit_json,
    read_documents,
    read_text,
    retrievers,
    sweep_extras,
    sweep_sizes,
)
from .distributed import ClusterUnavailable, chunk_documents
from .export import fitted, limit_line, over_limit_line, write_export
from .fair import add_fair, baseline_given, budget_given, context_given, title_note
from .gold_paths import gold_questions
from .lessons import (
    check_extras,
    finish_check,
    small_to_big_for_check,
    stats_drift,
    strip_for_check,
    stripped_count,
)
from .routing import ROUTED, chunk_routed, diff_by_type, strategies_of, types_of


# -- subcommands ----------------------------------------------------------------------------
def cmd_chunk(args: argparse.Namespace) -> int:
    docs, problems = read_documents(args.path)
    opts = chunk_options(args)
    for name, text in docs.items():  # a script whose sentences are not found: said once
        note = unsegmented_note(text)
        if note:
            print(f"{name}: {note}", file=sys.stderr)
    if args.output is not None and args.format is None:
        raise BadInput(
            "--output writes an export: add --format (jsonl, csv, langchain, llamaindex)"
        )
    if args.format is not None:
        code = write_export(args, docs, opts)
        for p, m in problems:
            print(f"not read: {p}: {m}", file=sys.stderr)
        return code
    if len(docs) > 1:
        raise BadInput("a folder's chunks are written with --format; or name one document")
    ((chunks, made),) = fitted(docs, args.strategy, opts).values()
    if args.json:
        emit_json([c.to_dict() for c in chunks])
        return 0
    print(
        f"{counted(len(chunks), 'chunk')}, {args.strategy}, size {made.size} {opts.unit_name}, "
        f"overlap {opts.overlap}"
    )
    if opts.limit is not None:
        print(f"{limit_line(opts, [made.size])}; {over_limit_line(chunks, opts, opts.limit)}")
    # people count chunks from 1, as the verdicts do; --json keeps the 0-based index
    rows = [
        (
            c.index + 1,
            c.length,
            c.kind,
            c.page,
            HEADING_SEPARATOR.join(c.heading_path),
            clip(c.body),
        )
        for c in chunks
    ]
    print(_table(["#", "length", "kind", "page", "heading path", "body"], rows))
    return 0


def cmd_survival(args: argparse.Namespace) -> int:
    text = read_text(args.doc)
    if args.limit is not None:  # -- a sweep sets each size itself
        raise BadInput("--limit chooses the size; survival sweeps sizes: leave --limit out")
    sizes = sweep_sizes(args.sizes, args.unit)
    for size in sizes:  # validate every size before the sweep
        if args.overlap_fraction is None:
            chunk_options(args, size)
    if args.overlap_fraction is not None and not 0 <= args.overlap_fraction < 1:
        raise BadInput(
            f"--overlap-fraction must be at least 0 and below 1, got {args.overlap_fraction}"
        )
    extra = sweep_extras(args)
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
        emit_json({"sizes": curve.sizes, "intact": curve.intact})
        return 0
    kept = sum(curve.intact)
    unit = chunk_options(args, sizes[-1]).unit_name if args.unit == "tokens" else args.unit
    print(f"answer intact at {kept} of {len(curve.sizes)} sizes ({args.strategy}, {unit})")
    print(
        _table(
            ["size", "overlap", "intact"],
            list(zip(curve.sizes, curve.overlaps, curve.intact, strict=True)),
        )
    )
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    text = read_text(args.doc)
    opts = chunk_options(args)
    chunks = chunk_with(text, args.strategy, opts)
    judges = retrievers(args, k1=args.k1, b=args.b)
    texts = [indexed_text(c) for c in chunks]
    try:
        judged = [j.score(texts, args.query) for j in judges]
    except ValueError as exc:  # a wordless question, or an embedder that broke its promise
        raise BadInput(str(exc)) from None
    try:
        fts = {f.index: f.rank for f in fts5_scores(chunks, args.query)}
    except Fts5Unavailable as exc:
        raise BadInput(str(exc)) from None
    first = judged[0]
    rows: list[dict[str, Any]] = [  # as --json writes them
        {
            "index": c.index,
            "rank": first.ranks[i],
            "score": first.scores[i],
            "length": c.length,
            "body": c.body,
            "fts5_rank": fts.get(c.index),
            "by_retriever": {
                r.retriever: {"rank": r.ranks[i], "score": r.scores[i]} for r in judged
            },
        }
        for i, c in enumerate(chunks)
    ]
    rows.sort(key=lambda r: r["rank"])
    if args.json:
        emit_json(rows)
        return 0
    bm25 = any(isinstance(j, Bm25Retriever | HybridRetriever) for j in judges)
    print(
        f"{counted(len(chunks), 'chunk')} scored for {args.query!r} by "
        f"{', '.join(r.retriever for r in judged)} "
        f"({f'BM25 k1={args.k1}, b={args.b}; ' if bm25 else ''}rank 1 is best)"
    )
    for note in dict.fromkeys(r.note for r in judged if r.note):  # -- once, not per judge
        print(note)
    many = len(judged) > 1
    heads = ["#"] + [f"{w}: {judge_name(r.retriever)}" for r in judged for w in ("rank", "score")]
    table_rows = []
    for r in rows:
        judged_cells = [x for j in r["by_retriever"].values() for x in (j["rank"], j["score"])]
        lead = [r["index"] + 1, *judged_cells] if many else [r["rank"], r["index"] + 1, r["score"]]
        table_rows.append((*lead, r["length"], r["fts5_rank"], clip(r["body"], 50)))
    print(
        _table(
            [*(heads if many else ["rank", "#", "score"]), "length", "fts5 rank", "body"],
            table_rows,
        )
    )
    return 0


def _chunked(
    args: argparse.Namespace, docs: dict[str, str], opts: ChunkOptions
) -> dict[str, list[Chunk]]:
    """Every document's chunks: here, or on the Dask cluster --scheduler/--workers name."""
    if opts.limit is not None:
        return _chunked_sized(args, docs, opts)[0]
    try:
        if args.strategy == ROUTED:  # -- each type's documents to its chunker (lab.cli.routing)
            return chunk_routed(
                args,
                docs,
                opts,
                lambda some, strategy: chunk_documents(
                    some,
                    strategy,
                    opts,
                    scheduler=args.scheduler,
                    workers=args.workers,
                    quiet=args.quiet,
                ),
            )
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


def _limited(
    args: argparse.Namespace, docs: dict[str, str], opts: ChunkOptions
) -> dict[str, tuple[list[Chunk], ChunkOptions]]:
    """--limit: each document's chunks at the size chosen for it, made here."""
    if args.scheduler or args.workers:
        raise BadInput("--limit chooses each document's size here; leave out --scheduler/--workers")
    return fitted(docs, args.strategy, opts, strategies_of(args, docs))


def _chunked_sized(
    args: argparse.Namespace, docs: dict[str, str], opts: ChunkOptions
) -> tuple[dict[str, list[Chunk]], dict[str, ChunkOptions] | None]:
    """Every document's chunks, and with --limit each document's options at the size
    chosen for it (its floor judges its runts)."""
    if opts.limit is None:
        return _chunked(args, docs, opts), None
    made = _limited(args, docs, opts)
    return {n: c for n, (c, _) in made.items()}, {n: o for n, (_, o) in made.items()}


def _limit_lines(
    chunked: dict[str, list[Chunk]],
    opts: ChunkOptions,
    sizes: dict[str, ChunkOptions] | None,
    imported: dict[str, Any] | None = None,
) -> tuple[list[str], dict[str, Any]]:
    """With --limit: the size chosen and how many chunks pass the limit, as lines and
    as data (none without --limit). Imported chunks are measured on the text their
    pipeline embeds (``imported``'s embedded lengths), not on our indexed text."""
    if opts.limit is None:
        return [], {}
    everything = [c for cs in chunked.values() for c in cs]
    if imported is None:
        lines = [over_limit_line(everything, opts, opts.limit)]
        over = len(over_limit(everything, opts, opts.limit))
    else:
        lengths = [p["embedded_length"] for p in imported["placed"]]
        what = (
            "heading path + each row's text"
            if imported["headings_embedded"]
            else "each row's own text"
        )
        lines = [over_limit_line(everything, opts, opts.limit, lengths, what)]
        over = sum(n > opts.limit for n in lengths)
    data: dict[str, Any] = {"limit": opts.limit, "over_limit": over}
    if sizes:
        lines.insert(0, limit_line(opts, [o.size for o in sizes.values()]))
        data["sizes_chosen"] = {n: o.size for n, o in sizes.items()}
    return lines, data


def cmd_stats(args: argparse.Namespace) -> int:
    docs, problems = read_documents(args.path)
    opts = chunk_options(args)
    chunked, sizes = _chunked_sized(args, docs, opts)
    everything = [c for cs in chunked.values() for c in cs]
    st = length_stats(everything, opts)
    limit_lines, limit_data = _limit_lines(chunked, opts, sizes)
    inv = runt_invariant(chunked, opts, sizes)
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
        **limit_data,
    }
    counts, listed = quality(docs, chunked, opts.effective_max)
    data["quality"] = {
        "counts": counts,
        "chunks": [  # people count chunks from 1
            {"doc": f.doc, "chunk": f.index + 1, "checks": list(f.checks), "first": f.first_line}
            for f in listed
        ],
    }
    drift_lines, code = stats_drift(args, docs, chunked, opts, data)
    types = types_of(args, docs)
    data["by_type"] = stats_by_type(chunked, types, opts, inv)
    if "drift" in data:  # -- which type's documents moved
        data["drift"]["by_type"] = drift_by_type(
            list(docs), data["drift"]["moved_documents"], types
        )
    if args.json:
        emit_json(data)
        return code
    print(
        f"{counted(len(docs), 'document')}, {counted(st.count, 'chunk')} ({args.strategy}, "
        f"size {opts.size} {opts.unit_name}, overlap {opts.overlap})"
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
    for line in limit_lines:
        print(line)
    _print_quality(counts, listed, opts.effective_max)
    for p, m in problems:
        print(f"not read: {p}: {m}")
    for line in drift_lines:
        print(line)
    _print_stats_by_type(data)
    return code


_STATS_COLUMNS = ["documents", "chunks", "median", "max", "runts_excused", "runts_failing"]


def _print_stats_by_type(data: dict[str, Any]) -> None:
    """The figures by document type, and which types drifted (if a baseline was given)."""
    print("by document type:")
    print(by_type_table(data["by_type"], _STATS_COLUMNS))
    drifted = data.get("drift", {}).get("by_type")
    if drifted:
        print(
            "drift by type: "
            + "; ".join(
                f"{t} {len(f['moved'])} of {f['documents']} moved" for t, f in drifted.items()
            )
        )


def _print_quality(counts: dict[str, int], listed: list[Finding], limit: int) -> None:
    """The chunks a reader should look at, document by document: number, what each
    breaks, and its first line."""
    summary = ", ".join(f"{check} {n}" for check, n in counts.items())
    print(f"chunks to read: {len(listed)} ({summary}; the size is {limit} at most)")
    doc = None
    for f in listed:
        if f.doc != doc:
            doc = f.doc
            print(f"  {doc}")
        print(f"    chunk {f.index + 1}: {', '.join(f.checks)}: {clip(f.first_line, 70)}")


def _thresholds(args: argparse.Namespace) -> Thresholds:
    for name in ("min_recall", "min_coverage"):
        value = getattr(args, name)
        if value is not None and not 0 <= value <= 1:
            flag = "--" + name.replace("_", "-")
            raise BadInput(f"{flag} must be a share from 0 to 1, got {value}")
    return Thresholds(args.min_recall, args.min_coverage)


def check_data(args: argparse.Namespace) -> dict[str, Any]:
    """The check's report as data (see lab.report.gate): read, chunk, index, measure."""
    if args.k < 1:
        raise BadInput(f"--k must be a whole number of at least 1, got {args.k}")
    thresholds = _thresholds(args)
    if args.embeds_headings and not args.chunks:
        raise BadInput(
            "--embeds-headings says how imported chunks were embedded; use it with --chunks"
        )
    if args.max_runts is not None and args.max_runts < 0:
        raise BadInput(f"--max-runts must be a whole number of at least 0, got {args.max_runts}")
    docs, problems = read_documents(args.path)
    questions, skipped = gold_questions(args, docs)
    opts = chunk_options(args)
    judges = retrievers(args)
    budget, context = budget_given(args), context_given(args)
    if args.chunks:
        chunked, imported = imported_chunks(args, docs, opts)
        stripped, sizes = None, None
    else:
        docs, questions, stripped = strip_for_check(args, docs, questions, opts)
        (chunked, sizes), imported = _chunked_sized(args, docs, opts), None
    strategy = f"chunks:{args.chunks}" if args.chunks else args.strategy

    try:
        reports = check_judged(
            docs,
            questions,
            strategy,
            opts,
            retrievers=judges,
            k=args.k,
            chunked=chunked,
            # a bar only on a terminal (tqdm's disable=None), never under --quiet
            track=lambda qs: tqdm(qs, "questions", leave=False, disable=args.quiet or None),
            context=context,
            budget=budget,
            baseline=baseline_given(args),
        )
    except AnswerNotFound as exc:  # a gold line that does not fit its document
        raise BadInput(f"{args.gold}: {exc}") from None
    except ValueError as exc:  # a parameter check_judged refuses, an embedder's broken promise
        raise BadInput(str(exc)) from None
    # -- chunks made elsewhere carry no runt excuses: the floor is judged only at
    # -- the size their pipeline was set to, when --size names it
    judged = not args.chunks or args.size is not None
    data = check_report(
        reports,
        runt_invariant(chunked, opts, sizes) if judged else NOT_JUDGED,
        documents=len(docs),
        unreadable=problems,
        skipped=skipped,
        thresholds=thresholds,
        max_runts=args.max_runts,
        stripped=stripped_count(stripped),
    )
    add_fair(args, data, reports)
    data["by_type"] = check_by_type(reports[0], types_of(args, docs), chunked, data["runts"])
    # a gold set made by `gold` is marked, so nobody takes it for a written one
    data["generated_questions"] = sum(1 for q in questions if q.generated)
    limit_lines, limit_data = _limit_lines(chunked, opts, sizes, imported)
    if limit_lines:  # -- the embedder's limit, for the lab's chunks and imported ones alike
        data["embedder_limit"] = {**limit_data, "lines": limit_lines}
    if imported is not None:
        # -- the chunks' pipeline set their size and overlap, not ours: only what was given
        data["options"].update(size=args.size, overlap=args.overlap)
        data["imported"] = imported
        return data
    finish_check(
        data, stripped, small_to_big_for_check(args, docs, questions, chunked, opts, judges)
    )
    return data


# the runt invariant of imported chunks with no size to judge them at
NOT_JUDGED: dict[str, Any] = {
    "floor": None,
    "below_floor": 0,
    "excused": [],
    "failing": [],
    "judged": False,
}


def imported_chunks(
    args: argparse.Namespace, docs: dict[str, str], opts: ChunkOptions
) -> tuple[dict[str, list[Chunk]], dict[str, Any]]:
    """check --chunks: the file's chunks placed in the document (in a folder's, each
    in the document its row names), and what placing them found (rows not placed,
    text in no chunk, text two chunks share)."""
    for flag, given in (
        ("--strip-boilerplate", getattr(args, "strip_boilerplate", False)),
        ("--small-to-big", getattr(args, "small_to_big", None)),
        ("--workers", args.workers),
        ("--scheduler", args.scheduler),
    ):
        if given:
            raise BadInput(f"{flag} chunks the documents itself; leave it out with --chunks")
    try:
        if len(docs) == 1:  # -- one document: every row is its, whatever a row names
            ((name, text),) = docs.items()
            placed = {
                name: import_chunk_file(
                    args.chunks, text, opts.unit, opts.tokenizer, args.embeds_headings
                )
            }
        else:
            placed = import_chunk_folder(
                args.chunks, docs, opts.unit, opts.tokenizer, args.embeds_headings
            )
    except PlacementError as exc:
        raise BadInput(str(exc)) from None
    several = len(placed) > 1
    each = [
        {
            **({"document": n} if several else {}),
            "row": src.where,
            "how": src.how,
            "start": c.overlap_start,
            "end": c.end,
            "heading_path": list(src.heading_path),
            "embedded_length": src.length,  # the pipeline's own text, in the unit asked for
        }
        for n, p in placed.items()
        for c, src in zip(p.chunks, p.sources, strict=True)
    ]
    return {n: p.chunks for n, p in placed.items()}, {
        "file": args.chunks,
        "chunks": sum(len(p.chunks) for p in placed.values()),
        "how": {h: n for h in HOW if (n := sum(c["how"] == h for c in each))},
        "unplaced": sum(len(p.unplaced) for p in placed.values()),
        "unit": opts.unit_name,
        # -- what lengths, limits and ranks are measured on: the row's own text, or
        # -- with its heading path when the pipeline embeds that too
        "headings_embedded": bool(args.embeds_headings),
        "placed": each,
        "findings": [
            f"{n}: {line}" if several else line
            for n, p in placed.items()
            for line in p.report(docs[n], each_overlap=False)
        ],
    }


def cmd_check(args: argparse.Namespace) -> int:
    data = check_data(args)
    fmt = "json" if args.json else args.format
    if fmt == "json":
        emit_json(data)
    elif fmt == "markdown":
        print(
            "\n\n".join(
                [
                    render_markdown(data),
                    *check_extras(data, markdown=True),
                    *_limit_extras(data),
                    *_by_type_lines(data, markdown=True),
                ]
            )
        )
    else:
        *report, verdict = render_text(data).split("\n")  # the verdict stays the last line
        print(
            "\n".join(
                [*report, *check_extras(data), *_limit_extras(data), *_by_type_lines(data), verdict]
            )
        )
    return 0 if data["passed"] else EXIT_CHECK_FAILED


def _by_type_lines(data: dict[str, Any], markdown: bool = False) -> list[str]:
    """The check by document type: a table (fenced in Markdown), and the line naming
    the weakest type."""
    by_type = data.get("by_type") or {}
    if not by_type:
        return []
    k = data["k"]
    figure = f"recall@{k}"
    columns = ["documents", "chunks", "questions", "intact_rate", figure, "precision"]
    columns.append("runts_excused")
    shown = by_type_table(by_type, columns)
    if markdown:
        shown = f"```\n{shown}\n```"
    return [shown, *filter(None, [weakest_line(by_type, figure)])]


def _limit_extras(data: dict[str, Any]) -> list[str]:
    return list(data.get("embedder_limit", {}).get("lines", []))


# -- diff ---------------------------------------------------------------------------------------
DIFF_FORMATS = ("md", "html", "json")


def _diff_configs(args: argparse.Namespace) -> tuple[ChunkConfig, ChunkConfig]:
    """The two sides, an imported one told whether its pipeline embeds headings."""
    try:
        config_a, config_b = parse_config(args.a), parse_config(args.b)
    except ConfigError as exc:
        raise BadInput(str(exc)) from None
    if not args.embeds_headings:
        return config_a, config_b
    if not (config_a.imported or config_b.imported):
        raise BadInput(
            "--embeds-headings says how imported chunks were embedded; use it with a "
            "chunks:FILE side"
        )
    # -- only an imported side has a pipeline of its own
    return (
        replace(config_a, headings_embedded=config_a.imported),
        replace(config_b, headings_embedded=config_b.imported),
    )


def cmd_diff(args: argparse.Namespace) -> int:
    config_a, config_b = _diff_configs(args)
    if args.k < 1:
        raise BadInput(f"--k must be a whole number of at least 1, got {args.k}")
    if args.limit < 0:
        raise BadInput(f"--limit must be a whole number of at least 0, got {args.limit}")
    if args.embedder_limit is not None and args.embedder_limit < 1:
        raise BadInput(
            f"--embedder-limit must be a whole number of at least 1, got {args.embedder_limit}"
        )
    judges = retrievers(args)
    docs, problems = read_documents(args.path)
    gold = None
    if args.gold:
        gold, skipped = gold_questions(args, docs, unknown_doc_is_bad=False)
        if skipped:
            print(f"{args.gold}: {skipped} line(s) name other documents; skipped", file=sys.stderr)
    try:
        report = build_diff(
            docs,
            config_a,
            config_b,
            gold=gold,
            k=args.k,
            limit=args.limit,
            unreadable=problems,
            retrievers=judges,
            embedder_limit=args.embedder_limit,
            budget=budget_given(args),
            context=context_given(args),
        )
    except AnswerNotFound as exc:
        raise BadInput(f"{args.gold}: {exc}") from None
    except ValueError as exc:  # an embedder that broke its promise, an import not placed
        raise BadInput(str(exc)) from None
    if note := title_note(args, docs):
        print(note, file=sys.stderr)
    try:  # -- by document type: chunks per type, and each type's recall on both sides
        by_type, type_lines = diff_by_type(args, docs, config_a, config_b, report, gold, judges)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    if args.format == "json":
        emit_json({**diff_render.to_json(report), "by_type": by_type})
    elif args.format == "html":
        sys.stdout.write(_with_types_html(diff_render.to_html(report), type_lines))
    else:
        sys.stdout.write(diff_render.to_markdown(report) + "\n" + "\n".join(type_lines) + "\n")
    return EXIT_CHECK_FAILED if report.worse else 0


def _with_types_html(page: str, type_lines: list[str]) -> str:
    """The HTML report with the by-type tables at its end, as preformatted text."""
    text = "\n".join(line for line in type_lines if not line.startswith("## "))
    section = f"<section><h2>By document type</h2><pre>{html.escape(text)}</pre></section>\n"
    at = page.rfind("</body>")
    return page + section if at < 0 else page[:at] + section + page[at:]


# -- samples ------------------------------------------------------------------------------------
def cmd_samples(args: argparse.Namespace) -> int:
    """Where the installed package keeps its sample documents and examples, so
    every command can run on them without a checkout."""
    if args.dir:
        print(SAMPLES_DIR)
        return 0
    found = [
        (kind, s)
        for kind, folder in (("sample", SAMPLES_DIR), ("example", EXAMPLES_DIR))
        for s in list_samples(folder)
    ]
    if args.json:
        emit_json(
            [
                {
                    "name": s.name,
                    "kind": kind,
                    "document": str(s.path),
                    "gold": None if s.gold_path is None else str(s.gold_path),
                }
                for kind, s in found
            ]
        )
        return 0
    print(f"sample documents and their gold sets in {SAMPLES_DIR}; examples in {EXAMPLES_DIR}")
    print(
        _table(
            ["name", "kind", "document", "gold"],
            [
                (s.name, kind, s.path.name, None if s.gold_path is None else s.gold_path.name)
                for kind, s in found
            ],
        )
    )
    return 0
