"""Routing on the command line: `types DIR`, --strategy routed with a folder's
mapping file, and the by-type breakdowns the check, stats, diff and drift add."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from chunkers import Chunk, ChunkOptions, chunk_with
from chunkers.doctype import DOC_TYPES, Classified
from chunkers.routing import route_for
from lab.inputs.doctypes import MAPPING_FILE, MappingError, document_types, read_mapping
from lab.inputs.gold import GoldQuestion
from lab.measure.by_type import compare_by_type, type_of
from lab.measure.diff import ChunkConfig, DiffReport
from lab.measure.integrity import check_judged
from lab.report.by_type import by_type_table, compare_lines
from lab.report.tables import table
from lab.report.words import counted
from lab.retrieval.interface import Retriever
from lab.text import clip

from .args import BadInput, emit_json, read_documents

ROUTED = "routed"


def types_of(args: argparse.Namespace, docs: dict[str, str]) -> dict[str, Classified]:
    """Each document's type: the folder's mapping file first, then the rules (made
    once per command: every breakdown asks)."""
    found = getattr(args, "_doc_types", None)
    if found is None or set(found) != set(docs):
        folder = Path(args.path)
        try:
            mapping = read_mapping(folder, docs) if folder.is_dir() else {}
        except MappingError as exc:
            raise BadInput(str(exc)) from None
        found = document_types(docs, mapping)
        args._doc_types = found
    return found


def routes(args: argparse.Namespace, docs: dict[str, str]) -> dict[str, list[str]]:
    """strategy -> the documents routed to it."""
    out: dict[str, list[str]] = {}
    for name, c in types_of(args, docs).items():
        out.setdefault(route_for(c.doc_type), []).append(name)
    return out


def strategies_of(args: argparse.Namespace, docs: dict[str, str]) -> dict[str, str] | None:
    """With --strategy routed: each document's own strategy (the mapping file's type
    where it says one); None otherwise."""
    if args.strategy != ROUTED:
        return None
    return {n: route_for(c.doc_type) for n, c in types_of(args, docs).items()}


def chunk_routed(
    args: argparse.Namespace,
    docs: dict[str, str],
    opts: ChunkOptions,
    chunk_some: Any,
) -> dict[str, list[Chunk]]:
    """--strategy routed: each document through its type's chunker (the mapping
    file's type where it says one). ``chunk_some(docs, strategy)`` chunks a group."""
    made: dict[str, list[Chunk]] = {}
    for strategy, names in routes(args, docs).items():
        made.update(chunk_some({n: docs[n] for n in names}, strategy))
    return {n: made[n] for n in docs}


def cmd_types(args: argparse.Namespace) -> int:
    """Each document's type and the evidence, in one line each."""
    docs, problems = read_documents(args.path)
    found = types_of(args, docs)
    if args.json:
        emit_json(
            {
                "documents": [
                    {
                        "document": n,
                        "type": c.doc_type,
                        "uncertain": c.uncertain,
                        "source": c.source,
                        "evidence": c.evidence,
                        "chunker": route_for(c.doc_type),
                    }
                    for n, c in found.items()
                ],
                "unreadable": [{"path": p, "problem": m} for p, m in problems],
            }
        )
        return 0
    counts = {t: n for t in DOC_TYPES if (n := sum(c.doc_type == t for c in found.values()))}
    uncertain = sum(c.uncertain for c in found.values())
    print(
        f"{counted(len(found), 'document')}: "
        + ", ".join(f"{t} {n}" for t, n in counts.items())
        + f" ({uncertain} uncertain, routed as prose); a folder's {MAPPING_FILE} may say a type"
    )
    print(
        table(
            ["document", "type", "chunker", "evidence"],
            [
                (n, c.doc_type, route_for(c.doc_type), clip(c.evidence, 90))
                for n, c in found.items()
            ],
        )
    )
    for p, m in problems:
        print(f"not read: {p}: {m}")
    return 0


def types_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "path",
        metavar="DOC|DIR",
        help=f"a document or a folder of them; the folder's {MAPPING_FILE} may name types",
    )


def _config_chunks(
    args: argparse.Namespace, docs: dict[str, str], config: ChunkConfig
) -> dict[str, list[Chunk]]:
    if config.strategy == ROUTED:  # the folder's mapping file routes a diff's side too
        opts = config.options
        return chunk_routed(
            args, docs, opts, lambda some, s: {n: chunk_with(t, s, opts) for n, t in some.items()}
        )
    return {n: config.chunk(n, t) for n, t in docs.items()}


def diff_by_type(
    args: argparse.Namespace,
    docs: dict[str, str],
    config_a: ChunkConfig,
    config_b: ChunkConfig,
    report: DiffReport,
    gold: list[GoldQuestion] | None,
    judges: list[Retriever],
) -> tuple[dict[str, Any], list[str]]:
    """The diff by document type: chunks per type on each side, and with a gold set
    each type's recall@k under A and B with B - A's paired interval. As JSON and as
    lines of Markdown."""
    types = types_of(args, docs)
    chunks: dict[str, dict[str, int]] = {}
    for d in report.documents:
        row = chunks.setdefault(type_of(types, d.doc), {"documents": 0, "a": 0, "b": 0})
        row["documents"] += 1
        row["a"] += d.a
        row["b"] += d.b
    data: dict[str, Any] = {"chunks": chunks}
    lines = ["## By document type", "", by_type_table(chunks, ["documents", "a", "b"]), ""]
    if gold and not (config_a.imported or config_b.imported):
        reports = [
            check_judged(
                docs,
                gold,
                str(c),
                c.options,
                retrievers=judges[:1],
                k=args.k,
                chunked=_config_chunks(args, docs, c),
            )[0]
            for c in (config_a, config_b)
        ]
        data["gold"] = compare_by_type(reports[0], reports[1], types)
        lines += [*compare_lines(data["gold"], args.k), ""]
    return data, lines
