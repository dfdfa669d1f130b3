"""The two judges (Lab 11, and the BM25 switch of Labs 4, 6 and 8), as data for a page.

The measurements come from lab.measure.judges; here they become table rows,
chart points and the sentences written under them.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chunkers import Chunk
from lab.measure.integrity import IntegrityReport, status_by
from lab.measure.judges import MuddyVector, TwoTopics
from lab.measure.score_scale import TopScore
from lab.retrieval.bm25 import FTS5, LUCENE, OKAPI
from lab.retrieval.fusion import RRF_K
from lab.retrieval.interface import judge_name

# The sizes the muddy vector sweeps, per unit: from a runt to a whole section
MUDDY_SIZES = {
    "chars": tuple(range(200, 4001, 200)),
    "words": tuple(range(30, 601, 30)),
    "tokens": tuple(range(40, 801, 40)),
}
COSINE = "cosine with the question (dense)"
BM25_CURVE = "BM25 score"

# Which BM25 a lab shows, and why: written under every BM25 switch
VARIANT_NOTES = {
    LUCENE: "lucene, the default: IDF log(1 + (N − n + 0.5) / (n + 0.5)), as Lucene, "
    "Elasticsearch and OpenSearch score. It never goes below zero, so no chunk is ever "
    "punished for saying the question's words, even in a short document where those "
    "words are in most chunks.",
    OKAPI: "okapi: rank-bm25's BM25Okapi, IDF log((N − n + 0.5) / (n + 0.5)). A word in "
    "more than half the chunks gets a negative weight (floored at a quarter of the mean "
    "IDF, itself negative on a short document): a two-chunk upload can score the chunk "
    "that answers below zero and rank it last.",
    FTS5: "fts5: SQLite's own bm25(), the whole indexed text in one column, turned round so "
    "that higher is better. A word in more than half the chunks weighs almost nothing "
    "(SQLite clamps its IDF to 0.000001), and k1 = 1.2 and b = 0.75 are SQLite's own.",
}
STATIC_MODEL = (
    "wordllama is a static model: a text's vector is the average of its tokens' vectors, "
    "16 MB inside its package, offline. A fair teaching model, not a better retriever "
    "than BM25."
)
HYBRID_NOTE = (
    f"hybrid: reciprocal-rank fusion, each chunk scoring 1/({RRF_K} + its BM25 rank) + "
    f"1/({RRF_K} + its dense rank), k = {RRF_K}. Only ranks are fused: a BM25 score and a "
    "cosine share no scale."
)


def variant_note(variant: str) -> str:
    return f"BM25 shown: {VARIANT_NOTES[variant]}"


# --------------------------------------------------------------------------- side by side


def judge_table(chunks: Sequence[Chunk], rows: Sequence) -> list[dict]:
    """The side-by-side table: one row per chunk (``lab.measure.judges.JudgeRow``)."""
    return [
        {
            "chunk": r.number,
            "holds the answer": "★" if r.holds_answer else "",
            "length": c.length,
            "BM25 rank": r.bm25_rank,
            "dense rank": r.dense_rank,
            "hybrid rank": r.hybrid_rank,
            "BM25": round(r.bm25_score, 3),
            "cosine": round(r.dense_score, 3),
            "RRF": round(r.hybrid_score, 4),
        }
        for c, r in zip(chunks, rows, strict=True)
    ]


def judges_export(
    config: Mapping[str, Any], question: str, answer: str | None, table: Sequence[dict]
) -> list[tuple[str, str, str]]:
    """The side-by-side table as download files (label, payload, extension), each
    carrying the configuration and the judges that ranked (BM25 variant, embedder,
    the fusion's k)."""
    settings = {**config, "hybrid_k": RRF_K}
    payload = {"config": settings, "question": question, "answer": answer, "chunks": list(table)}
    out = io.StringIO()
    columns = ["config", *(table[0] if table else [])]
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    line = json.dumps(settings, ensure_ascii=False)
    for row in table:
        writer.writerow({"config": line, **row})
    return [
        (
            "Export the judges' ranks (JSON)",
            json.dumps(payload, ensure_ascii=False, indent=2),
            "json",
        ),
        ("Export the judges' ranks (CSV)", out.getvalue(), "csv"),
    ]


@dataclass(frozen=True, slots=True)
class AnswerRanks:
    chunk: int | None  # the answer's chunk, as shown (1-based); None: no chunk holds it
    bm25: int | None
    dense: int | None
    hybrid: int | None
    line: str


def answer_ranks(rows: Sequence, answer: str | None) -> AnswerRanks:
    """Where each judge puts the best-ranked chunk that holds the answer, in one line."""
    held = [r for r in rows if r.holds_answer]
    if not answer:
        return AnswerRanks(None, None, None, None, "No answer: pick one to mark its chunk.")
    if not held:
        return AnswerRanks(
            None,
            None,
            None,
            None,
            "No chunk holds the answer whole: no judge can find it (the chunk does not exist).",
        )
    best = min(held, key=lambda r: r.hybrid_rank)
    ranks = (
        min(r.bm25_rank for r in held),
        min(r.dense_rank for r in held),
        min(r.hybrid_rank for r in held),
    )
    agree = len(set(ranks)) == 1
    line = (
        f"The answer's chunk {best.number} ranks #{ranks[0]} by BM25, #{ranks[1]} by the "
        f"dense judge and #{ranks[2]} by the hybrid"
        + (": the judges agree." if agree else ": the judges disagree.")
    )
    return AnswerRanks(best.number, *ranks, line)


# --------------------------------------------------------------------------- the muddy vector


@dataclass(frozen=True, slots=True)
class MuddyView:
    points: list[dict]  # one per size and curve: size, curve, value (scaled), raw
    crossings: list[dict]  # size, label
    lines: tuple[str, ...]  # written under the chart


def _fmt_size(size: float, unit: str) -> str:
    return f"{round(size):,} {unit}"


def muddy_view(mv: MuddyVector, unit: str) -> MuddyView:
    points = []
    for p in mv.points:
        for curve, value, raw in (
            (COSINE, p.cosine_scaled, p.cosine),
            (BM25_CURVE, p.bm25_scaled, p.bm25),
        ):
            if value is not None:
                points.append({"size": p.size, "curve": curve, "value": value, "raw": raw})
    known = [p for p in mv.points if p.cosine is not None]
    lines: list[str] = []
    if not known:
        return MuddyView(points, [], ("At no size does one chunk hold the answer whole.",))
    lo, hi = known[0], known[-1]
    lines.append(
        f"At {_fmt_size(lo.size, unit)} the answer's chunk has cosine {lo.cosine:.3f} and BM25 "
        f"{lo.bm25:.2f}; at {_fmt_size(hi.size, unit)}, cosine {hi.cosine:.3f} and BM25 "
        f"{hi.bm25:.2f}. Each curve is drawn in its own range (1 = its highest point, 0 = its "
        "lowest): a cosine and a BM25 score share no scale."
    )
    cut = [p.size for p in mv.points if p.cosine is None]
    if cut:
        lines.append(
            f"At {len(cut)} size(s) the answer is cut apart ({_fmt_size(cut[0], unit)} first): "
            "no chunk holds it, and neither judge has a verdict there."
        )
    if mv.crossings:
        where = ", ".join(f"about {_fmt_size(x, unit)}" for x in mv.crossings)
        lines.append(
            f"The two curves cross at {where}: there the judges' verdicts on the answer's "
            "chunk change places, one losing its favour faster than the other."
        )
    else:
        lines.append("The two curves do not cross: one judge's verdict falls faster throughout.")
    crossings = [{"size": x, "label": f"cross ≈ {round(x):,}"} for x in mv.crossings]
    return MuddyView(points, crossings, tuple(lines))


# --------------------------------------------------------------------------- two topics


@dataclass(frozen=True, slots=True)
class TopicsView:
    points: list[dict]  # chars, question (its label), cosine
    midpoints: list[dict]  # question, cosine: where a chunk of both and nothing else lands
    second_from: int | None  # the chunk length at which the second passage starts coming in
    line: str


def topics_view(tt: TwoTopics, label_a: str, label_b: str) -> TopicsView:
    points = [
        {"chars": p.chars, "question": label, "cosine": value}
        for p in tt.points
        for label, value in ((label_a, p.cosine_a), (label_b, p.cosine_b))
    ]
    entering = next((p.chars - p.second_chars for p in tt.points if p.second_chars), None)
    end = tt.points[-1]
    line = (
        f"Alone, the first passage scores {tt.alone_a:.2f} with its question; grown to "
        f"{end.chars:,} characters to hold the second passage too, {end.cosine_a:.2f}. The "
        f"second question scores {tt.alone_b:.2f} with its own passage and {end.cosine_b:.2f} "
        f"with the shared chunk. The midpoint of the two passages' vectors scores "
        f"{tt.midpoint_a:.2f} and {tt.midpoint_b:.2f}: a chunk that holds both lands between "
        "the topics, and neither question finds it as well as its own passage."
    )
    midpoints = [
        {"question": label_a, "cosine": tt.midpoint_a},
        {"question": label_b, "cosine": tt.midpoint_b},
    ]
    return TopicsView(points, midpoints, entering, line)


# --------------------------------------------------------------------------- the integrity check


def retriever_summary(reports: Sequence[IntegrityReport]) -> list[dict]:
    """The gold set's ranking figures, one row per retriever (the same chunks)."""
    return [
        {
            "retriever": r.retriever,
            **{f"recall@{kk}": round(v, 2) for kk, v in r.recall.items()},
            f"coverage@{r.k}": round(r.coverage_at(r.k), 2),
            "MRR": round(r.mrr, 3),
            f"ranks below {r.k}": len(r.ranks_poorly),
        }
        for r in reports
    ]


def gold_by_retriever(reports: Sequence[IntegrityReport]) -> list[dict]:
    """One row per gold question: intact and its chunk once, its rank by each retriever,
    and one status (the chunk does not exist, or who ranks it poorly)."""
    rows = []
    for n, first in enumerate(reports[0].results):
        judged = [r.results[n] for r in reports]
        rows.append(
            {
                "question": first.question,
                "intact": "✓" if first.intact else "✗",
                "chunk": str(first.chunk_index + 1) if first.chunk_index is not None else "—",
                **{
                    f"rank: {judge_name(r.retriever)}": str(j.rank) if j.rank is not None else "—"
                    for r, j in zip(reports, judged, strict=True)
                },
                "status": status_by(
                    {r.retriever: j.status for r, j in zip(reports, judged, strict=True)}
                ),
                "verdict": first.verdict,
            }
        )
    return rows


# --------------------------------------------------------------------------- two configurations

NOT_COMPARABLE = (
    "These two numbers cannot be compared. BM25 weighs each word by its IDF, and the IDF "
    "is computed over the chunks: how many there are and how many hold the word. Chunk the "
    "same document another way and every word's weight changes, and so does the average "
    "length each chunk is divided by. A higher top score is not a better chunking. Compare "
    "configurations by where the answer ranks: recall@k and MRR over a gold set (the gold "
    "set's table above), ranks that mean the same under A and under B."
)


def _num(v: float | None, digits: int = 3) -> str:
    return "—" if v is None else f"{v:.{digits}f}"


def score_scale_rows(a: TopScore, b: TopScore) -> list[dict]:
    """The question's top score under A and under B, and what moved it: the weights of
    its words and the length BM25 divides by, side by side."""
    rows = [
        {"": "chunks", "A": str(a.chunks), "B": str(b.chunks)},
        {"": "top score", "A": _num(a.top_score), "B": _num(b.top_score)},
        {"": "chunk with the top score", "A": str(a.top_chunk), "B": str(b.top_chunk)},
        {
            "": "the answer's chunk: rank",
            "A": "—" if a.answer_rank is None else f"#{a.answer_rank}",
            "B": "—" if b.answer_rank is None else f"#{b.answer_rank}",
        },
        {"": "the answer's chunk: score", "A": _num(a.answer_score), "B": _num(b.answer_score)},
    ]
    if a.avgdl is not None and b.avgdl is not None:
        rows.append(
            {"": "mean chunk length (tokens)", "A": _num(a.avgdl, 1), "B": _num(b.avgdl, 1)}
        )
    for word in a.idf:
        rows.append({"": f"IDF of “{word}”", "A": _num(a.idf[word]), "B": _num(b.idf.get(word))})
    return rows


def score_text(t: TopScore) -> str:
    return _num(t.top_score)
