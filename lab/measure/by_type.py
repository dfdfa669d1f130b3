"""Every figure by document type, so "which type is failing?" is one line.

A routed corpus mixes FAQs, API references, transcripts, contracts and prose;
one average over all of it hides a type that fails while the others pass. These
functions split what the check, the stats, the diff and the drift already
measured by each document's type (lab.inputs.doctypes), and give the paired
interval that says whether one configuration beats another by more than the
noise of which questions happened to be asked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from statistics import mean, median
from typing import Any

from chunkers import ChunkOptions, chunk_with
from chunkers.doctype import DOC_TYPES, Classified
from chunkers.model import Chunk
from chunkers.routing import route_for
from lab.inputs.gold import GoldQuestion
from lab.retrieval.interface import Retriever

from .integrity import IntegrityReport, check_judged
from .paired import found_within, paired_difference


def _order(types: Mapping[str, Classified]) -> list[str]:
    """The types present, in the classifier's order."""
    present = {t.doc_type for t in types.values()}
    return [t for t in DOC_TYPES if t in present]


def type_of(types: Mapping[str, Classified], doc: str) -> str:
    found = types.get(doc)
    return found.doc_type if found is not None else "prose"


def report_for(
    report: IntegrityReport, types: Mapping[str, Classified], doc_type: str
) -> IntegrityReport:
    """The report over one type's questions only."""
    results = [r for r in report.results if type_of(types, r.doc) == doc_type]
    return replace(report, results=results)


def check_by_type(
    report: IntegrityReport,
    types: Mapping[str, Classified],
    chunked: Mapping[str, Sequence[Chunk]],
    runts: Mapping[str, Any],
) -> dict[str, dict[str, Any]]:
    """The check's figures for each type: its documents, chunks, questions, answers
    intact, recall@k, MRR, the two kinds of miss, and its runts (excused and not)."""
    out: dict[str, dict[str, Any]] = {}
    k = report.k
    for t in _order(types):
        names = [n for n in chunked if type_of(types, n) == t]
        sub = report_for(report, types, t)
        out[t] = {
            "documents": len(names),
            "chunks": sum(len(chunked[n]) for n in names),
            "questions": len(sub.results),
            "intact_rate": sub.intact_rate if sub.results else None,
            f"recall@{k}": sub.recall_at(k) if sub.results else None,
            "mrr": sub.mrr if sub.results else None,
            "precision": sub.precision if sub.results else None,
            "chunk_does_not_exist": len(sub.missing),
            "chunk_ranks_poorly": len(sub.ranks_poorly),
            "runts_excused": sum(type_of(types, e["doc"]) == t for e in runts.get("excused", [])),
            "runts_failing": sum(type_of(types, e["doc"]) == t for e in runts.get("failing", [])),
        }
    return out


def stats_by_type(
    chunked: Mapping[str, Sequence[Chunk]],
    types: Mapping[str, Classified],
    opts: ChunkOptions,
    runts: Mapping[str, Any],
) -> dict[str, dict[str, Any]]:
    """The length statistics for each type: chunks, per document, median, mean, max,
    over the effective maximum, and runts (excused and not)."""
    out: dict[str, dict[str, Any]] = {}
    for t in _order(types):
        names = [n for n in chunked if type_of(types, n) == t]
        lengths = [c.length for n in names for c in chunked[n]]
        out[t] = {
            "documents": len(names),
            "chunks": len(lengths),
            "chunks_per_document": len(lengths) / len(names) if names else 0.0,
            "median": median(lengths) if lengths else None,
            "mean": mean(lengths) if lengths else None,
            "max": max(lengths) if lengths else None,
            "over_effective_max": sum(n > opts.effective_max for n in lengths),
            "runts_excused": sum(type_of(types, e["doc"]) == t for e in runts.get("excused", [])),
            "runts_failing": sum(type_of(types, e["doc"]) == t for e in runts.get("failing", [])),
        }
    return out


def weakest_line(by_type: Mapping[str, Mapping[str, Any]], figure: str) -> str:
    """One line: each type's ``figure`` (a share), lowest first, and which type is failing.

    "" when no type has the figure (no gold questions)."""
    rated = [(t, f[figure]) for t, f in by_type.items() if f.get(figure) is not None]
    if not rated:
        return ""
    rated.sort(key=lambda tf: (tf[1], tf[0]))
    shown = ", ".join(f"{t} {v:.0%}" for t, v in rated)
    weakest, low = rated[0]
    if len(rated) == 1 or low == rated[-1][1]:
        return f"by type ({figure}): {shown}; no type is weaker than another"
    return f"by type ({figure}): {shown}; weakest: {weakest}"


def hits(report: IntegrityReport, k: int | None = None) -> list[float]:
    """Each question's outcome: 1 when a chunk holding its answer ranks in the top k."""
    k = report.k if k is None else k
    return found_within([r.rank for r in report.results], k)


def compare_by_type(
    a: IntegrityReport, b: IntegrityReport, types: Mapping[str, Classified]
) -> dict[str, dict[str, Any]]:
    """Two configurations' recall@k for each type, and B - A with its paired
    interval; "all" is every question together."""
    k = a.k
    out: dict[str, dict[str, Any]] = {}
    for t in [*_order(types), "all"]:
        sa = a if t == "all" else report_for(a, types, t)
        sb = b if t == "all" else report_for(b, types, t)
        if not sa.results:
            continue
        paired = paired_difference(hits(sa, k), hits(sb, k))
        diff, low, high = paired.difference, paired.low, paired.high
        out[t] = {
            "questions": len(sa.results),
            f"a_recall@{k}": sa.recall_at(k),
            f"b_recall@{k}": sb.recall_at(k),
            "a_intact_rate": sa.intact_rate,
            "b_intact_rate": sb.intact_rate,
            # the share of the top k's tokens that answer: what a type's grain buys
            "a_precision": sa.precision,
            "b_precision": sb.precision,
            "change": diff,
            "interval": [low, high],
            # worse beyond the noise only when the whole interval lies below zero
            "worse": high < 0,
        }
    return out


def drift_by_type(
    documents: Sequence[str], moved: Sequence[str], types: Mapping[str, Classified]
) -> dict[str, dict[str, Any]]:
    """For each type: how many documents, and which of them moved past a threshold
    against the baseline (a type that drifts shows as one line)."""
    out: dict[str, dict[str, Any]] = {}
    for t in _order(types):
        names = [n for n in documents if type_of(types, n) == t]
        out[t] = {"documents": len(names), "moved": [n for n in moved if type_of(types, n) == t]}
    return out


def routed_chunks(
    docs: Mapping[str, str],
    types: Mapping[str, Classified],
    opts: ChunkOptions,
    switched: Mapping[str, str] | None = None,
) -> dict[str, list[Chunk]]:
    """Each document through its type's chunker; ``switched`` sends a type elsewhere."""
    return {n: chunk_with(t, route_for(type_of(types, n), switched), opts) for n, t in docs.items()}


def routing_comparison(
    docs: Mapping[str, str],
    questions: Sequence[GoldQuestion],
    types: Mapping[str, Classified],
    strategy: str,
    opts: ChunkOptions,
    retriever: Retriever,
    k: int,
    switched: Mapping[str, str] | None = None,
) -> dict[str, dict[str, Any]]:
    """The same questions under one strategy, routed, and routed with ``switched``
    types sent to other chunkers: recall@k for each type, routed against the one
    strategy with its paired interval, and whether the switch moved the type's row.

    Returns:
        type -> its figures ("all": every question), as compare_by_type's plus
        ``switched_recall`` and ``moved``.
    """
    docs = dict(docs)

    def judged(chunked: dict[str, list[Chunk]], name: str) -> IntegrityReport:
        return check_judged(
            docs, list(questions), name, opts, retrievers=[retriever], k=k, chunked=chunked
        )[0]

    one = judged({n: chunk_with(t, strategy, opts) for n, t in docs.items()}, strategy)
    routed = judged(routed_chunks(docs, types, opts), "routed")
    out = compare_by_type(one, routed, types)
    swapped = routed
    if switched:
        swapped = judged(routed_chunks(docs, types, opts, switched), "routed, switched")
    for t, row in out.items():
        sub_r = routed if t == "all" else report_for(routed, types, t)
        sub_s = swapped if t == "all" else report_for(swapped, types, t)
        row["switched_recall"] = sub_s.recall_at(k)
        row["moved"] = hits(sub_s, k) != hits(sub_r, k) or [r.rank for r in sub_s.results] != [
            r.rank for r in sub_r.results
        ]
    return out
