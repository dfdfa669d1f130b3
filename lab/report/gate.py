"""The index gate's report: one check's figures as data, then as text or Markdown.

``check_report`` gathers what `python -m lab check` decides on (the integrity
report over the gold set, the runt invariant, what was not read or skipped,
optional thresholds) into one JSON-ready dict; ``render_text`` and
``render_markdown`` only lay that dict out, so every format says the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from chunkers.options import unit_name
from lab.measure.integrity import NO_CHUNK, IntegrityReport, status_by
from lab.measure.verdict import Verdict, gate_verdict
from lab.report.words import counted
from lab.retrieval.interface import judge_name
from lab.text import clip

from .tables import md_table, table


@dataclass(frozen=True, slots=True)
class Thresholds:
    """A team's bar at the run's k: None = not gated on it."""

    recall: float | None = None
    coverage: float | None = None


def _keyed(values: dict[int, float]) -> dict[str, float]:
    return {str(k): v for k, v in values.items()}


def _below(report: IntegrityReport, thresholds: Thresholds, who: str) -> list[str]:
    k, below = report.k, []
    if thresholds.recall is not None and report.recall_at(k) < thresholds.recall:
        below.append(f"recall@{k} {report.recall_at(k):.3f} < {thresholds.recall}{who}")
    if thresholds.coverage is not None and report.coverage_at(k) < thresholds.coverage:
        below.append(f"coverage@{k} {report.coverage_at(k):.3f} < {thresholds.coverage}{who}")
    return below


def _judged(report: IntegrityReport) -> dict[str, Any]:
    """One retriever's figures: what ranking decides (intact and "does not exist" do not
    depend on it)."""
    return {
        "retriever": report.retriever,
        "recall": _keyed(report.recall),
        "coverage": _keyed(report.coverage),
        "mrr": report.mrr,
        "chunk_ranks_poorly": len(report.ranks_poorly),
        **_tokens(report),
        "note": report.note,
    }


def _tokens(report: IntegrityReport) -> dict[str, float]:
    """Token efficiency over the top k (lab.measure.efficiency), means over questions."""
    return report.token_figures()


def check_report(
    reports: IntegrityReport | Sequence[IntegrityReport],
    runts: dict[str, Any],
    *,
    documents: int,
    unreadable: Sequence[tuple[str, str]] = (),
    skipped: int = 0,
    thresholds: Thresholds = Thresholds(),
    max_runts: int | None = None,
    stripped: int = 0,
) -> dict[str, Any]:
    """Everything the check found, and whether the gate passes (lab.measure.verdict
    decides; this only gathers what it decides on).

    ``reports`` are the same check judged by one retriever or several (in the
    order the user named them). The top-level recall, coverage, MRR and ranks
    are the first retriever's, as a single-retriever report has always said;
    ``retrievers`` has each one's, and each pair its rank and status by each.
    A threshold holds for every retriever.

    Args:
        runts: the runt invariant over the documents (lab.measure.stats.runt_invariant).
        documents: how many documents were checked.
        unreadable: (path, message) of the documents that could not be read.
        skipped: how many gold lines named documents that were not checked.
        max_runts: the user's allowance of runts with no excuse (``--max-runts``).
        stripped: gold questions whose passage was stripped as boilerplate.

    Returns:
        The JSON report render_text and render_markdown read; ``passed`` is the gate.
    """
    reports = [reports] if isinstance(reports, IntegrityReport) else list(reports)
    report = reports[0]
    k = report.k
    many = len(reports) > 1
    below = [b for r in reports for b in _below(r, thresholds, f" ({r.retriever})" * many)]
    passages = sum(len(r.passages) for r in report.results)
    verdict = gate_verdict(
        missing=len(report.missing),
        strategy=report.strategy,
        runts=len(runts["failing"]),
        max_runts=max_runts,
        below=below,
        stripped=stripped,
    )
    pairs = []
    for n, pair in enumerate(report.results):
        judged = {
            r.retriever: {
                "rank": r.results[n].rank,
                "status": r.results[n].status,
                "coverage": r.results[n].coverage,
            }
            for r in reports
        }
        pairs.append({**asdict(pair), "by_retriever": judged})
    return {
        "strategy": report.strategy,
        "options": asdict(report.options),
        "k": k,
        "documents": documents,
        "chunks": report.chunk_count,
        "questions": len(report.results),
        "passages": passages,
        "skipped_other_documents": skipped,
        "intact_rate": report.intact_rate,
        "passage_intact_rate": report.passage_intact_rate,
        # -- apart: a boundary inside a passage, and a passage whole in no chunk
        "passages_cut_at_boundary": report.passages_cut,
        "passages_whole_in_no_chunk": report.passages_in_no_chunk,
        "recall": _keyed(report.recall),
        "coverage": _keyed(report.coverage),
        "mrr": report.mrr,
        **_tokens(report),
        "chunk_does_not_exist": len(report.missing),
        "chunk_ranks_poorly": len(report.ranks_poorly),
        "retriever": report.retriever,
        "retrievers": [_judged(r) for r in reports],
        "pairs": pairs,
        "runts": runts,
        "thresholds": {"recall": thresholds.recall, "coverage": thresholds.coverage},
        "below_threshold": below,
        "unreadable": [{"path": p, "problem": m} for p, m in unreadable],
        "max_runts": max_runts,
        "failed_rules": list(verdict.failed),
        "warnings": list(verdict.warnings),
        "passed": verdict.passed,
    }


def _headline(data: dict[str, Any]) -> str:
    o = data["options"]
    unit = unit_name(o["unit"], o["tokenizer"])
    if "imported" in data:  # made elsewhere: no size or overlap of ours
        how = f"{data['strategy']}, lengths in {unit}"
    else:
        how = f"{data['strategy']}, size {o['size']} {unit}, overlap {o['overlap']}"
    judges = ", ".join(r["retriever"] for r in data["retrievers"])
    return (
        f"{counted(data['questions'], 'question')} ({counted(data['passages'], 'passage')}), "
        f"{counted(data['chunks'], 'chunk')} in {counted(data['documents'], 'document')} "
        f"({how}), ranked by {judges}"
    )


def _many(data: dict[str, Any]) -> bool:
    return len(data["retrievers"]) > 1


def _headers(data: dict[str, Any]) -> list[str]:
    k = data["k"]
    if not _many(data):
        return ["question", "intact", "chunk", "rank", f"coverage@{k}", "status"]
    ranks = [f"rank: {judge_name(r['retriever'])}" for r in data["retrievers"]]
    return ["question", "intact", "chunk", *ranks, "status"]


def _status(pair: dict[str, Any]) -> str:
    return status_by({label: j["status"] for label, j in pair["by_retriever"].items()})


def _rows(data: dict[str, Any], width: int) -> list[tuple[Any, ...]]:
    k, many = data["k"], _many(data)
    rows = []
    for r in data["pairs"]:
        judged = [j["rank"] for j in r["by_retriever"].values()] if many else [r["rank"]]
        rows.append(
            (
                clip(r["question"], width),
                r["intact"],
                None if r["chunk_index"] is None else r["chunk_index"] + 1,
                *judged,
                *(() if many else (r["coverage"][k],)),
                _status(r),
            )
        )
    return rows


def token_line(figures: dict[str, Any], k: int, unit: str) -> str:
    """Token efficiency of the top k in one line (precision Ω: if recall were perfect)."""
    return (
        f"tokens@{k}: precision {figures['precision']:.3f}  recall {figures['token_recall']:.3f}"
        f"  IoU {figures['iou']:.3f}  precision Ω {figures['precision_omega']:.3f}"
        f"  context {figures['context_cost']:.0f} {unit} a question"
    )


def _metrics(data: dict[str, Any]) -> str:
    lines = []
    o = data["options"]
    unit = unit_name(o["unit"], o["tokenizer"])
    for j in data["retrievers"]:
        rec = "  ".join(f"recall@{k} {v:.2f}" for k, v in j["recall"].items())
        cov = "  ".join(f"coverage@{k} {v:.2f}" for k, v in j["coverage"].items())
        tokens = token_line(j, data["k"], unit)
        if _many(data):
            lines += [f"{j['retriever']}: {rec}  MRR {j['mrr']:.3f}", f"  {cov}", f"  {tokens}"]
        else:
            lines += [f"intact {data['intact_rate']:.2f}  {rec}  MRR {j['mrr']:.3f}", cov, tokens]
    if _many(data):
        lines.insert(0, f"intact {data['intact_rate']:.2f} (whoever ranks)")
    return "\n".join(lines)


def _poorly(data: dict[str, Any]) -> str:
    if not _many(data):
        return str(data["chunk_ranks_poorly"])
    return ", ".join(f"{j['retriever']} {j['chunk_ranks_poorly']}" for j in data["retrievers"])


def _notes(data: dict[str, Any]) -> list[str]:
    """The lines after the table: what failed and why, what was left out."""
    k, runts = data["k"], data["runts"]
    lines = [
        f"chunk does not exist: {data['chunk_does_not_exist']}   chunk exists but ranks below "
        f"{k}: {_poorly(data)}"
    ]
    if "passages_cut_at_boundary" in data:
        lines.append(
            f"passages cut at a boundary: {data['passages_cut_at_boundary']}   whole in no "
            f"chunk: {data['passages_whole_in_no_chunk']}"
        )
    for r in data["pairs"]:
        if r["status"] == NO_CHUNK:
            lines.append(f"  NOT INTACT: {clip(r['question'], 50)}: {r['verdict']}")
    if runts.get("judged", True):
        lines.append(
            f"runts: {runts['below_floor']} below the floor, {len(runts['excused'])} excused, "
            f"{len(runts['failing'])} failing"
        )
    else:
        lines.append(
            "runts: not judged (chunks made elsewhere; give the size their pipeline used "
            "to judge them at its floor)"
        )
    for e in runts["failing"]:
        lines.append(
            f"  RUNT: {e['doc']} chunk {e['index'] + 1} is {e['length']}, "
            f"under the floor {runts['floor']}"
        )
    lines += [f"  BELOW THRESHOLD: {b}" for b in data["below_threshold"]]
    lines += [f"  WARNING: {w}" for w in data.get("warnings", [])]
    if data.get("generated_questions"):
        lines.append(
            f"GENERATED: {data['generated_questions']} of {data['questions']} questions were "
            "made from the documents, not written: they favour lexical retrieval"
        )
    if data["skipped_other_documents"]:
        lines.append(
            f"skipped {data['skipped_other_documents']} gold line(s) naming other documents"
        )
    lines += [f"not read: {u['path']}: {u['problem']}" for u in data["unreadable"]]
    return lines + _imported(data.get("imported"))


SHOWN_FINDINGS = 20


def _imported(imported: dict[str, Any] | None) -> list[str]:
    """What placing imported chunks found: rows not placed, text in no chunk, overlap."""
    if not imported:
        return []
    findings = imported["findings"]
    # -- how they were found: a "normalised" or "partly" chunk's text differs from the document's
    how = ", ".join(f"{n} {h}" for h, n in imported.get("how", {}).items())
    lines = [
        f"imported {imported['file']}: {imported['chunks']} chunk(s) placed in the document"
        f"{f' ({how})' if how else ''}, {imported['unplaced']} not placed",
        "  measured on the text the pipeline embeds ("
        + (
            "each row's text with its heading path (--embeds-headings))"
            if imported.get("headings_embedded")
            else "each row's own text)"
        ),
    ]
    lines += [f"  {f}" for f in findings[:SHOWN_FINDINGS]]
    if len(findings) > SHOWN_FINDINGS:
        lines.append(f"  and {len(findings) - SHOWN_FINDINGS} more (--format json lists all)")
    return lines


def render_text(data: dict[str, Any]) -> str:
    """The report for a terminal; its last line is PASS, or FAIL and the rules that failed."""
    notes = list(dict.fromkeys(r["note"] for r in data["retrievers"] if r["note"]))
    parts = [_headline(data), *notes, table(_headers(data), _rows(data, 44)), _metrics(data)]
    parts += _notes(data)
    parts.append(verdict_line(data))
    return "\n".join(parts)


def verdict_line(data: dict[str, Any]) -> str:
    """PASS, or FAIL: the rules that failed (as lab.measure.verdict worded them)."""
    return Verdict(tuple(data["failed_rules"])).line


def render_markdown(data: dict[str, Any]) -> str:
    """The report for a pull request or a CI summary page."""
    ks = list(data["recall"])
    many = _many(data)
    rows = []
    for j in data["retrievers"]:
        who = f", {j['retriever']}" if many else ""
        rows += [
            (f"recall{who}", *(j["recall"][kk] for kk in ks)),
            (f"coverage{who}", *(j["coverage"][kk] for kk in ks)),
        ]
    summary = md_table(["metric", *(f"@{kk}" for kk in ks)], rows)
    o = data["options"]
    unit = unit_name(o["unit"], o["tokenizer"])
    tokens = "\n".join(
        f"- {token_line(j, data['k'], unit)}" + (f" ({j['retriever']})" if many else "")
        for j in data["retrievers"]
    )
    mrr = " · ".join(
        f"MRR {j['mrr']:.3f}" + (f" ({j['retriever']})" if many else "") for j in data["retrievers"]
    )
    verdict = verdict_line(data)
    return "\n\n".join(
        [
            f"## Index gate: {verdict}",
            _headline(data),
            f"intact {data['intact_rate']:.3f} · passages intact "
            f"{data['passage_intact_rate']:.3f} · {mrr}",
            summary,
            tokens,
            md_table(_headers(data), _rows(data, 80)),
            "\n".join(f"- {line.strip()}" for line in _notes(data)),
        ]
    )
