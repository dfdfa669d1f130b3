"""The retrieval benchmark: the dense judge under a gold-set check's load.

    python -m bench.retrieval             # 500 questions over about 1,000 chunks, 3 runs, medians
    python -m bench.retrieval --runs 5
    python -m bench.retrieval --quick     # 50 questions over about 100 sample chunks, one run (CI)

One process, started fresh, so the first figure is the embedding model's real
load time and the memory figures are this process's. Documents come from the
shared corpus (../shared/corpus, or CHUNK_LAB_CORPUS), in name order, until the
chunks (structural, 1,800 chars / 150 overlap) reach the target; --quick uses
the sample documents. Each question is the opening words of a sentence of one
chunk, so every retriever has the same work a gold set gives it (the figures
are times, not retrieval quality). Every timed run starts with an empty
embedding cache, except the slider step, which is timed on the cache a first
indexing left: what a user moving the size slider gets. Speed is reported
here, as times and as ratios against BM25 in the same run, never asserted in
tests.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python bench/retrieval.py` as well as `python -m bench.retrieval`
    sys.path.insert(0, str(ROOT))

from bench.run import Row, machine, table  # noqa: E402
from chunkers import ChunkOptions, chunk, indexed_text  # noqa: E402
from lab.inputs.gold import GoldQuestion  # noqa: E402
from lab.measure.integrity import check_judged  # noqa: E402
from lab.retrieval.bm25_sparse import SparseIndex  # noqa: E402
from lab.retrieval.bm25_variants import Bm25Retriever  # noqa: E402
from lab.retrieval.dense import DenseRetriever  # noqa: E402
from lab.retrieval.embedders import EMBEDDING_CACHE, load_embedder, wordllama_model  # noqa: E402
from lab.retrieval.fusion import HybridRetriever  # noqa: E402
from lab.retrieval.interface import Retriever  # noqa: E402
from lab.retrieval.tokenize import tokenize  # noqa: E402

CORPUS = Path(os.environ.get("CHUNK_LAB_CORPUS") or ROOT.parent / "shared" / "corpus")
SAMPLES = ROOT / "lab" / "sample_docs"
SIZE, OVERLAP, STEP = 1800, 150, 1700  # the structural defaults, and one slider step down
TARGET_SECONDS = 30.0  # a dense check of 500 questions over ~1,000 chunks
QUESTION_WORDS = 12
MB = 1_000_000

FIGURES = (
    "wordllama: model load, bare process (its imports included)",
    "wordllama: model load, in the lab's process",
    "wordllama: process memory (RSS) after loading",
    "check: dense (wordllama)",
    "check: hybrid (lucene + wordllama)",
    "check: bm25 (lucene)",
    "check with chunking: dense, end to end",
    "slider step 1800 -> 1700 chars: dense re-index",
    "lab check --retriever dense: gold set, end to end",
    "lab check --retriever hybrid: gold set, end to end",
    "lab check (bm25, lucene): gold set, end to end",
)

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def rss_mb() -> float:
    """This process's resident memory now, in MB (Linux); its peak elsewhere."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024 / MB
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / MB


def documents(folder: Path, chunks_wanted: int) -> tuple[list[str], float]:
    """The indexed texts of the first documents (by name) that make ``chunks_wanted``
    chunks, and the seconds chunking them took."""
    texts: list[str] = []
    seconds = 0.0
    for path in sorted(folder.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        start = time.perf_counter()
        texts.extend(indexed_text(c) for c in chunk(text, "structural", SIZE, OVERLAP))
        seconds += time.perf_counter() - start
        if len(texts) >= chunks_wanted:
            break
    return texts, seconds


def gold_set(folder: Path, chunks_wanted: int, n: int) -> tuple[dict[str, str], list[GoldQuestion]]:
    """What `lab check` is given: the first documents (by name) that make
    ``chunks_wanted`` chunks, and ``n`` gold questions spread over their chunks, each
    the opening words of a sentence in a chunk's body, its answer that sentence."""
    docs: dict[str, str] = {}
    bodies: list[tuple[str, str]] = []
    for path in sorted(folder.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        name = str(path.relative_to(folder))
        docs[name] = text
        bodies += [(name, c.body) for c in chunk(text, "structural", SIZE, OVERLAP)]
        if len(bodies) >= chunks_wanted:
            break
    pairs: list[GoldQuestion] = []
    step = max(1, len(bodies) // max(1, n))
    for round_ in range(len(bodies) * 2):
        name, body = bodies[(round_ * step + round_ // len(bodies)) % len(bodies)]
        sentences = [x for x in _SENTENCE.split(body) if len(tokenize(x)) >= 6]
        if sentences:
            pick = " ".join(sentences[round_ % len(sentences)].split())
            pairs.append(GoldQuestion(" ".join(pick.split()[:QUESTION_WORDS]), pick, name))
        if len(pairs) >= n:
            break
    return docs, pairs


def gate_check(retriever: Retriever, docs: dict[str, str], pairs: Sequence[GoldQuestion]) -> None:
    """What `lab check --retriever ...` runs once the files are read: chunk, index, check."""
    check_judged(
        docs, pairs, "structural", ChunkOptions(size=SIZE, overlap=OVERLAP), retrievers=[retriever]
    )


def questions(texts: Sequence[str], n: int) -> list[str]:
    """``n`` questions, each the opening words of a sentence in an evenly spread chunk."""
    out: list[str] = []
    step = max(1, len(texts) // max(1, n))
    for round_ in range(n):
        for text in texts[(round_ * step) % len(texts) :] + texts[: (round_ * step) % len(texts)]:
            sentences = [s for s in _SENTENCE.split(text) if len(tokenize(s)) >= 6]
            if sentences:
                pick = sentences[round_ % len(sentences)]
                out.append(" ".join(pick.split()[:QUESTION_WORDS]))
                break
        if len(out) >= n:
            break
    return out


BARE = """
import time
from pathlib import Path
def rss():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0
from lab.retrieval.embedders import wordllama_model
before = rss()
start = time.perf_counter()
wordllama_model()
print(time.perf_counter() - start, before, rss())
"""


def bare_load(runs: int) -> tuple[float, float, float]:
    """In a fresh Python that imports only the embedders module: the median seconds to
    import wordllama and load the model, and the RSS before and after, in MB."""
    seen = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", BARE], cwd=ROOT, capture_output=True, text=True, check=True
        )
        seen.append([float(x) for x in out.stdout.split()])
    seconds = statistics.median(s[0] for s in seen)
    return seconds, seen[-1][1] / MB, seen[-1][2] / MB


def timed(run: Callable[[], object], runs: int, *, cold: bool = True) -> float:
    """The median seconds of ``runs`` calls, each (when ``cold``) on an empty embedding cache."""
    seconds = []
    for _ in range(runs):
        if cold:
            EMBEDDING_CACHE.clear()
        start = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def check_load(retriever: Retriever, texts: Sequence[str], asked: Sequence[str]) -> None:
    retriever.index(texts).score_all(asked)


def sparse_check(texts: Sequence[str], asked: Sequence[str]) -> None:
    """The engine `lab check` ranks BM25 with: rank-bm25's scores (lucene) as sparse postings."""
    index = SparseIndex((tokenize(t) for t in texts), list(range(len(texts))))
    for q in asked:
        index.scores(q)


def _s(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.retrieval", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=3, help="timed runs per figure (default 3)")
    parser.add_argument("--questions", type=int, default=500, help="questions (default 500)")
    parser.add_argument("--chunks", type=int, default=1000, help="chunks, about (default 1000)")
    parser.add_argument("--quick", action="store_true", help="a small slice, one run (CI)")
    args = parser.parse_args(argv)
    runs = 1 if args.quick else max(1, args.runs)
    n_questions, n_chunks = (50, 100) if args.quick else (args.questions, args.chunks)
    folder = SAMPLES if args.quick else CORPUS
    if not folder.is_dir():
        print(f"no corpus at {folder}: set CHUNK_LAB_CORPUS to a folder of markdown, or --quick")
        return 2

    rss_before = rss_mb()
    start = time.perf_counter()
    wordllama_model()
    load = time.perf_counter() - start
    rss_after = rss_mb()
    bare_s, bare_before, bare_after = bare_load(runs)

    texts, chunking = documents(folder, n_chunks)
    asked = questions(texts, n_questions)
    dense = DenseRetriever(load_embedder())
    bm25 = Bm25Retriever()
    hybrid = HybridRetriever(bm25, dense)

    dense_s = timed(lambda: check_load(dense, texts, asked), runs)
    hybrid_s = timed(lambda: check_load(hybrid, texts, asked), runs)
    bm25_s = timed(lambda: check_load(bm25, texts, asked), runs, cold=False)
    sparse_s = timed(lambda: sparse_check(texts, asked), runs, cold=False)

    # -- the slider: index at 1,800 (the cache fills), then one step down to 1,700
    stepped: list[str] = []
    for path in sorted(folder.rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        stepped.extend(indexed_text(c) for c in chunk(text, "structural", STEP, OVERLAP))
        if len(stepped) >= len(texts):
            break
    changed = len(set(stepped) - set(texts))
    step_runs = []
    for _ in range(runs):
        EMBEDDING_CACHE.clear()
        dense.index(texts)
        begin = time.perf_counter()
        dense.index(stepped)
        step_runs.append(time.perf_counter() - begin)
    step_s = statistics.median(step_runs)
    cold_step_s = timed(lambda: dense.index(stepped), runs)

    # -- `lab check` itself: chunking, locating every answer, one index per judge
    gold_docs, gold = gold_set(folder, n_chunks, n_questions)
    gate_dense_s = timed(lambda: gate_check(dense, gold_docs, gold), runs)
    gate_hybrid_s = timed(lambda: gate_check(hybrid, gold_docs, gold), runs)
    gate_bm25_s = timed(lambda: gate_check(bm25, gold_docs, gold), runs, cold=False)
    gate_chunks = sum(len(chunk(t, "structural", SIZE, OVERLAP)) for t in gold_docs.values())

    print(f"Chunk Lab retrieval benchmark{' (quick: a small slice)' if args.quick else ''}")
    print(f"machine: {machine()}")
    print(
        f"documents: {folder.name}, {len(texts)} chunks at {SIZE}/{OVERLAP}, "
        f"{len(asked)} questions; {runs} timed run(s), medians"
    )
    rows = [
        Row(FIGURES[0], _s(bare_s), f"RSS {bare_before:.0f} -> {bare_after:.0f} MB"),
        Row(FIGURES[1], _s(load)),
        Row(
            FIGURES[2],
            f"{rss_after:.0f} MB",
            f"{rss_before:.0f} MB before",
            f"+{rss_after - rss_before:.0f} MB",
        ),
        Row(
            FIGURES[3],
            _s(dense_s),
            f"bm25 {_s(bm25_s)}",
            f"{dense_s / bm25_s:.1f}x",
            f"< {TARGET_SECONDS:.0f} s",
            "yes" if dense_s + chunking < TARGET_SECONDS else "NO",
        ),
        Row(
            FIGURES[4],
            _s(hybrid_s),
            f"bm25 {_s(bm25_s)}",
            f"{hybrid_s / bm25_s:.1f}x",
        ),
        Row(
            FIGURES[5],
            _s(bm25_s),
            f"lab check's engine {_s(sparse_s)}",
            f"{bm25_s / sparse_s:.1f}x",
        ),
        Row(
            FIGURES[6],
            _s(dense_s + chunking),
            f"chunking {_s(chunking)}",
            "-",
            f"< {TARGET_SECONDS:.0f} s",
            "yes" if dense_s + chunking < TARGET_SECONDS else "NO",
        ),
        Row(
            FIGURES[7],
            f"{_s(step_s)} ({changed} of {len(stepped)} chunks embedded)",
            f"cold {_s(cold_step_s)}",
            f"{step_s / cold_step_s:.2f}x",
        ),
    ]
    gate = f"{len(gold)} questions, {gate_chunks} chunks in {len(gold_docs)} documents"
    rows += [
        Row(
            FIGURES[8],
            _s(gate_dense_s),
            f"bm25 {_s(gate_bm25_s)}; {gate}",
            f"{gate_dense_s / gate_bm25_s:.1f}x",
            f"< {TARGET_SECONDS:.0f} s",
            "yes" if gate_dense_s < TARGET_SECONDS else "NO",
        ),
        Row(
            FIGURES[9],
            _s(gate_hybrid_s),
            f"bm25 {_s(gate_bm25_s)}",
            f"{gate_hybrid_s / gate_bm25_s:.1f}x",
        ),
        Row(FIGURES[10], _s(gate_bm25_s), gate),
    ]
    print()
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
