"""Does a generated gold set order chunkings as the written one does?

    python -m bench.gold_agreement            # the sample documents, k = 5, seed 0
    python -m bench.gold_agreement --n 120 --seed 3

Every configuration (the lab's four strategies at three sizes) is checked against
the sample documents' written gold sets and against a set `lab gold` makes from the
same documents; each metric then ranks the configurations twice, and Kendall's tau
(tau-b, which allows ties) says how far the two orders agree: 1 the same order,
0 no relation. docs/gate.md reports the figures.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from scipy.stats import kendalltau

from chunkers import ChunkOptions
from chunkers.registry import STRATEGIES
from lab.inputs.gold import GoldQuestion, load_gold
from lab.inputs.samples import SAMPLES_DIR
from lab.measure.integrity import IntegrityReport, check_judged
from lab.measure.questions import make_gold
from lab.retrieval.bm25_variants import Bm25Retriever

SIZES = (300, 800, 1800)  # characters: small, middling, the default
METRICS = {
    "recall@k": lambda r: r.recall_at(r.k),
    "coverage@k": lambda r: r.coverage_at(r.k),
    "MRR": lambda r: r.mrr,
    "IoU@k": lambda r: r.iou,
    "precision@k": lambda r: r.precision,
}


def written(docs: dict[str, str]) -> list[GoldQuestion]:
    """Each sample's own gold file, its lines naming their document."""
    out = []
    for name in docs:
        gold = load_gold(SAMPLES_DIR / name.replace(".md", ".gold.jsonl"))
        out += [replace(q, doc=name) for q in gold.questions]
    return out


def reports(docs: dict[str, str], gold: list[GoldQuestion], k: int) -> list[IntegrityReport]:
    out = []
    for strategy in STRATEGIES:
        for size in SIZES:
            opts = ChunkOptions(size=size, overlap=size // 10)
            (report,) = check_judged(docs, gold, strategy, opts, retrievers=[Bm25Retriever()], k=k)
            out.append(report)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--n", type=int, default=60, help="generated questions")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    docs = {p.name: p.read_text(encoding="utf-8") for p in sorted(SAMPLES_DIR.glob("*.md"))}
    people = written(docs)
    made = make_gold(docs, args.n, args.seed)
    a, b = reports(docs, people, args.k), reports(docs, made.questions, args.k)
    print(
        f"{len(a)} configurations ({len(STRATEGIES)} strategies x sizes {SIZES} chars, "
        f"overlap a tenth), {len(docs)} documents, k = {args.k}, BM25"
    )
    print(f"written: {len(people)} questions; generated: {len(made.questions)} {made.counts}")
    for name, figure in METRICS.items():
        xs, ys = [figure(r) for r in a], [figure(r) for r in b]
        tau, p = kendalltau(xs, ys)
        print(f"{name:12} tau {tau:+.3f}  (p {p:.3f})")
    print("configuration            recall w/g     IoU w/g")
    for ra, rb in zip(a, b, strict=True):
        cfg = f"{ra.strategy} {ra.options.size}"
        print(
            f"{cfg:24} {ra.recall_at(args.k):.2f}/{rb.recall_at(args.k):.2f}"
            f"    {ra.iou:.3f}/{rb.iou:.3f}"
        )


if __name__ == "__main__":
    main()
