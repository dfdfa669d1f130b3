"""The three lessons' reports for a terminal and for Markdown: small-to-big beside the
check, the boilerplate found (and what stripping set aside), and drift against a
baseline. Data in (the measurements' JSON), text out."""

from __future__ import annotations

from typing import Any

from lab.measure.boilerplate import Report
from lab.measure.drift import DriftReport, config_label
from lab.measure.small_to_big import ARMS, PARENTS
from lab.text import clip

from .tables import md_table, table


def _pct(share: float) -> str:
    return f"{share:.0%}"


# --------------------------------------------------------------------------- small-to-big


def small_to_big_lines(r: dict[str, Any], *, markdown: bool = False) -> list[str]:
    """The per-question table and the overall figures of one small-to-big run
    (SmallToBigReport.to_json)."""
    unit, k, n = r["unit"], r["k"], r["counts"]
    head = (
        f"small-to-big, ranked by {r['retriever']}: children {r['children']}, "
        f"parents {r['parents']} (a parent over "
        f"{r['cap']} {unit} is sent as a window), top {k} children; plain chunks {r['plain']}; "
        f"{n['chunks']} chunks, {n['children']} children, {n['parents']} parents"
    )
    headers = ["question", *ARMS, "duplicates removed"]
    rows = [
        (
            clip(q["question"], 60 if markdown else 36),
            *(
                f"{'found' if q[a]['found'] else 'missed'} {q[a]['coverage']:.2f} {q[a]['context']}"
                for a in ARMS
            ),
            q["duplicates_removed"],
        )
        for q in r["questions"]
    ]
    o = r["overall"]
    overall = [
        (arm, o[arm]["recall"], o[arm]["coverage"], round(o[arm]["mean_context"])) for arm in ARMS
    ]
    overall_headers = ["delivered", f"recall@{k}", f"coverage@{k}", f"mean context ({unit})"]
    without, with_ = r["mean_context_without_dedupe"], o[PARENTS]["mean_context"]
    saved = _pct((without - with_) / without) if without else "0%"
    dedupe = (
        f"parent dedupe removed {r['duplicates_removed']} duplicate parent(s): mean context "
        f"{without:,.0f} -> {with_:,.0f} {unit} ({saved} saved)"
    )
    cell_note = f"each cell: found or missed, coverage, context sent in {unit}"
    if markdown:
        return [
            "## Small-to-big",
            head,
            md_table(overall_headers, overall),
            dedupe,
            cell_note,
            md_table(headers, rows),
        ]
    return [head, f"({cell_note})", table(headers, rows), table(overall_headers, overall), dedupe]


# --------------------------------------------------------------------------- boilerplate


def boilerplate_rows(r: Report, width: int = 50) -> list[tuple[Any, ...]]:
    return [
        (
            f"{f.where} ({f.scope})",
            f"{f.units} of {f.out_of} {f.scope}",
            f.chars,
            f.chunks_mostly,
            clip(f.text, width),
        )
        for f in r.findings
    ]


BOILERPLATE_HEADERS = ["where", "carried by", "chars", "chunks mostly of it", "text"]


def boilerplate_headline(r: Report) -> str:
    o = r.options
    config = f"{r.strategy}, size {o.size} {o.unit}" if o else r.strategy
    share = r.boilerplate_chars / r.chars if r.chars else 0.0
    return (
        f"{len(r.findings)} repeated block(s) in {r.documents} document(s): "
        f"{r.boilerplate_chars:,} of {r.chars:,} characters ({_pct(share)}) are boilerplate; "
        f"{r.chunks_mostly} of {r.chunks} chunks consist mostly of it ({config})"
    )


def boilerplate_text(r: Report) -> str:
    lines = [boilerplate_headline(r)]
    if r.findings:
        lines.append(table(BOILERPLATE_HEADERS, boilerplate_rows(r)))
    lines += r.notes
    return "\n".join(lines)


def stripped_lines(data: dict[str, Any]) -> list[str]:
    """What --strip-boilerplate did to the check: the text taken out, and the gold
    questions set aside because their passage lay in it."""
    s = data["stripped"]
    lines = [
        f"boilerplate stripped before chunking: {s['removed_chars']:,} characters "
        f"({s['findings']} repeated block(s))"
    ]
    for a in s["gold_in_stripped"]:
        where = f" (gold line {a['line']})" if a["line"] else ""
        lines.append(f"  STRIPPED: {clip(a['question'], 50)}{where}: {a['reason']}")
    return lines


# --------------------------------------------------------------------------- drift


def drift_lines(r: DriftReport, name: str) -> list[str]:
    lines = [
        f"against baseline {name} ({config_label(r.baseline.config)}): a length or count moves "
        f"past {r.max_change:.0%} of its baseline value, a rate past "
        f"{100 * r.max_rate_change:g} points"
    ]
    if r.moved:
        lines.append(
            table(
                ["level", "name", "figure", "baseline", "now", "change"],
                [(m.level, m.name, m.figure, m.before, m.now, m.change) for m in r.moved],
            )
        )
    for what, names in (("new", r.new), ("gone", r.gone)):
        for level, found in names.items():
            if found:
                lines.append(f"{what} {level}(s): {', '.join(found)}")
    src, docs = r.moved_names("source"), r.moved_names("document")
    if r.drifted:
        lines.append(
            f"DRIFT: {len(src)} source(s) ({', '.join(src) or 'none'}) and {len(docs)} "
            f"document(s) ({', '.join(docs) or 'none'}) moved"
        )
    else:
        lines.append("no drift: every source and document within the thresholds")
    return lines
