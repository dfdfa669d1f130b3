"""What the small-to-big and boilerplate labs show, as rows: the lab's measurements
turned into table rows and chart data (no Streamlit here)."""

from __future__ import annotations

from chunkers.model import HEADING_SEPARATOR
from lab.measure.small_to_big import (
    ARMS,
    BUDGET,
    CHILDREN,
    CHUNKS,
    PARENTS,
    Resolution,
    SmallToBigReport,
)
from lab.measure.strip_effect import StripEffect
from lab.text import clip

# how each way of delivering context is named on the page
ARM_LABELS = {
    CHUNKS: "plain chunks, top k",
    CHILDREN: "children alone",
    PARENTS: "parents, deduplicated",
    BUDGET: "plain chunks within the parents' budget",
}
WITHOUT_DEDUPE = "parents, every copy"


def hit_rows(res: Resolution, answer: str | None) -> list[dict]:
    """The top-k children and the parents they resolve to."""
    rows = []
    for h in res.hits:
        rows.append(
            {
                "rank": h.rank,
                "child": h.child.index + 1,
                # (a small child's text rarely names its section: its path does)
                "child's headings": HEADING_SEPARATOR.join(h.child.heading_path),
                "child text": clip(h.child.body, 70),
                "parent": h.parent_number + 1,
                "parent length": h.parent.length,
                "sent": "duplicate, left out" if h.duplicate else "sent",
                "parent holds the answer": "✓"
                if answer and " ".join(answer.split()) in " ".join(h.parent.body.split())
                else "",
            }
        )
    return rows


def context_rows(res: Resolution) -> list[dict]:
    """The context each way sends for this question, in the unit (a bar each)."""
    sizes = {ARM_LABELS[a]: res.size(a) for a in ARMS}
    sizes[WITHOUT_DEDUPE] = res.size_without_dedupe
    order = [ARM_LABELS[CHILDREN], WITHOUT_DEDUPE, ARM_LABELS[PARENTS], ARM_LABELS[CHUNKS]]
    order.append(ARM_LABELS[BUDGET])
    return [{"delivered": name, "context": sizes[name]} for name in order]


def gold_rows(r: SmallToBigReport) -> list[dict]:
    """recall@k, coverage@k and mean context per way of delivering."""
    return [
        {
            "delivered": ARM_LABELS[a],
            f"recall@{r.k}": round(r.recall(a), 3),
            f"coverage@{r.k}": round(r.coverage(a), 3),
            f"mean context ({r.unit})": round(r.mean_size(a)),
        }
        for a in ARMS
    ]


def question_rows(r: SmallToBigReport) -> list[dict]:
    """Per question: found or not and context, per way of delivering."""
    out = []
    for q in r.results:
        row: dict[str, str | int] = {"question": q.question}
        for a in ARMS:
            d = q.arms[a]
            row[ARM_LABELS[a]] = f"{'✓' if d.found else '✗'} {d.size:,}"
        row["duplicates removed"] = q.duplicates
        out.append(row)
    return out


# --------------------------------------------------------------------------- boilerplate


def finding_rows(e: StripEffect) -> list[dict]:
    return [
        {
            "text": clip(f.text, 90),
            "carried by": f"{f.units} of {f.out_of} {f.scope}",
            "characters": f.chars,
            "chunks mostly of it": f.chunks_mostly,
        }
        for f in e.report.findings
    ]


def intercept_rows(e: StripEffect) -> list[dict]:
    return [
        {
            "question": i.question,
            "rank": i.rank,
            "chunk": i.chunk.index + 1,
            "boilerplate share": f"{i.share:.0%}",
            "chunk text": clip(i.chunk.body, 80),
        }
        for i in e.intercepts
    ]


def before_after_rows(e: StripEffect) -> list[dict]:
    rows = []
    for label, r, chunks in (
        ("as given", e.before, e.chunks_before),
        ("stripped", e.after, e.chunks_after),
    ):
        rows.append(
            {
                "text": label,
                "chunks": chunks,
                "intact": f"{r.intact_rate:.0%}",
                **{f"recall@{k}": round(v, 2) for k, v in r.recall.items()},
                "MRR": round(r.mrr, 3),
            }
        )
    return rows


def rank_rows(e: StripEffect) -> list[dict]:
    """Each gold question's rank, as given and stripped."""

    def rank(r) -> str:
        return str(r.rank) if r.rank is not None else "—"

    return [
        {
            "question": b.question,
            "intact as given": "✓" if b.intact else "✗",
            "intact stripped": "✓" if a.intact else "✗",
            "rank as given": rank(b),
            "rank stripped": rank(a),
        }
        for b, a in zip(e.before.results, e.after.results, strict=True)
    ]


def spread_rows(e: StripEffect) -> list[dict]:
    """The median chunk's score as a share of the best, per question, before and after.
    Each question whole: the chart shortens its labels where it must, and its tooltip
    and a projector's level labels show them in full."""
    rows = []
    for label, spreads in (("as given", e.spread_before), ("stripped", e.spread_after)):
        rows += [
            {"question": s.question, "text": label, "median / best": round(s.median, 3)}
            for s in spreads
        ]
    return rows
