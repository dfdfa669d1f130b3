"""Chunk Lab's side-by-side benchmark.

    python -m bench.run             # warm-up, then 5 timed runs per figure; medians
    python -m bench.run --runs 9    # more runs
    python -m bench.run --quick     # a small slice, one run: what CI runs so it cannot rot
    python -m bench.run --profile   # where the structural chunker's time goes, step by step
    python -m bench.run --against <commit>  # throughput only, beside the chunker at a commit
    python -m bench.run --documents # only PDF, HTML and Word conversion, beside markitdown
                                    # and pymupdf4llm

Everything runs in this one process (the `python -m lab check` figure is timed as
the subprocess a CI job would start) on the shared corpus, ../shared/corpus. The
peers come from requirements-bench.txt; a peer that is not installed is reported
as such. Chunker throughput is measured on fresh text every run (each document
gets a run-specific comment appended, and each run builds a fresh chunker), so no
cache keyed on the text can help anyone. Throughput is this process's CPU time
(every chunker runs in one thread), so other work on a shared machine does not
tilt the ratios, and the chunkers take turns run by run. Ratios are ours over the
peer's throughput, from the fastest run of each (the median ratio beside it);
targets are judged on the fastest-run ratio. Speed is measured here, never
asserted in tests.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import json
import os
import platform
import pstats
import re
import resource
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python bench/run.py` as well as `python -m bench.run`
    sys.path.insert(0, str(ROOT))

from bench.doc_peers import DOC_PEERS, Timing, peers_for, timed_in_turns  # noqa: E402
from bench.revision import RevisionError, chunker_at  # noqa: E402
from bench.revision import label as revision_label  # noqa: E402
from chunkers import ChunkOptions, chunk, chunk_parsed, chunk_with, parse  # noqa: E402

# the shared corpus beside the project; CHUNK_LAB_CORPUS names another folder of markdown
CORPUS = Path(os.environ.get("CHUNK_LAB_CORPUS") or ROOT.parent / "shared" / "corpus")
SAMPLES = ROOT / "sample_docs"
SIZE, OVERLAP = (
    1800,
    150,
)  # the structural chunker's defaults, for us and for every peer that has them
MB = 1_000_000

# every figure the table prints, in order (the quick-mode test checks each is there)
FIGURES = (
    "throughput vs LangChain markdown pipeline",
    "throughput vs Chonkie RecursiveChunker",
    "throughput vs LangChain RecursiveCharacterTextSplitter",
    "throughput vs semchunk",
    "throughput vs str.split() floor",
    "peak memory vs LangChain markdown pipeline",
    "peak memory vs Chonkie RecursiveChunker",
    "peak memory vs LangChain RecursiveCharacterTextSplitter",
    "peak memory vs semchunk",
    "peak memory vs str.split() floor",
    "linear scaling: 1 MB -> 16 MB, time per MB",
    "lottery map: 100,000 words, sizes 5-500 x overlap 0-50%",
    "structural sweep: 200 sizes, largest corpus file",
    "BM25: one question x 10,000 chunks (index built once)",
    "gold-set check: every sample document",
    "python -m lab check: whole corpus",
    "gate: 1,000 questions over the corpus x10 (passages, spans, answers)",
    "gate: corpus doubled (x10 -> x20), same questions",
    "app: first load",
    "app: slider move, largest sample",
    "app: 1 MB upload, first view",
    "survival in tokens: 200 sizes, largest sample",
    "tokenizing: cl100k_base over the corpus",
    "PDF upload: 1 MB, first conversion to markdown",
    "PDF upload: 1 MB, a ruled table on every page",
    "PDF: a three-column Federal Register notice, 6 pages (real)",
    "PDF: a Chinese page PDFium cannot read, read by pdfminer (real)",
    "HTML: a news page, its article kept (real)",
    "Word: a file with a picture and tables (real)",
    "drag frames: FastAPI release notes, 60 sizes, fixed",
    "drag frames: FastAPI release notes, 60 sizes, structural",
    "drag frames: FastAPI release notes, 60 sizes, sentence",
    "drag frames: FastAPI release notes, 60 sizes, recursive",
)
# -- the fair comparisons' rows, named (the drag rows above are read from the end)
BUDGET_FIGURE = "check with --budget: 300 questions over the corpus, against the plain check"
CONTEXT_FIGURE = "check with --context title+path: the same, ranked with no context too"
ROUTING_FIGURE = "routing: routed over the corpus, time against the structural chunker"
# -- under each document's row, a row per converter people would otherwise run on it
# -- (bench/doc_peers.py): (its row, its format, whether it is one of the 1 MB PDFs)
_DOCUMENTS = (
    (FIGURES[23], ".pdf", True),
    (FIGURES[24], ".pdf", True),
    (FIGURES[25], ".pdf", False),
    (FIGURES[26], ".pdf", False),
    (FIGURES[27], ".html", False),
    (FIGURES[28], ".docx", False),
)
DOC_PEER_FIGURES = tuple(
    f"{figure} vs {peer.name}"
    for figure, suffix, large in _DOCUMENTS
    for peer in DOC_PEERS
    if suffix in peer.suffixes and (peer.large_files or not large)
)
FIGURES = (*FIGURES, BUDGET_FIGURE, CONTEXT_FIGURE, ROUTING_FIGURE, *DOC_PEER_FIGURES)
DRAG_STRATEGIES = ("fixed", "structural", "sentence", "recursive")
NOT_INSTALLED = "not installed"


# --------------------------------------------------------------------------- chunkers

Maker = Callable[[], Callable[[str], object]]  # makes a fresh chunker: text -> chunks


def _ours() -> Callable[[str], object]:
    return chunk  # structural, 1800 chars, 150 overlap: tables, overlap and runt merge on


def _langchain_markdown() -> Callable[[str], object]:
    from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

    headers = MarkdownHeaderTextSplitter(
        [("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3")]
    )
    splitter = RecursiveCharacterTextSplitter(chunk_size=SIZE, chunk_overlap=OVERLAP)
    return lambda text: splitter.split_documents(headers.split_text(text))


def _langchain_recursive() -> Callable[[str], object]:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    return RecursiveCharacterTextSplitter(chunk_size=SIZE, chunk_overlap=OVERLAP).split_text


def _chonkie() -> Callable[[str], object]:
    from chonkie import RecursiveChunker

    return RecursiveChunker(chunk_size=SIZE).chunk  # character tokenizer; it has no overlap


def _semchunk() -> Callable[[str], object]:
    import semchunk

    chunker = semchunk.chunkerify(len, SIZE)  # memoises token counts: a fresh one per run
    return lambda text: chunker(text, overlap=OVERLAP)


def _floor() -> Callable[[str], object]:
    return str.split


@dataclass(frozen=True)
class Peer:
    name: str  # as the figures name it
    make: Callable[[], Callable[[str], object]]
    target: float | None = None  # the least ratio (ours / peer throughput) we aim for


PEERS = (
    # ratios are reported, not targets: a CommonMark engine's event pass alone is about a
    # third of our time, so no peer's ratio is a goal; `--against` holds us to no slower
    Peer("LangChain markdown pipeline", _langchain_markdown),
    Peer("Chonkie RecursiveChunker", _chonkie),
    Peer("LangChain RecursiveCharacterTextSplitter", _langchain_recursive),
    Peer("semchunk", _semchunk),
    Peer("str.split() floor", _floor),
)


# --------------------------------------------------------------------------- measuring


def fresh(texts: Sequence[str], label: str) -> list[str]:
    """The texts with a comment no earlier run has seen, so no text-keyed cache helps."""
    tag = f"\n\n<!-- bench {label} {secrets.token_hex(6)} -->\n"
    return [t + tag for t in texts]


def timed(fn: Callable[[], object], clock: Callable[[], float] = time.perf_counter) -> float:
    gc.collect()
    t0 = clock()
    fn()
    return clock() - t0


def chunker_times(
    makers: Sequence[Maker], texts: Sequence[str], runs: int, warmup: bool
) -> list[list[float]]:
    """CPU seconds per run over all texts, per chunker: a fresh chunker and fresh
    text every run, the chunkers taking turns."""
    times: list[list[float]] = [[] for _ in makers]
    for r in range(-1 if warmup else 0, runs):
        for make, out in zip(makers, times, strict=True):
            fn, docs = make(), fresh(texts, f"run {r}")
            dt = timed(lambda fn=fn, docs=docs: [fn(d) for d in docs], time.process_time)
            if r >= 0:
                out.append(dt)
    return times


def repeat(fn: Callable[[], object], runs: int, warmup: bool) -> list[float]:
    if warmup:
        fn()
    return [timed(fn) for _ in range(runs)]


def peak_memory(make: Maker, texts: Sequence[str]) -> int:
    """Peak traced Python allocation while chunking the texts one at a time (results dropped).
    tracemalloc sees Python's allocator only: memory a native extension allocates itself
    (chonkie's Rust core) is not counted."""
    fn, docs = make(), fresh(texts, "memory")
    gc.collect()
    tracemalloc.start()
    try:
        for d in docs:
            fn(d)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --------------------------------------------------------------------------- inputs


def corpus_files(quick: bool) -> list[Path]:
    files = sorted(CORPUS.rglob("*.md"))
    if not files:
        sys.exit(f"no corpus found at {CORPUS} (it sits next to the project, as ../shared/corpus)")
    return files[::30] if quick else files  # quick: every 30th file, a dozen of every kind


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")  # as given: no newline translation


def concatenated(texts: Sequence[str], at_least: int) -> str:
    """Whole documents, one after another, until ``at_least`` characters."""
    out, total, i = [], 0, 0
    while total < at_least:
        t = texts[i % len(texts)]
        out.append(t)
        total += len(t) + 2
        i += 1
    return "\n\n".join(out)


def first_words(text: str, n: int) -> str:
    """The text up to the end of its n-th whitespace-separated word."""
    for i, m in enumerate(re.finditer(r"\S+", text), start=1):
        if i == n:
            return text[: m.end()]
    return text


# --------------------------------------------------------------------------- figures


@dataclass
class Row:
    figure: str
    ours: str
    peer: str = "-"
    ratio: str = "-"
    target: str = "-"
    holds: str = "-"


def _verdict(ok: bool | None) -> str:
    return "-" if ok is None else ("yes" if ok else "NO")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def _mbps(nbytes: int, seconds: float) -> str:
    return f"{nbytes / MB / seconds:.1f} MB/s"


def _installed(make: Maker) -> bool:
    try:
        make()
    except ImportError:
        return False
    return True


def throughput_rows(
    texts: list[str], runs: int, warmup: bool, peers: Sequence[Peer] = PEERS
) -> list[Row]:
    nbytes = sum(len(t.encode("utf-8")) for t in texts)
    installed = [peer for peer in peers if _installed(peer.make)]
    ours, *peer_times = chunker_times([_ours] + [p.make for p in installed], texts, runs, warmup)
    measured = dict(zip([p.name for p in installed], peer_times, strict=True))
    ours_mem = peak_memory(_ours, texts)
    speed, memory = [], []
    for peer in peers:
        speed_name, mem_name = f"throughput vs {peer.name}", f"peak memory vs {peer.name}"
        ours_cell = f"{_mbps(nbytes, statistics.median(ours))} (best {_mbps(nbytes, min(ours))})"
        ours_mem_cell = f"{ours_mem / MB:.1f} MB"
        target = "-" if peer.target is None else f">= {peer.target:g}x"
        if peer.name not in measured:
            speed.append(Row(speed_name, ours_cell, NOT_INSTALLED, "-", target))
            memory.append(Row(mem_name, ours_mem_cell, NOT_INSTALLED))
            continue
        theirs = measured[peer.name]
        best = min(theirs) / min(ours)
        median = statistics.median(theirs) / statistics.median(ours)
        speed.append(
            Row(
                speed_name,
                ours_cell,
                f"{_mbps(nbytes, statistics.median(theirs))} (best {_mbps(nbytes, min(theirs))})",
                f"{best:.2f}x (median {median:.2f}x)",
                target,
                _verdict(None if peer.target is None else best >= peer.target),
            )
        )
        their_mem = peak_memory(peer.make, texts)
        memory.append(
            Row(
                mem_name,
                ours_mem_cell,
                f"{their_mem / MB:.1f} MB",
                f"{their_mem / max(ours_mem, 1):.2f}x",
            )
        )
    return speed + memory


def _routed() -> Callable[[str], object]:
    return lambda text: chunk(text, "routed")  # each document's type, then its chunker


def routing_row(texts: list[str], runs: int, warmup: bool) -> Row:
    """Routing's cost: classifying every document, then its type's chunker (prose:
    the structural chunker), in CPU time against the structural chunker alone."""
    ours, structural = chunker_times([_routed, _ours], texts, runs, warmup)
    best = min(ours) / min(structural)
    median = statistics.median(ours) / statistics.median(structural)
    return Row(
        ROUTING_FIGURE,
        f"{_ms(statistics.median(ours))} (best {_ms(min(ours))})",
        f"structural: {_ms(statistics.median(structural))} (best {_ms(min(structural))})",
        f"{best:.2f}x (median {median:.2f}x)",
        "<= 1.20x",
        _verdict(best <= 1.20),
    )


def scaling_row(texts: list[str], runs: int, warmup: bool, quick: bool) -> Row:
    """Time per MB on a document of ~1 MB and on 16 copies of it (16 MB)."""
    small = concatenated(texts, 64_000 if quick else MB)
    large = "\n\n".join([small] * 16)

    def per_mb(make: Maker) -> tuple[float, float]:
        out = []
        for doc in (small, large):
            (times,) = chunker_times([make], [doc], runs, warmup)
            t = min(times)
            out.append(t / (len(doc.encode("utf-8")) / MB))
        return out[0], out[1]

    a, b = per_mb(_ours)
    name = FIGURES[10]
    ours = f"{b / a:.2f}x ({a * 1000:.0f} -> {b * 1000:.0f} ms/MB)"
    try:
        pa, pb = per_mb(_langchain_markdown)
        peer = f"LangChain markdown: {pb / pa:.2f}x"
    except ImportError:
        peer = NOT_INSTALLED
    return Row(name, ours, peer, "-", "<= 1.30x", _verdict(b / a <= 1.30))


def lottery_row(texts: list[str], runs: int, warmup: bool, quick: bool) -> Row:
    from lab.measure.survival import lottery_map

    words = 10_000 if quick else 100_000
    doc = first_words(concatenated(texts, words * 12), words)
    middle = list(re.finditer(r"\S+", doc))[words // 2 : words // 2 + 12]
    answer = doc[middle[0].start() : middle[-1].end()]
    fractions = [round(i * 0.05, 2) for i in range(11)]
    # -- fresh text each run: the survival code keeps the last documents' layouts, and a
    # -- timed run that found it kept would measure only the arithmetic, not the map
    times = repeat(
        lambda: lottery_map(
            fresh([doc], "lottery")[0], answer, range(5, 501), fractions, unit="words"
        ),
        runs,
        warmup,
    )
    best = min(times)
    return Row(
        FIGURES[11],
        f"{_ms(statistics.median(times))} (best {_ms(best)})",
        target="< 100 ms",
        holds=_verdict(statistics.median(times) < 0.1),
    )


Timed = tuple[str, Callable[[], object]]  # what a cell says it is, and the work timed


def _two_ways_row(
    figure: str,
    ours: Timed,
    theirs: Timed,
    ratio: Callable[[float, float], str],
    runs: int,
    warmup: bool,
) -> Row:
    """Our median time beside that of the way it is compared with, held to 2 seconds;
    ``ratio`` words the two medians (ours, theirs)."""
    med = statistics.median(repeat(ours[1], runs, warmup))
    their_med = statistics.median(repeat(theirs[1], runs, warmup))
    return Row(
        figure,
        f"{_ms(med)} ({ours[0]})",
        f"{_ms(their_med)} ({theirs[0]})",
        ratio(med, their_med),
        "< 2 s",
        _verdict(med < 2.0),
    )


def sweep_row(files: list[Path], runs: int, warmup: bool, quick: bool) -> Row:
    largest = max(files, key=lambda p: p.stat().st_size)
    text = read(largest)
    n = 20 if quick else 200
    sizes = [100 + round(i * 2900 / (n - 1)) for i in range(n)]  # 100 to 3,000 chars

    def parse_once() -> None:
        parsed = parse(fresh([text], "sweep")[0])
        for s in sizes:
            chunk_parsed(parsed, ChunkOptions(size=s, overlap=0))

    def reparse() -> None:
        doc = fresh([text], "sweep")[0]
        for s in sizes:
            chunk(doc, "structural", s, 0)

    return _two_ways_row(
        FIGURES[12],
        ("parse once", parse_once),
        ("re-parse per size", reparse),
        lambda ours, theirs: f"{theirs / ours:.2f}x",
        runs,
        warmup,
    )


def token_survival_row(runs: int, warmup: bool, quick: bool) -> Row:
    """A survival curve of the structural chunker over 200 sizes in tokens, beside
    the same curve over as many sizes in characters (4 characters a token): a
    step in tokens should cost no more than one in characters."""
    from lab.inputs.gold import load_gold
    from lab.measure.survival import survival_curve

    largest = max(SAMPLES.glob("*.md"), key=lambda p: p.stat().st_size)
    text = read(largest)
    answer = next(
        q.answer for q in load_gold(largest.with_suffix(".gold.jsonl")).questions if q.answer
    )
    n = 20 if quick else 200
    sizes = [10 * (i + 1) for i in range(n)]  # 10 to 2,000 tokens

    def sweep(unit: str, sizes: list[int]) -> Callable[[], object]:
        def run() -> None:
            doc = fresh([text], f"tokens {unit}")[0]
            survival_curve(doc, answer, "structural", sizes, unit=unit, overlap_fraction=0.1)

        return run

    return _two_ways_row(
        FIGURES[21],
        (f"{largest.stem}, parse once", sweep("tokens", sizes)),
        ("the same in chars", sweep("chars", [4 * s for s in sizes])),
        lambda ours, theirs: f"{ours / theirs:.2f}x of chars",
        runs,
        warmup,
    )


# the smallest 60 sizes of each unit's sweep (ui.present.sweeps): the costliest to chunk
DRAG_SIZES = {"words": range(8, 68), "chars": range(100, 700, 10), "tokens": range(8, 128, 2)}


def drag_rows(runs: int, quick: bool) -> list[Row]:
    """What a drag slider is sent, computed as the app computes it, over a 0.7 MB
    upload: every size's chunks that reach the window around an answer a third of the
    way in, and its verdict; per strategy, in each unit, held to 3 s in the slowest."""
    from lab.measure.drag import drag_frames, drag_window, window_around
    from lab.measure.survival import find_answer

    text = read(CORPUS / "fastapi" / "docs" / "en" / "docs" / "release-notes.md")
    if quick:
        text = text[:60_000]
    # the first whole line, not blank, after a third of the way
    line = next(x for x in text[len(text) // 3 :].splitlines()[1:] if x.split())
    answer = " ".join(line.split()[:8])

    def frames(strategy: str, unit: str) -> Callable[[], object]:
        def run() -> None:
            doc = fresh([text], f"drag {strategy} {unit}")[0]
            span = find_answer(doc, answer)
            sizes = list(DRAG_SIZES[unit])[: 6 if quick else None]
            found = drag_frames(
                doc, answer, strategy, sizes, unit=unit, window=window_around(doc, span)
            )
            drag_window(doc, span, found).to_json()

        return run

    rows = []
    drag = FIGURES[: FIGURES.index(BUDGET_FIGURE)][-len(DRAG_STRATEGIES) :]
    for strategy, figure in zip(DRAG_STRATEGIES, drag, strict=True):
        medians = {
            unit: statistics.median(repeat(frames(strategy, unit), runs, False))
            for unit in DRAG_SIZES
        }
        slowest = max(medians.values())
        rows.append(
            Row(
                figure,
                ", ".join(f"{_ms(t)} {unit}" for unit, t in medians.items()),
                target="< 3 s",
                holds=_verdict(slowest < 3.0),
            )
        )
    return rows


def tokenizing_row(texts: list[str], runs: int, warmup: bool) -> Row:
    """Tokens counted per second over the corpus, text by text, fresh text every run."""
    from chunkers.tokens import tokenizer_for

    tok = tokenizer_for("cl100k_base")
    total = [0]

    def count() -> None:
        total[0] = sum(map(tok.count, fresh(texts, "tokenizing")))

    times = repeat(count, runs, warmup)
    med = statistics.median(times)
    nbytes = sum(len(t.encode("utf-8")) for t in texts)
    return Row(
        FIGURES[22],
        f"{total[0] / med / 1e6:.1f} M tokens/s, {_mbps(nbytes, med)} "
        f"({total[0]:,} tokens; offsets: {_offsets_rate(tok, texts)})",
    )


def _offsets_rate(tok, texts: list[str]) -> str:
    """Characters per second placed by Tokenizer.offsets (the fixed windows' cuts)."""
    doc = "\n\n".join(fresh(texts, "offsets"))
    seconds = timed(lambda: tok.offsets(doc))
    return f"{_mbps(len(doc.encode('utf-8')), seconds)}"


def bm25_row(texts: list[str], runs: int, warmup: bool, quick: bool) -> Row:
    from lab.retrieval.bm25 import ChunkIndex
    from lab.retrieval.bm25_variants import chunk_scores

    want = 1_000 if quick else 10_000
    chunks = []
    for t in texts * 10:  # small chunks of the corpus, as many as asked for
        chunks.extend(chunk(t, "structural", 300, 0))
        if len(chunks) >= want:
            break
    chunks = chunks[:want]
    question = "how do I declare a request body with a Pydantic model?"
    # Scoring is what a question costs: the index (tokenising every chunk) is
    # built once per chunking, as the app and the integrity check do.
    index = ChunkIndex(chunks)
    times = repeat(lambda: index.score(question), runs, warmup)
    whole = repeat(lambda: chunk_scores(chunks, question), runs, warmup)
    med = statistics.median(times)
    return Row(
        FIGURES[13],
        f"{_ms(med)} (best {_ms(min(times))}, {len(chunks):,} chunks)",
        f"{_ms(statistics.median(whole))} with the index built too",
        target="< 50 ms",
        holds=_verdict(med < 0.05),
    )


def gold_row(runs: int, warmup: bool, quick: bool) -> Row:
    from lab.inputs.gold import load_gold
    from lab.measure.integrity import check_gold

    docs = sorted(SAMPLES.glob("*.md"))[: 1 if quick else None]
    cases = []
    for path in docs:
        gold = path.with_name(path.stem + ".gold.jsonl")
        if gold.is_file():
            cases.append((read(path), load_gold(gold).questions))

    def check_all() -> None:
        for text, pairs in cases:
            check_gold(text, pairs, "structural", ChunkOptions())

    times = repeat(check_all, runs, warmup)
    med = statistics.median(times)
    return Row(
        FIGURES[14],
        f"{_ms(med)} ({len(cases)} documents)",
        target="< 1 s",
        holds=_verdict(med < 1.0),
    )


def fair_rows(files: list[Path], runs: int, quick: bool) -> list[Row]:
    """The check with a budget, and with context (titles and heading paths, the questions
    ranked with no context too, as `--context title+path` does), against the plain check:
    chunking included, CPU time (the shared machine's other work does not inflate it),
    each run beside a plain one so both see the same machine."""
    from lab.inputs.gold import GoldQuestion, Passage
    from lab.measure.integrity import check_judged
    from lab.retrieval.bm25_variants import Bm25Retriever

    docs = {str(f): read(f) for f in files}
    pairs = [
        GoldQuestion(
            str(line["question"]),
            str(line.get("answer", "")),
            doc=str(line["doc"]),
            passages=tuple(Passage(**p) for p in line.get("passages", [])),  # type: ignore[arg-type]
        )
        for line in _gate_gold(docs, 30 if quick else 300)
    ]
    opts = ChunkOptions()

    def check(**fair: object) -> Callable[[], object]:
        def run() -> None:
            chunked = {n: chunk_with(t, "structural", opts) for n, t in docs.items()}
            check_judged(
                docs,
                pairs,
                "structural",
                opts,
                retrievers=[Bm25Retriever()],
                chunked=chunked,
                **fair,  # type: ignore[arg-type]
            )

        return run

    def cpu(fn: Callable[[], object]) -> float:
        return timed(fn, time.process_time)

    plain, budget, context = [], [], []
    for _ in range(max(3, runs)):
        plain.append(cpu(check()))
        budget.append(cpu(check(budget=4_000)))
        context.append(cpu(check(context="title+path", baseline="none")))
    base = statistics.median(plain)
    rows = []
    for name, times, note in (
        (BUDGET_FIGURE, budget, "a budget of 4,000 chars"),
        (CONTEXT_FIGURE, context, "titles, heading paths, and a rank with no context"),
    ):
        ratio = statistics.median(times) / base
        rows.append(
            Row(
                name,
                f"{statistics.median(times):.2f} s CPU ({note}; {len(pairs)} questions)",
                f"{base:.2f} s CPU plain",
                f"{ratio:.2f}x",
                target="<= 1.2x",
                holds=_verdict(ratio <= 1.2),
            )
        )
    return rows


def _pdf_of(nbytes: int, tables: bool = False) -> tuple[bytes, int]:
    """A text PDF of at least ``nbytes``: the warehouse manual's pages, printed over and
    over (streams uncompressed, as many producers write them), and its page count;
    with ``tables``, each page ends in a small ruled table."""
    from fpdf import FPDF

    pages = read(SAMPLES / "warehouse_manual.md").split("\n## Page ")[1:]

    def printed(times: int) -> bytes:
        pdf = FPDF()
        pdf.set_compression(False)
        for _ in range(times):
            for page in pages:
                pdf.add_page()
                for block in page.split("\n\n")[1:]:
                    heading = block.startswith("#")
                    pdf.set_font("Helvetica", "B" if heading else "", 14 if heading else 10)
                    text = " ".join(block.lstrip("#| ").split())
                    pdf.multi_cell(0, 5, text, new_x="LMARGIN", new_y="NEXT")
                if tables:
                    pdf.set_font("Helvetica", size=9)
                    with pdf.table() as table:
                        for cells in (("Part", "Torque (Nm)"), ("Bolt", "45"), ("Nut", "30")):
                            row = table.row()
                            for cell in cells:
                                row.cell(cell)
        return bytes(pdf.output())

    times = -(-nbytes // len(printed(1)))  # rounded up
    data = printed(times)
    while len(data) < nbytes:  # the file's own overhead is counted once, not per copy
        times += 1
        data = printed(times)
    return data, times * len(pages)


def _peer_rows(
    figure: str,
    ours: list[float],
    timings: dict[str, Timing],
    peer_runs: int | None = None,
) -> list[Row]:
    """A row per peer under a document's row: its median beside ours, and the ratio
    (the peer's time over ours: above 1, ours is ahead)."""
    rows = []
    for name, timing in timings.items():
        figure_name = f"{figure} vs {name}"
        if timing.failure or not timing.times:
            rows.append(Row(figure_name, _ms(statistics.median(ours)), timing.failure or "-"))
            continue
        ratio = timing.median / statistics.median(ours)
        runs = "" if peer_runs is None else f" ({len(timing.times)} run{'s' * (peer_runs > 1)})"
        rows.append(
            Row(
                figure_name,
                _ms(statistics.median(ours)),
                _ms(timing.median) + runs,
                f"{ratio:.1f}x",
                target="> 1x",
                holds=_verdict(ratio > 1),
            )
        )
    return rows


def _bound(convert: Callable[[bytes, str], object], data: bytes, name: str) -> Callable[[], object]:
    return lambda: convert(data, name)


def pdf_rows(runs: int, warmup: bool, quick: bool) -> list[Row]:
    """The app's first view of an uploaded PDF waits for this conversion: text only,
    then with a table on every page (a page with rules also meets the table finder).
    The peers convert the same bytes, once each after a warm-up on a small file (a run of
    theirs on 1 MB takes tens of seconds), in turns with ours."""
    rows = []
    # -- the targets: a 1 MB PDF under a second; with a table on every page, whose rules
    # -- pdfplumber's table finder joins in Python, under three
    for figure, tables, limit in ((FIGURES[23], False, 1.0), (FIGURES[24], True, 3.0)):
        try:
            from lab.inputs.convert import pdf_to_markdown

            data, pages = _pdf_of(MB // 16 if quick else MB, tables)
        except ImportError as err:
            rows.append(Row(figure, f"skipped: {err.name} is not installed"))
            continue
        made = peers_for(".pdf", large=True)
        for _, fn in made:  # the warm-up: imports, models, caches, on a few pages
            if not isinstance(fn, str):
                with contextlib.suppress(Exception):
                    fn(_pdf_of(1, tables)[0], "warm-up.pdf")
        peers = [(name, fn if isinstance(fn, str) else _bound(fn, data, "upload.pdf"))
                 for name, fn in made]  # fmt: skip
        cpu: list[float] = []

        def ours(data: bytes = data, cpu: list[float] = cpu) -> None:
            t0 = time.process_time()
            pdf_to_markdown(data)
            cpu.append(time.process_time() - t0)

        times, timings = timed_in_turns(ours, peers, runs, warmup, peer_runs=1)
        med, med_cpu = statistics.median(times), statistics.median(cpu[-len(times) :])
        rows.append(
            Row(
                figure,
                f"{_ms(med)}, {_ms(med_cpu)} CPU ({len(data) / MB:.2f} MB, {pages} pages, "
                f"{med / pages * 1000:.2f} ms a page)",
                target=f"< {limit:g} s CPU",
                holds=_verdict(med_cpu < limit),
            )
        )
        rows += _peer_rows(figure, times, timings, peer_runs=1)
    return rows


REAL = ROOT / "tests" / "data" / "documents"  # real files from other projects' test corpora
_REAL_FILES = (
    (FIGURES[25], "federal_register_pages_1-6.pdf"),
    (FIGURES[26], "pr136_chinese_page1.pdf"),
    (FIGURES[27], "web/womencantalksports.com-top10.html"),
    (FIGURES[28], "markitdown_test.docx"),
)


def document_rows(runs: int, warmup: bool) -> list[Row]:
    """A row per format: a real file from another project's test corpus, converted
    as an upload is (the first view of it waits for this); under it, a row per peer
    converting the same bytes, in turns with ours."""
    rows = []
    for figure, name in _REAL_FILES:
        path = REAL / name
        try:
            from lab.inputs.convert import convert
        except ImportError as err:
            rows.append(Row(figure, f"skipped: {err.name} is not installed"))
            continue
        data = path.read_bytes()
        peers = [(peer, fn if isinstance(fn, str) else _bound(fn, data, path.name))
                 for peer, fn in peers_for(path.suffix)]  # fmt: skip
        times, timings = timed_in_turns(_bound(convert, data, path.name), peers, runs, warmup)
        med = statistics.median(times)
        rows.append(
            Row(figure, f"{_ms(med)} ({len(data) / 1024:.0f} KB)", target="< 1 s",
                holds=_verdict(med < 1.0))
        )  # fmt: skip
        rows += _peer_rows(figure, times, timings)
    return rows


def _gold_lines(files: list[Path], n: int) -> list[dict[str, str]]:
    """A throwaway gold set: the first ten words of a prose line from n spread-out documents."""
    pairs = []
    step = max(1, len(files) // n)
    for path in files[::step][:n]:
        for line in read(path).splitlines():
            words = line.split()
            if (
                len(words) >= 12
                and re.match(r"[A-Za-z]", line)
                and not re.search(r"[`|<>\[\]{}*_#]", line)
            ):
                pairs.append(
                    {
                        "question": "what does it say about " + " ".join(words[:3]) + "?",
                        "answer": " ".join(words[:10]),
                        "doc": str(path.resolve()),
                    }
                )
                break
    return pairs


def lab_check_row(files: list[Path], runs: int, warmup: bool, quick: bool) -> Row:
    """`python -m lab check` as a CI job runs it: a fresh interpreter, imports included,
    over the whole corpus, with a gold file written for the purpose (check needs one)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = CORPUS
        if quick:  # the quick slice only, copied into a folder of its own
            folder = Path(tmp) / "slice"
            folder.mkdir()
            for i, f in enumerate(files):
                (folder / f"{i:02d}-{f.name}").write_bytes(f.read_bytes())
            files = sorted(folder.glob("*.md"))
        gold = Path(tmp) / "corpus.gold.jsonl"
        pairs = _gold_lines(files, 3 if quick else 20)
        gold.write_text("".join(json.dumps(p) + "\n" for p in pairs), encoding="utf-8")
        cmd = [sys.executable, "-m", "lab", "check", str(folder), "--gold", str(gold)]
        done: list[subprocess.CompletedProcess[str]] = []

        def run_check() -> None:
            done.append(subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True))

        times = repeat(run_check, runs, warmup)
    med = statistics.median(times)
    last = done[-1]
    if last.returncode == 0:
        status = "PASS"
    elif "Traceback" in last.stderr or last.returncode not in (1, 2):
        status = f"crashed: {(last.stderr.strip().splitlines() or ['?'])[-1][:60]}"
    else:  # 1: an answer not intact or a failing runt; 2: bad input
        status = f"exit {last.returncode}: {(last.stderr.strip() or 'check failed')[:60]}"
    return Row(
        FIGURES[15],
        f"{_ms(med)} ({len(pairs)} answers, {status})",
        target="< 10 s",
        holds=_verdict(med < 10.0),
    )


def _copies(files: list[Path], folder: Path, copies: int) -> dict[str, str]:
    """``copies`` copies of the corpus under ``folder`` (c00/, c01/, ...), each document
    opening with a marker of its own, so every copy is fresh text. Name -> text."""
    written: dict[str, str] = {}
    for n in range(copies):
        marker = f"<!-- copy {n} {secrets.token_hex(6)} -->\n"
        for f in files:
            name = f"c{n:02d}/{f.relative_to(CORPUS).as_posix()}"
            text = marker + read(f)
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(text.encode("utf-8"))
            written[name] = text
    return written


_PROSE = re.compile(r"^[A-Za-z][^`|<>\[\]{}*_#\n]{60,}$", re.MULTILINE)


def _gate_gold(docs: dict[str, str], n: int) -> list[dict[str, object]]:
    """n questions spread over the documents: a third answers (ten words), a third
    passages by text (a prose line), a third passages by character span."""
    lines = []
    names = sorted(docs)
    step = max(1, len(names) // n)
    for i in range(n * 4):
        name = names[(i * step + i // len(names)) % len(names)]
        m = next(_PROSE.finditer(docs[name]), None)
        if m is None:
            continue
        words = m.group().split()
        line: dict[str, object] = {
            "question": "what does it say about " + " ".join(words[:4]) + "?",
            "doc": name,
        }
        form = len(lines) % 3
        if form == 0:
            line["answer"] = " ".join(words[:10])
        elif form == 1:
            line["passages"] = [{"text": m.group()}]
        else:
            line["passages"] = [{"start": m.start(), "end": m.end()}]
        lines.append(line)
        if len(lines) == n:
            break
    return lines


def _gate_time(files: list[Path], copies: int, questions: int) -> tuple[float, float, str]:
    """One `python -m lab check` (fresh interpreter) over ``copies`` copies of the corpus."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "corpus"
        docs = _copies(files, folder, copies)
        lines = _gate_gold(docs, questions)
        gold = Path(tmp) / "gate.gold.jsonl"
        gold.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
        mb = sum(len(t.encode("utf-8")) for t in docs.values()) / MB
        cmd = [sys.executable, "-m", "lab", "check", str(folder), "--gold", str(gold), "--quiet"]
        cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    status = {0: "PASS", 1: "FAIL"}.get(done.returncode, f"exit {done.returncode}")
    if done.returncode not in (0, 1):
        status += f": {(done.stderr.strip().splitlines() or ['?'])[-1][:60]}"
    # CPU time beside the wall time: on a shared machine the wall clock waits for others
    return seconds, cpu, f"{cpu:.1f} s CPU; {len(lines)} questions, {mb:.1f} MB, {status}"


def gate_rows(files: list[Path], quick: bool) -> list[Row]:
    """The gate at corpus scale: 1,000 questions over the corpus x10, then x20.
    One run each (a run is tens of seconds); quick: x1 and x2 of the slice, 30 questions.
    The time is judged on the wall clock; the doubling on CPU time, which the other
    work on a shared machine does not inflate between the two runs (both are shown)."""
    copies, questions = (1, 30) if quick else (10, 1_000)
    small, small_cpu, small_note = _gate_time(files, copies, questions)
    large, large_cpu, large_note = _gate_time(files, copies * 2, questions)
    ratio = large_cpu / max(small_cpu, 1e-9)
    return [
        Row(
            FIGURES[16],
            f"{small:.1f} s ({small_note})",
            target="< 30 s",
            holds=_verdict(small < 30.0),
        ),
        Row(
            FIGURES[17],
            f"{large:.1f} s ({large_note})",
            ratio=f"{ratio:.2f}x CPU ({large / small:.2f}x wall)",
            target="<= 2.2x",
            holds=_verdict(ratio <= 2.2),
        ),
    ]


def app_rows(files: list[Path], runs: int, quick: bool) -> list[Row]:
    names = FIGURES[18:21]
    if quick:
        return [Row(n, "skipped in quick mode (tests/app covers the app)") for n in names]
    if not (ROOT / "app.py").is_file():
        return [Row(n, "skipped: app.py is not there yet") for n in names]
    try:
        from streamlit.testing.v1 import AppTest
    except ImportError:
        return [Row(n, "skipped: streamlit.testing is not importable") for n in names]
    try:
        return _app_rows(AppTest, files, runs)
    except Exception as exc:  # the app is being built alongside: say so, do not stop the bench
        note = f"skipped: the app failed under AppTest ({type(exc).__name__}: {str(exc)[:60]})"
        return [Row(n, note) for n in names]


def _app_rows(AppTest, files: list[Path], runs: int) -> list[Row]:  # noqa: N803
    def ok(at):
        if at.exception:
            raise RuntimeError(at.exception[0].message)
        return at

    largest = max(SAMPLES.glob("*.md"), key=lambda p: p.stat().st_size).stem
    t0 = time.perf_counter()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["doc"] = largest
    ok(at.run())
    first = time.perf_counter() - t0

    slider = at.slider(key="size")
    lo, hi, step = slider.min, slider.max, slider.step or 1
    moves = []
    for i in range(runs + 1):  # the first move warms up
        value = slider.value + step if slider.value + step <= hi else lo
        slider.set_value(value)
        t0 = time.perf_counter()
        ok(at.run())
        if i:
            moves.append(time.perf_counter() - t0)
        slider = at.slider(key="size")
    move = statistics.median(moves)

    upload = concatenated([read(f) for f in files], MB).encode("utf-8")
    at.selectbox(key="doc").set_value("__upload__")
    ok(at.run())
    at.file_uploader(key="upload").upload("corpus-1mb.md", upload, "text/markdown")
    t0 = time.perf_counter()
    ok(at.run())
    view = time.perf_counter() - t0
    return [
        Row(FIGURES[18], _ms(first), target="< 2 s", holds=_verdict(first < 2.0)),
        Row(FIGURES[19], f"{_ms(move)} ({largest})", target="< 300 ms", holds=_verdict(move < 0.3)),
        Row(
            FIGURES[20],
            f"{_ms(view)} ({len(upload) / MB:.1f} MB)",
            target="< 3 s",
            holds=_verdict(view < 3.0),
        ),
    ]


# --------------------------------------------------------------------------- profile


def _cpu_best(fn: Callable[[], object], runs: int) -> float:
    fn()  # warm-up
    return min(timed(fn, time.process_time) for _ in range(runs))


def step_times(texts: list[str], runs: int) -> list[tuple[str, float]]:
    """CPU seconds of each step of the structural chunker over the texts (best of
    ``runs``), each step timed alone on what the step before it made."""
    from chunkers.spans import finish
    from chunkers.structural import pack_drafts
    from chunkers.structural.engine import top_level_blocks
    from chunkers.text import SourceText

    opts = ChunkOptions()
    docs = fresh(texts, "steps")
    sources = [SourceText.of(d) for d in docs]
    parsed = [parse(src) for src in sources]

    def pack_all() -> list[list]:
        for doc in parsed:
            doc.cache.clear()  # what a first packing finds: no cached lengths or sentences
        return [pack_drafts(doc, opts) for doc in parsed]

    drafts = pack_all()
    whole = _cpu_best(lambda: [chunk(d) for d in docs], runs)
    engine = _cpu_best(lambda: [top_level_blocks(src.norm) for src in sources], runs)
    parsing = _cpu_best(lambda: [parse(src) for src in sources], runs)
    pairs = list(zip(sources, drafts, strict=True))
    steps = [
        ("pulldown-cmark parse, its events walked, character offsets", engine),
        ("blocks: trim, typing, headings, sections", parsing - engine),
        ("packing, splitting, runt merge, overlap", _cpu_best(pack_all, runs)),
        ("Chunk records", _cpu_best(lambda: [finish(src, d, "chars") for src, d in pairs], runs)),
    ]
    # -- each step is timed apart at its best, so their sum can pass the whole by
    # -- the machine's noise: what is left is never below nothing
    rest = max(0.0, whole - sum(t for _, t in steps))
    steps.append(("other: line endings, dispatch, freeing the parse", rest))
    return [("structural chunker, whole", whole), *steps]


def profile(texts: list[str], runs: int) -> str:
    """Where the structural chunker's time goes on the texts: each step timed on its
    own, then cProfile's list of the functions that spend the most themselves."""
    steps = step_times(texts, runs)
    whole = steps[0][1]
    lines = [
        f"{len(texts)} files; CPU time, best of {runs} runs",
        "",
        "| step | ms | share |",
        "|---|---|---|",
        *(f"| {step} | {t * 1000:.0f} | {t / whole:.0%} |" for step, t in steps),
    ]
    profiler = cProfile.Profile()
    docs = fresh(texts, "profile")
    gc.collect()
    profiler.enable()
    for doc in docs:
        chunk(doc)
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(row[2] for row in stats.values())
    lines += [
        "",
        "cProfile, the functions that spend the most themselves (it charges every call",
        "its own overhead, so functions called often look larger than they are):",
        "",
        "| function | calls | share of own time |",
        "|---|---|---|",
    ]
    for (path, line, function), (_, calls, own, _, _) in sorted(
        stats.items(), key=lambda item: -item[1][2]
    )[:15]:
        where = f" ({Path(path).parent.name}/{Path(path).name}:{line})" if line else ""
        lines.append(f"| {function}{where} | {calls:,} | {own / total:.0%} |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- output


def table(rows: Sequence[Row]) -> str:
    head = ("figure", "ours", "peer", "ratio", "target", "holds?")
    cells = [head] + [(r.figure, r.ours, r.peer, r.ratio, r.target, r.holds) for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    lines = [
        "| " + " | ".join(c[i].ljust(widths[i]) for i in range(len(head))) + " |" for c in cells
    ]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs, {cpu}, Python {platform.python_version()}"


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.run", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure (default 5)")
    parser.add_argument(
        "--quick", action="store_true", help="a small slice, one run, no warm-up (CI)"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="only where the structural chunker's time goes on the corpus, step by step",
    )
    parser.add_argument(
        "--against",
        metavar="COMMIT",
        help="only the throughput figures, with the structural chunker at COMMIT as one "
        "more peer (target: today's at least as fast), timed in turns in this process",
    )
    parser.add_argument(
        "--documents",
        action="store_true",
        help="only the document conversions (PDF, HTML, Word), with markitdown and "
        "pymupdf4llm converting the same files in turns",
    )
    args = parser.parse_args(argv)
    if args.against:  # (a commit that cannot be loaded is said before anything is read)
        try:
            then = chunker_at(args.against)
        except RevisionError as err:
            print(f"bench.run: {err}", file=sys.stderr)
            return 2
        peer = Peer(revision_label(args.against), lambda: then, target=1.0)
    runs, warmup = (1, False) if args.quick else (max(1, args.runs), True)
    if args.documents:  # (no corpus needed: the files are the tests' and a generated PDF)
        print(f"machine: {machine()}; load average {_load()} at the start")
        rows = pdf_rows(runs, warmup, args.quick) + document_rows(runs, warmup)
        print(f"load average {_load()} at the end")
        print(table(rows))
        return 0
    files = corpus_files(args.quick)
    texts = [read(f) for f in files]
    if args.profile:
        print(f"machine: {machine()}")
        print(profile(texts, runs))
        return 0
    if args.against:
        print(f"machine: {machine()}")
        print(table(throughput_rows(texts, runs, warmup, (peer, *PEERS))))
        return 0
    nbytes = sum(len(t.encode("utf-8")) for t in texts)
    print(
        f"Chunk Lab benchmark{' (quick: a small slice, scaled-down figures)' if args.quick else ''}"
    )
    print(f"machine: {machine()}")
    print(
        f"corpus: {len(files)} files, {nbytes / MB:.2f} MB; {runs} timed run(s)"
        f"{' after a warm-up' if warmup else ''}; chunkers at {SIZE} chars / {OVERLAP} overlap"
    )
    rows: list[Row] = []
    steps: list[Callable[[], list[Row] | Row]] = [
        lambda: throughput_rows(texts, runs, warmup),
        lambda: scaling_row(texts, runs, warmup, args.quick),
        lambda: lottery_row(texts, runs, warmup, args.quick),
        lambda: sweep_row(files, runs, warmup, args.quick),
        lambda: token_survival_row(runs, warmup, args.quick),
        lambda: tokenizing_row(texts, runs, warmup),
        lambda: bm25_row(texts, runs, warmup, args.quick),
        lambda: gold_row(runs, warmup, args.quick),
        lambda: lab_check_row(files, runs, warmup, args.quick),
        lambda: gate_rows(files, args.quick),
        lambda: app_rows(files, runs, args.quick),
        lambda: pdf_rows(runs, warmup, args.quick),
        lambda: document_rows(runs, warmup),
        lambda: drag_rows(min(runs, 3), args.quick),
        lambda: fair_rows(files, runs, args.quick),
        lambda: routing_row(texts, runs, warmup),
    ]
    for step in steps:
        out = step()
        rows.extend(out if isinstance(out, list) else [out])
    print()
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
