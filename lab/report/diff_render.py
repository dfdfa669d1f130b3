"""A DiffReport for people (Markdown, HTML) and for machines (JSON).

The figures are built once as plain rows (``figures``), which the Markdown
and HTML reports and the app's compare lab all show, so every view reads the
same numbers. Chunk text is shown exactly as written: HTML-escaped inside
``<pre>`` (in the Markdown report too, since a Markdown table cell cannot hold
line breaks), and other text from the documents is backslash-escaped in
Markdown so a file name can never become markup.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from chunkers import Chunk
from chunkers.options import unit_name
from lab.measure.atomic import KINDS, KindCount
from lab.measure.diff import (
    ChangedPair,
    DiffReport,
    GoldSummary,
    RankDifference,
    Side,
    rank_differences,
)

from .fair_render import equal_cost_json, equal_cost_rows, equal_cost_said, equal_cost_title
from .markup import md_escape

WORSE = "✗ worse"
BETTER = "✓ better"


@dataclass(frozen=True, slots=True)
class Figure:
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]


def _rate(rate: Fraction | float) -> str:
    return f"{float(rate):.1%}"


def _count(c: KindCount) -> str:
    return f"{c.violations} of {c.out_of} ({_rate(c.rate)})"


def _compare(a: Fraction | float, b: Fraction | float, higher_is_worse: bool) -> str:
    if a == b:
        return ""
    return WORSE if (b > a) == higher_is_worse else BETTER


def _number(v: float | int | None) -> str:
    if v is None:
        return "-"
    return f"{v:,.1f}" if isinstance(v, float) and not v.is_integer() else f"{int(v):,}"


def size_rows(report: DiffReport) -> list[tuple[str, str, str]]:
    a, b = report.a.sizes, report.b.sizes
    rows = [
        ("chunks", _number(a.count), _number(b.count)),
        ("mean", _number(a.mean), _number(b.mean)),
    ]
    rows.append(("min", _number(a.min), _number(b.min)))
    for p in a.percentiles or b.percentiles:
        label = "median" if p == 50 else f"p{p}"
        rows.append((label, _number(a.percentiles.get(p)), _number(b.percentiles.get(p))))
    rows.append(("max", _number(a.max), _number(b.max)))
    rows.append(("below floor", _number(a.below_floor), _number(b.below_floor)))
    limit, over_a, over_b = report.embedder_limit, report.a.over_limit, report.b.over_limit
    if limit is not None and over_a is not None and over_b is not None:
        rows.append(
            (
                f"over the embedder's limit ({limit:,})",
                f"{over_a:,} of {a.count:,}",
                f"{over_b:,} of {b.count:,}",
            )
        )
    return rows


NO_CHUNK_ROW = "{kind}: whole in no chunk"  # of the cut ones, what overlap did not repair


def violation_rows(report: DiffReport) -> list[tuple[str, str, str, str]]:
    """Each kind's violations; under a kind cut at a boundary (code, sentences), how
    many of those cut no chunk holds whole, its overlap prefix included."""
    va, vb = report.a.violations, report.b.violations
    rows = []
    for kind in KINDS:
        ca, cb = va.counts[kind], vb.counts[kind]
        rows.append((kind, _count(ca), _count(cb), _compare(ca.rate, cb.rate, True)))
        if kind in va.whole_in_no_chunk or kind in vb.whole_in_no_chunk:
            la, lb = va.whole_in_no_chunk.get(kind, 0), vb.whole_in_no_chunk.get(kind, 0)
            rows.append(
                (
                    NO_CHUNK_ROW.format(kind=kind),
                    _count(KindCount(la, ca.out_of)),
                    _count(KindCount(lb, cb.out_of)),
                    _compare(Fraction(la, ca.out_of or 1), Fraction(lb, cb.out_of or 1), True),
                )
            )
    rows.append(("all elements", _count(va.total), _count(vb.total), ""))
    return rows


def gold_rows(report: DiffReport) -> list[tuple[str, str, str, str]]:
    """Intact share once (no retriever changes it), then recall@k and MRR for each
    retriever, named after the measure when there are several."""
    ga, gb = report.a.gold, report.b.gold
    if ga is None or gb is None:
        return []
    rows = [
        (
            "intact share",
            f"{ga.intact} of {ga.questions} ({_rate(ga.intact_rate)})",
            f"{gb.intact} of {gb.questions} ({_rate(gb.intact_rate)})",
            _compare(ga.intact, gb.intact, higher_is_worse=False),
        )
    ]
    pairs = list(zip(report.a.judged, report.b.judged, strict=True)) or [(ga, gb)]
    for ja, jb in pairs:
        who = f" ({ja.retriever})" if len(pairs) > 1 else ""
        for k in ja.recall:
            rows.append(
                (
                    f"recall@{k}{who}",
                    f"{ja.recall[k]:.3f}",
                    f"{jb.recall[k]:.3f}",
                    _compare(ja.recall[k], jb.recall[k], higher_is_worse=False),
                )
            )
        rows.append(
            (f"MRR{who}", f"{ja.mrr:.3f}", f"{jb.mrr:.3f}", _compare(ja.mrr, jb.mrr, False))
        )
        rows += _token_rows(ja, jb, who, (_unit(report.a), _unit(report.b)))
    return rows


# token efficiency beside recall, each side counted in its own unit:
# (key, label, format, higher is worse)
TOKEN_ROWS = (
    ("precision", "token precision@{k}", "{:.3f}", False),
    ("iou", "token IoU@{k}", "{:.3f}", False),
    ("precision_omega", "precision if recall were perfect", "{:.3f}", False),
    ("context_cost", "context a question costs@{k}", "{:,.0f} {unit}", True),
)


def _unit(side: Side) -> str:
    o = side.config.options
    return unit_name(o.unit, o.tokenizer)


def _token_rows(
    ja: GoldSummary, jb: GoldSummary, who: str, units: tuple[str, str]
) -> list[tuple[str, str, str, str]]:
    if not ja.tokens or not jb.tokens:
        return []
    same = units[0] == units[1]  # a cost in words is no better than one in characters
    return [
        (
            label.format(k=ja.k) + who,
            form.format(ja.tokens[key], unit=units[0]),
            form.format(jb.tokens[key], unit=units[1]),
            _compare(ja.tokens[key], jb.tokens[key], worse) if same or not worse else "",
        )
        for key, label, form, worse in TOKEN_ROWS
    ]


def document_rows(report: DiffReport) -> list[tuple[str, int, int, str]]:
    """Chunk counts per document, the biggest change first."""
    docs = sorted(report.documents, key=lambda d: (-abs(d.b - d.a), d.doc))
    return [(d.doc, d.a, d.b, f"{d.b - d.a:+d}" if d.b != d.a else "0") for d in docs]


def figures(report: DiffReport) -> list[Figure]:
    """The report's tables, in reading order (the gold table only with a gold set)."""
    out = [
        Figure(
            "Chunk sizes",
            ("", f"A ({report.a.config.unit})", f"B ({report.b.config.unit})"),
            size_rows(report),
        ),
        Figure(
            "Atomic-element violations",
            ("element", "A", "B", "B against A"),
            violation_rows(report),
        ),
    ]
    gold = gold_rows(report)
    if gold:
        k = report.a.gold.k if report.a.gold else 0
        judges = ", ".join(g.retriever for g in report.a.judged if g.retriever)
        title = f"Gold set (ranks within k={k}{f', by {judges}' if judges else ''})"
        out.append(Figure(title, ("", "A", "B", "B against A"), gold))
    if report.equal_cost is not None and equal_cost_rows(report.equal_cost):
        e = report.equal_cost
        out.append(Figure(equal_cost_title(e), ("", "A", "B", "B against A"), equal_cost_rows(e)))
    out.append(
        Figure("Chunks per document", ("document", "A", "B", "change"), document_rows(report))
    )
    return out


def verdict(report: DiffReport) -> str:
    """One line: whether B is worse than A, and why (DiffReport.regressions)."""
    if report.worse:
        return "B is worse than A: " + "; ".join(report.regressions)
    return "B is not worse than A on any atomic element" + (
        " nor on intact share" if report.a.gold else ""
    )


# -- "what should I change?": one paragraph, each claim a figure the diff computed ------
def _sides(report: DiffReport) -> tuple[tuple[str, Side], tuple[str, Side]]:
    return ("A", report.a), ("B", report.b)


def _of(a: KindCount, b: KindCount) -> str:
    """ "1 vs 34 of 751"; each side's own total when they differ (chunk-counted kinds)."""
    if a.out_of == b.out_of:
        return f"{a.violations} vs {b.violations} of {a.out_of:,}"
    return f"{a.violations} of {a.out_of:,} vs {b.violations} of {b.out_of:,}"


def _whole(report: DiffReport) -> tuple[str | None, str]:
    """Which side keeps answers whole (intact answers; with no gold set, or a tie on
    them, atomic elements), and the figures that say so."""
    ga, gb = report.a.gold, report.b.gold
    va, vb = report.a.violations, report.b.violations
    ta, tb = va.total, vb.total
    # -- the kind the two differ on most names what is kept whole
    kind = max(KINDS, key=lambda k: abs(va.counts[k].violations - vb.counts[k].violations))
    ka, kb = va.counts[kind], vb.counts[kind]
    figures = [f"atomic-element violations {_of(ta, tb)}"]
    if ka.violations != kb.violations:
        lost = ""
        if kind in va.whole_in_no_chunk and kind in vb.whole_in_no_chunk:
            la, lb = va.whole_in_no_chunk[kind], vb.whole_in_no_chunk[kind]
            lost = f" (whole in no chunk {la} vs {lb})"
        figures.append(f"{kind} {_of(ka, kb)}{lost}")
    said = "; ".join(figures)
    by_elements = None
    if ta.violations != tb.violations:
        by_elements = "A" if ta.violations < tb.violations else "B"
    if ga and gb:
        answers = f"intact answers {ga.intact} vs {gb.intact} of {ga.questions}"
        if ga.intact != gb.intact:
            winner = "A" if ga.intact > gb.intact else "B"
            return winner, f"{winner} keeps answers whole ({answers}; {said})"
        # -- a tie on answers: elements may still differ, but no answer was lost to them
        if by_elements is None:
            return None, f"tie on keeping answers whole ({answers}; {said})"
        return by_elements, (
            f"tie on intact answers ({ga.intact} vs {gb.intact} of {ga.questions}); "
            f"{by_elements} keeps more elements whole "
            f"({said})"
        )
    if by_elements is None:
        return None, f"A and B keep answers whole alike ({said})"
    return by_elements, f"{by_elements} keeps answers whole ({said})"


def _signed(x: float) -> str:
    return f"{x:+.3f}"


def _interval(d: RankDifference) -> str:
    p = d.paired
    return f"B − A {_signed(p.difference)}, 95 % interval {_signed(p.low)} to {_signed(p.high)}"


def _unsure(d: RankDifference) -> str:
    """What a difference the questions cannot settle would need."""
    more = d.paired.more_questions
    if more is None:
        return "no number of questions would, while they score alike"
    return f"about {more:,} more questions would, were the difference to hold"


def _ranked(report: DiffReport) -> tuple[str | None, str]:
    """Which side ranks answers higher, judge by judge: by MRR, when its paired
    bootstrap interval over the questions clears zero; else a tie, or the questions
    cannot tell."""
    if report.a.gold is None or report.b.gold is None:
        return None, (
            "with no gold set (--gold) it cannot judge which ranks answers higher "
            "(MRR, recall@k) nor how many answers stay intact"
        )
    pairs = list(zip(report.a.judged, report.b.judged, strict=True)) or [
        (report.a.gold, report.b.gold)
    ]
    winners: set[str | None] = set()
    said: list[str] = []
    for ja, jb in pairs:
        diffs = {d.figure: d for d in rank_differences(ja, jb)}
        run_k = diffs.get(f"recall@{ja.k}")
        # -- recall at the k asked for (the table has the others)
        recall = "".join(
            f", recall@{k} {ja.recall[k]:.3f} vs {jb.recall[k]:.3f}" for k in ja.recall if k == ja.k
        )
        if run_k is not None and ja.recall[ja.k] != jb.recall[ja.k]:
            recall += f" ({_interval(run_k)})"
        who = ja.retriever or "the retriever"
        mrr = diffs.get("MRR")
        figures = f"MRR {ja.mrr:.3f} vs {jb.mrr:.3f}"
        if ja.mrr == jb.mrr:
            winners.add(None)
            said.append(f"tie on ranking by {who}: {figures}{recall}")
        elif mrr is not None and mrr.paired.spans_zero:
            winners.add(None)
            n = mrr.paired.questions
            said.append(
                f"by {who}, the {n} questions cannot tell A and B apart: {figures} "
                f"({_interval(mrr)}){recall}; {_unsure(mrr)}"
            )
        else:
            w = "A" if ja.mrr > jb.mrr else "B"
            winners.add(w)
            sure = f" ({_interval(mrr)})" if mrr is not None else ""
            said.append(f"{w} ranks answers higher by {who}: {figures}{sure}{recall}")
    return (winners.pop() if len(winners) == 1 else None), "; ".join(said)


def _over(side: Side) -> int:
    return side.over_limit or 0


def _over_share(side: Side) -> float:
    """The share of a side's chunks over the embedder's limit (sides differ in count)."""
    return _over(side) / side.sizes.count if side.sizes.count else 0.0


def _limit_said(report: DiffReport) -> str:
    """The embedder's limit, weighed: a chunk over it is truncated, text the index never
    sees ("" when no limit was given)."""
    limit = report.embedder_limit
    if limit is None or report.a.over_limit is None or report.b.over_limit is None:
        return ""
    counts = f"A {_over(report.a):,} of {report.a.sizes.count:,}, B {_over(report.b):,} of " + (
        f"{report.b.sizes.count:,}"
    )
    if not _over(report.a) and not _over(report.b):
        return f"No chunk passes the embedder's limit ({limit:,}). "
    return (
        f"Over the embedder's limit ({limit:,}): {counts}; the embedder truncates them, "
        "and their tails are text the index never sees. "
    )


def _cost(report: DiffReport) -> str:
    parts = []
    for name, side in _sides(report):
        s = side.sizes
        mean = f", mean {_number(s.mean)} {_unit(side)}" if s.mean is not None else ""
        cost = side.gold.tokens.get("context_cost") if side.gold else None
        per_q = (
            f", {cost:,.0f} {_unit(side)} of context a question@{side.gold.k}"
            if side.gold and cost is not None
            else ""
        )
        parts.append(f"{name} makes {s.count:,} chunks{mean}{per_q}")
    return "; ".join(parts)


def _truncates(report: DiffReport, name: str) -> str:
    """A caution when side ``name`` has chunks over the embedder's limit ("" if none)."""
    side = report.a if name == "A" else report.b
    if report.embedder_limit is None or not _over(side):
        return ""
    return (
        f", after bringing its {_over(side):,} chunks over the embedder's limit under it "
        f"(--limit {report.embedder_limit:,})"
    )


def _next(report: DiffReport, whole: str | None, ranked: str | None) -> str:
    gold = report.a.gold is not None
    if not gold:
        if whole is None:
            return "give a gold set (--gold) to tell them apart"
        return (
            f"prefer {whole} on structure, and rerun with --gold to learn whether it ranks as well"
        )
    if whole and ranked and whole != ranked:
        keep, rank = dict(_sides(report))[whole], dict(_sides(report))[ranked]
        c = rank.config
        size = c.size if not c.imported else round(rank.sizes.mean or 1)
        overlap = c.overlap if not c.imported and c.overlap < size else 0
        strategy = keep.config.strategy if not keep.config.imported else "structural"
        if strategy == c.strategy:
            strategy = "structural" if strategy != "structural" else "sentence"
        return (
            f"try {ranked}'s size with a split that keeps elements whole, "
            f"{strategy}:{c.unit}:{size}:{overlap}, and diff it against {ranked}"
        )
    if whole is None and ranked is None and _favours(report, "A") and _favours(report, "B"):
        return "the judges disagree: weigh the one your system retrieves with"
    best = whole or ranked
    if best is None and _over_share(report.a) != _over_share(report.b):
        best = "A" if _over_share(report.a) < _over_share(report.b) else "B"
        return f"take {best}: it loses less text to the embedder's limit, the rest is a tie"
    if best:
        other = "B" if best == "A" else "A"
        caution = _truncates(report, best)
        if _favours(report, other):
            return (
                f"take {best}{caution}, and check that what {other} wins above does not "
                "matter to you"
            )
        return f"take {best}{caution}: {other} wins on neither wholeness nor ranking"
    ca, cb = report.a.sizes.count, report.b.sizes.count
    if ca == cb:
        return "they are even on what this diff measures, at the same count of chunks"
    fewer = "A" if ca < cb else "B"
    return f"they are even on what this diff measures: take the one with fewer chunks ({fewer})"


def _favours(report: DiffReport, name: str) -> bool:
    """Whether any figure of the paragraph favours side ``name``: fewer violations,
    more intact answers, fewer chunks over the embedder's limit, or a higher MRR by
    some judge that the questions can tell (its interval clears zero)."""
    me, other = (report.a, report.b) if name == "A" else (report.b, report.a)
    if me.violations.total.violations < other.violations.total.violations:
        return True
    if me.gold and other.gold and me.gold.intact > other.gold.intact:
        return True
    if report.embedder_limit is not None and _over_share(me) < _over_share(other):
        return True
    for ja, jb in zip(report.a.judged, report.b.judged, strict=True):
        m, o = (ja, jb) if name == "A" else (jb, ja)
        diffs = {d.figure: d for d in rank_differences(ja, jb)}
        mrr = diffs.get("MRR")
        if m.mrr > o.mrr and (mrr is None or not mrr.paired.spans_zero):
            return True
    return False


def advice(report: DiffReport) -> str:
    """What should I change? One paragraph: who keeps answers whole, who ranks
    them higher and by which judge (and whether the questions can tell), what the
    embedder's limit cuts, what each costs, and what to try next."""
    whole, whole_said = _whole(report)
    ranked, ranked_said = _ranked(report)
    return (
        f"Figures read A vs B. {whole_said[0].upper()}{whole_said[1:]}. "
        f"{ranked_said[0].upper()}{ranked_said[1:]}. "
        f"{_limit_said(report)}{_cost(report)}. "
        f"Next: {_next(report, whole, ranked)}.{equal_cost_said(report)}"
    )


def chunk_label(side: str, c: Chunk | None, unit: str) -> str:
    if c is None:
        return f"{side}: no chunk shares a character with the other side"
    return f"{side}: chunk {c.index + 1}, characters {c.start:,}-{c.end:,}, {c.length:,} {unit}"


# -- JSON ----------------------------------------------------------------------------------------
def _gold_json(g: GoldSummary) -> dict[str, Any]:
    return {
        "retriever": g.retriever,
        "questions": g.questions,
        "intact": g.intact,
        "intact_rate": g.intact_rate,
        "k": g.k,
        "recall": {str(k): r for k, r in g.recall.items()},
        "mrr": g.mrr,
        **g.tokens,
        **({"budget": g.budget.to_json()} if g.budget else {}),
    }


def _side_json(side: Side) -> dict[str, Any]:
    s, v, g = side.sizes, side.violations, side.gold
    return {
        "config": str(side.config),
        "sizes": {
            "count": s.count,
            "mean": s.mean,
            "min": s.min,
            "max": s.max,
            "percentiles": {str(p): x for p, x in s.percentiles.items()},
            "below_floor": s.below_floor,
        },
        "violations": {
            kind: {
                "violations": c.violations,  # cut at a boundary, for code and sentences
                "out_of": c.out_of,
                "rate": float(c.rate),
                **(
                    {"whole_in_no_chunk": v.whole_in_no_chunk[kind]}
                    if kind in v.whole_in_no_chunk
                    else {}
                ),
            }
            for kind, c in v.counts.items()
        },
        "violation_rate": float(v.total.rate),
        "gold": None if g is None else _gold_json(g),  # the first retriever's
        "gold_by_retriever": [_gold_json(j) for j in side.judged],
    }


def _chunk_json(doc: str, c: Chunk | None, side: Side) -> dict[str, Any] | None:
    if c is None:
        return None
    return {
        "index": c.index,
        "start": c.start,
        "end": c.end,
        "length": c.length,
        "kind": c.kind,
        "heading_path": list(c.heading_path),
        "violations": list(side.violations.by_chunk.get((doc, c.index), ())),
        "body": c.body,
    }


def _limit_json(report: DiffReport) -> dict[str, Any]:
    """With an embedder's limit: how many chunks of each side pass it, of how many."""
    if report.embedder_limit is None:
        return {}
    return {
        "embedder_limit": {
            "limit": report.embedder_limit,
            "a": report.a.over_limit,
            "b": report.b.over_limit,
            "a_of": report.a.sizes.count,
            "b_of": report.b.sizes.count,
        }
    }


def to_json(report: DiffReport) -> dict[str, Any]:
    """The whole report as JSON-ready data (what the diff command writes with --format json)."""
    return {
        "a": _side_json(report.a),
        "b": _side_json(report.b),
        "documents": [{"doc": d.doc, "a": d.a, "b": d.b} for d in report.documents],
        "pairs": report.pairs,
        "unchanged": report.unchanged,
        "changed": [
            {
                "doc": p.doc,
                "moved": p.moved,
                "change": p.change,
                "a": _chunk_json(p.doc, p.a, report.a),
                "b": _chunk_json(p.doc, p.b, report.b),
            }
            for p in report.changed
        ],
        "advice": advice(report),
        # -- each judge's MRR and recall@k, B - A, with a paired bootstrap 95 % interval
        "rank_differences": [
            {"retriever": d.retriever, "figure": d.figure, "a": d.a, "b": d.b, **d.paired.to_json()}
            for d in report.differences
        ],
        "equal_cost": equal_cost_json(report),
        "regressions": report.regressions,
        "worse": report.worse,
        "unreadable": [{"path": p, "problem": m} for p, m in report.unreadable],
        **_limit_json(report),
    }


# -- Markdown ------------------------------------------------------------------------------------
# a cell, a title or a line's tail never starts a line: its leading "1." or "-" stays


def _md(value: object) -> str:
    return md_escape(value, line_start=False)


def _md_table(fig: Figure) -> list[str]:
    head = "| " + " | ".join(_md(c) or " " for c in fig.columns) + " |"
    rule = "|" + "|".join("---" for _ in fig.columns) + "|"
    body = ["| " + " | ".join(_md(v) for v in row) + " |" for row in fig.rows]
    return [f"## {fig.title}", "", head, rule, *body, ""]


def _pre(text: str) -> str:
    """Chunk text for a ``<pre>`` on one line: a blank line would end an HTML
    block inside Markdown, so line breaks become character references."""
    return html.escape(text.replace("\r\n", "\n")).replace("\n", "&#10;").replace("\r", "&#13;")


def _side_by_side(report: DiffReport, p: ChangedPair) -> str:
    cells = []
    for side, c, s in (("A", p.a, report.a), ("B", p.b, report.b)):
        label = chunk_label(side, c, s.config.unit)
        broken = s.violations.by_chunk.get((p.doc, c.index), ()) if c else ()
        if broken:
            label += " · breaks: " + ", ".join(broken)
        cells.append((html.escape(label), _pre(c.body) if c else ""))
    head = "".join(f'<th valign="top">{label}</th>' for label, _ in cells)
    body = "".join(f'<td valign="top"><pre>{text}</pre></td>' for _, text in cells)
    return f"<table><tr>{head}</tr><tr>{body}</tr></table>"


def _pair_title(n: int, p: ChangedPair) -> str:
    return f"{n}. {p.doc}: {p.moved:,} characters moved ({p.change:.0%} of the two spans)"


def to_markdown(report: DiffReport) -> str:
    lines = [
        "# Chunk-population diff",
        "",
        f"A: `{report.a.config}` · B: `{report.b.config}` · {len(report.documents)} document(s)",
        "",
        "## What should I change?",
        "",
        _md(advice(report)),
        "",
        f"**{_md(verdict(report))}**",
        "",
    ]
    for fig in figures(report):
        lines += _md_table(fig)
    lines += [
        f"## The {len(report.changed)} most-changed chunks",
        "",
        f"{report.pairs:,} pairs of A and B chunks, {report.unchanged:,} with the same span.",
        "",
    ]
    for n, p in enumerate(report.changed, start=1):
        lines += [f"### {_md(_pair_title(n, p))}", "", _side_by_side(report, p), ""]
    for path, problem in report.unreadable:
        lines.append(f"Not read: {_md(path)}: {_md(problem)}  ")
    return "\n".join(lines).rstrip() + "\n"


# -- HTML ----------------------------------------------------------------------------------------
_STYLE = (
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:110em}"
    "table{border-collapse:collapse;margin-bottom:1.5em}"
    "th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}"
    "pre{white-space:pre-wrap;word-break:break-word;margin:0;font-size:.85em}"
    ".pair td,.pair th{width:50%}"
)


def _html_table(fig: Figure) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in fig.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
        for row in fig.rows
    )
    return f"<h2>{html.escape(fig.title)}</h2>\n<table><tr>{head}</tr>{body}</table>"


def to_html(report: DiffReport) -> str:
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>Chunk-population diff</title>',
        f"<style>{_STYLE}</style></head><body>",
        "<h1>Chunk-population diff</h1>",
        f"<p>A: <code>{esc(str(report.a.config))}</code> · B: "
        f"<code>{esc(str(report.b.config))}</code> · {len(report.documents)} document(s)</p>",
        f"<h2>What should I change?</h2>\n<p>{esc(advice(report))}</p>",
        f"<p><strong>{esc(verdict(report))}</strong></p>",
    ]
    parts += [_html_table(fig) for fig in figures(report)]
    parts.append(f"<h2>The {len(report.changed)} most-changed chunks</h2>")
    parts.append(
        f"<p>{report.pairs:,} pairs of A and B chunks, {report.unchanged:,} with the same span.</p>"
    )
    for n, p in enumerate(report.changed, start=1):
        parts.append(f"<h3>{esc(_pair_title(n, p))}</h3>")
        parts.append(_side_by_side(report, p).replace("<table>", '<table class="pair">', 1))
    for path, problem in report.unreadable:
        parts.append(f"<p>Not read: {esc(path)}: {esc(problem)}</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
