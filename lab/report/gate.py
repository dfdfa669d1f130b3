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

from lab.measure.integrity import IntegrityReport
from lab.report.words import counted
from lab.text import clip

from .tables import md_table, table


@dataclass(frozen=True, slots=True)
class Thresholds:
    """A team's bar at the run's k: None = not gated on it."""

    recall: float | None = None
    coverage: float | None = None


def _keyed(values: dict[int, float]) -> dict[str, float]:
    return {str(k): v for k, v in values.items()}


def check_report(
    report: IntegrityReport,
    runts: dict[str, Any],
    *,
    documents: int,
    unreadable: Sequence[tuple[str, str]] = (),
    skipped: int = 0,
    thresholds: Thresholds = Thresholds(),
) -> dict[str, Any]:
    """Everything the check found, and whether the gate passes."""
    k = report.k
    below = []
    if thresholds.recall is not None and report.recall_at(k) < thresholds.recall:
        below.append(f"recall@{k} {report.recall_at(k):.3f} < {thresholds.recall}")
    if thresholds.coverage is not None and report.coverage_at(k) < thresholds.coverage:
        below.append(f"coverage@{k} {report.coverage_at(k):.3f} < {thresholds.coverage}")
    passages = sum(len(r.passages) for r in report.results)
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
        "recall": _keyed(report.recall),
        "coverage": _keyed(report.coverage),
        "mrr": report.mrr,
        "chunk_does_not_exist": len(report.missing),
        "chunk_ranks_poorly": len(report.ranks_poorly),
        "pairs": [asdict(r) for r in report.results],
        "runts": runts,
        "thresholds": {"recall": thresholds.recall, "coverage": thresholds.coverage},
        "below_threshold": below,
        "unreadable": [{"path": p, "problem": m} for p, m in unreadable],
        "passed": report.passed and not runts["failing"] and not below,
    }


def _headline(data: dict[str, Any]) -> str:
    o = data["options"]
    return (
        f"{counted(data['questions'], 'question')} ({counted(data['passages'], 'passage')}), "
        f"{counted(data['chunks'], 'chunk')} in {counted(data['documents'], 'document')} "
        f"({data['strategy']}, size {o['size']} {o['unit']}, "
        f"overlap {o['overlap']})"
    )


def _rows(data: dict[str, Any], width: int) -> list[tuple[Any, ...]]:
    k = data["k"]
    return [
        (
            clip(r["question"], width),
            r["intact"],
            None if r["chunk_index"] is None else r["chunk_index"] + 1,
            r["rank"],
            r["coverage"][k],
            r["status"],
        )
        for r in data["pairs"]
    ]


def _metrics(data: dict[str, Any]) -> str:
    rec = "  ".join(f"recall@{k} {v:.2f}" for k, v in data["recall"].items())
    cov = "  ".join(f"coverage@{k} {v:.2f}" for k, v in data["coverage"].items())
    return f"intact {data['intact_rate']:.2f}  {rec}  MRR {data['mrr']:.3f}\n{cov}"


def _notes(data: dict[str, Any]) -> list[str]:
    """The lines after the table: what failed and why, what was left out."""
    k, runts = data["k"], data["runts"]
    lines = [
        f"chunk does not exist: {data['chunk_does_not_exist']}   chunk exists but ranks below "
        f"{k}: {data['chunk_ranks_poorly']}"
    ]
    for r in data["pairs"]:
        if r["status"] == "chunk does not exist":
            lines.append(f"  NOT INTACT: {clip(r['question'], 50)}: {r['verdict']}")
    lines.append(
        f"runts: {runts['below_floor']} below the floor, {len(runts['excused'])} excused, "
        f"{len(runts['failing'])} failing"
    )
    for e in runts["failing"]:
        lines.append(
            f"  RUNT: {e['doc']} chunk {e['index'] + 1} is {e['length']}, "
            f"under the floor {runts['floor']}"
        )
    lines += [f"  BELOW THRESHOLD: {b}" for b in data["below_threshold"]]
    if data["skipped_other_documents"]:
        lines.append(
            f"skipped {data['skipped_other_documents']} gold line(s) naming other documents"
        )
    lines += [f"not read: {u['path']}: {u['problem']}" for u in data["unreadable"]]
    return lines


_HEADERS = ("question", "intact", "chunk", "rank", "coverage@k", "status")


def render_text(data: dict[str, Any]) -> str:
    """The report for a terminal; its last line is PASS or FAIL."""
    headers = [h.replace("@k", f"@{data['k']}") for h in _HEADERS]
    parts = [_headline(data), table(headers, _rows(data, 44)), _metrics(data), *_notes(data)]
    parts.append("PASS" if data["passed"] else "FAIL")
    return "\n".join(parts)


def render_markdown(data: dict[str, Any]) -> str:
    """The report for a pull request or a CI summary page."""
    k = data["k"]
    ks = list(data["recall"])
    summary = md_table(
        ["metric", *(f"@{kk}" for kk in ks)],
        [
            ("recall", *(data["recall"][kk] for kk in ks)),
            ("coverage", *(data["coverage"][kk] for kk in ks)),
        ],
    )
    headers = [h.replace("@k", f"@{k}") for h in _HEADERS]
    verdict = "PASS" if data["passed"] else "FAIL"
    return "\n\n".join(
        [
            f"## Index gate: {verdict}",
            _headline(data),
            f"intact {data['intact_rate']:.3f} · passages intact "
            f"{data['passage_intact_rate']:.3f} · MRR {data['mrr']:.3f}",
            summary,
            md_table(headers, _rows(data, 80)),
            "\n".join(f"- {line.strip()}" for line in _notes(data)),
        ]
    )
