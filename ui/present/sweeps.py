"""Labs 1-3 as data: size sweeps, step runs, lottery map, storage bill, strategy comparison.

Everything the boundary-lottery, overlap and structure labs display comes from
here (via lab.measure.survival, lab.measure.costs and chunkers), so the pages only draw.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from chunkers import STRATEGIES, Chunk, ChunkOptions
from chunkers.options import Unit
from chunkers.registry import OFFERED
from chunkers.text import count_units
from chunkers.tokens import OPENAI_ENCODINGS
from lab.inputs.placement import ChunkOrigin
from lab.measure.costs import cost_row, human_bytes, token_bill, vector_bytes, with_hnsw
from lab.measure.diff import ChunkConfig
from lab.measure.drag import too_long_to_drag
from lab.measure.stats import length_stats
from lab.measure.survival import SurvivalCurve, answer_units, lottery_map, survival_curve

# The app names a unit as a reader does (chunkers.options.Unit): "words", "chars",
# or a tokenizer's tokens ("cl100k_base tokens"), so every label and every cached
# call says which tokens; Unit.named gives the unit and tokenizer back.

# the sizes the app's slider and the sweeps cover, per unit, and the slider's step
# -- tokens: from a runt to past the 512 most pipelines were set to, in steps of two
# -- (a sweep at 512 covers 8-1,024: as many sizes as chars at 1,800)
SIZE_LIMITS = {"words": (4, 400), "chars": (40, 4000), "tokens": (4, 1200)}
SIZE_STEP = {"words": 1, "chars": 10, "tokens": 2}
SWEEP_SPAN = {"words": (8, 120), "chars": (100, 3000), "tokens": (8, 200)}


def display_name(strategy: str) -> str:
    """How the app names a strategy: the lab's four, the peers, or your chunks."""
    if ChunkOrigin.named(strategy).imported:
        return "Your chunks"
    return OFFERED[strategy].display_name


# the tokenizers the app offers (a link or a pin may name only these: never a path)
APP_TOKENIZERS = OPENAI_ENCODINGS
# every unit the app measures in, by name
APP_UNITS = ("words", "chars", *(str(Unit("tokens", t)) for t in APP_TOKENIZERS))


def config_string(strategy: str, unit: str, size: int, overlap: int) -> str:
    """A configuration as lab diff writes it (structural:tokens:512:50:o200k_base)."""
    u = Unit.named(unit)
    return str(ChunkConfig(strategy, u.base, size, overlap, u.tokenizer))


OVERLAP_FRACTIONS = tuple(round(f, 2) for f in np.arange(0.0, 0.55, 0.05))
# the corpus the storage bill is priced at: 10,000 documents averaging 2,000 words
CORPUS_DOCS = 10_000
CORPUS_WORDS_PER_DOC = 2_000


# The labs whose size control drags live (ui.drag_slider): the sweeps' labs.
DRAG_LABS = ("boundary", "overlap", "structure")


def drags_live(lab: str | None, text: str | None, answer: str | None, strategy: str) -> bool:
    """Whether ``lab`` shows the size control that redraws while it is dragged, for this
    document, answer and strategy: a sweep over sizes needs an answer in the text and a
    strategy with a size (not chunks uploaded as cut), and a document short enough to
    chunk at every size up front. Where it does, the sidebar shows no size slider of its
    own: one setting, one control."""
    return (
        lab in DRAG_LABS
        and bool(text)
        and bool(answer)
        and not ChunkOrigin.named(strategy).imported
        and too_long_to_drag(text or "", strategy) is None
    )


def sweep_sizes(unit: str, size: int, overlap: int = 0, max_points: int | None = None) -> list[int]:
    """Sizes a survival curve covers: the unit's span, widened by whole spans to reach
    twice ``size``, and starting above ``overlap`` (overlap must stay below every size). With
    ``max_points`` the sizes are thinned evenly (``thin``), always keeping ``size``."""
    unit = Unit.named(unit).base
    lo, hi = SWEEP_SPAN[unit]
    step = SIZE_STEP[unit]
    lo = max(lo, overlap + 1, SIZE_LIMITS[unit][0])
    # -- why bands -- a range ending at twice the size would change the drag slider's
    # -- sizes, and so its frames would be computed and sent again, at every step up;
    # -- ending at the next multiple of the span, it changes once per half a span
    hi = min(hi * -(-size * 2 // hi), SIZE_LIMITS[unit][1])
    sizes = set(range(lo - lo % step or step, hi + 1, step))
    ordered = sorted(s for s in sizes if s > overlap)
    return thin(sorted(set(ordered) | {size}), max_points, keep=size)


def thin(sizes: list[int], max_points: int | None, keep: int | None = None) -> list[int]:
    """At most about ``max_points`` of ``sizes``, evenly spread, and ``keep`` if it is
    one of them; all of them without ``max_points``."""
    if not max_points or len(sizes) <= max_points:
        return sizes
    stride = -(-len(sizes) // max_points)
    kept = set(sizes[::stride])
    if keep in sizes:
        kept.add(keep)
    return sorted(kept)


def join_curves(parts: Iterable[SurvivalCurve]) -> SurvivalCurve:
    sizes: list[int] = []
    intact: list[bool] = []
    overlaps: list[int] = []
    for p in parts:
        sizes += p.sizes
        intact += p.intact
        overlaps += p.overlaps
    return SurvivalCurve(sizes, intact, overlaps)


@dataclass(frozen=True, slots=True)
class SizeRun:
    """Consecutive sizes with the same verdict, from ``lo`` to ``hi``."""

    lo: int
    hi: int
    intact: bool

    @property
    def label(self) -> str:
        return str(self.lo) if self.lo == self.hi else f"{self.lo}-{self.hi}"


def size_runs(c: SurvivalCurve) -> list[SizeRun]:
    """Consecutive sizes with the same outcome, as the published lottery table lists them."""
    out: list[SizeRun] = []
    for s, ok in zip(c.sizes, c.intact, strict=True):
        if out and out[-1].intact == ok:
            out[-1] = SizeRun(out[-1].lo, s, ok)
        else:
            out.append(SizeRun(s, s, ok))
    return out


def runs_table(c: SurvivalCurve) -> list[dict[str, str]]:
    rs = size_runs(c)
    rows = []
    for i, r in enumerate(rs):
        label = f"{r.lo}+" if i == len(rs) - 1 and r.intact and r.lo != r.hi else r.label
        rows.append({"Chunk size": label, "Answer intact?": "✓" if r.intact else "✗"})
    return rows


# The published lottery table for the default document and question (fixed-size
# chunks, no overlap) lists sizes from 22 to 52 words and ends at "52+ ✓".
PUBLISHED_SIZES = (22, 52)


@dataclass(frozen=True, slots=True)
class FirstCut:
    """Where the first fixed-size chunk ends inside the answer (no overlap)."""

    first: int  # the answer's first unit, 1-based
    last: int  # its last unit
    unit: str

    @property
    def sizes(self) -> tuple[int, int]:
        """The sizes whose first boundary (after unit ``size``) falls inside the answer."""
        return self.first, self.last - 1

    @property
    def line(self) -> str:
        lo, hi = self.sizes
        return (
            f"The answer occupies {self.unit} {self.first}-{self.last} of the document, so "
            f"every size from {lo} to {hi} ends the very first chunk inside it: the answer is "
            f"cut again there, however far past the earlier intact sizes that is. From "
            f"{self.last} {self.unit} on, the first chunk holds it whole."
        )


def first_cut(text: str, answer: str, unit: str) -> FirstCut | None:
    """The run of sizes where the first chunk's end cuts the answer; None when the
    answer is one unit long (no boundary can fall inside it)."""
    u = Unit.named(unit)
    first, last = answer_units(text, answer, u.base, u.tokenizer)
    return FirstCut(first, last, unit) if last > first else None


def flips(c: SurvivalCurve) -> int:
    """How often the verdict changes along the curve: 0 for a strategy with no lottery."""
    return max(0, len(size_runs(c)) - 1)


def survival_share(c: SurvivalCurve) -> float:
    return sum(c.intact) / len(c.intact) if c.intact else 0.0


def size_from_selection(event: Any, valid: Sequence[int] | None = None) -> int | None:
    """The size of the first point clicked on a Plotly chart (Streamlit's selection
    state: ``{"selection": {"points": [{"x": 30, ...}]}}``), snapped to ``valid``."""
    try:
        sel = event["selection"] if isinstance(event, Mapping) else event.selection
        points = sel["points"] if isinstance(sel, Mapping) else sel.points
    except (KeyError, AttributeError, TypeError):
        return None
    for p in points or ():
        x = p.get("x") if isinstance(p, Mapping) else getattr(p, "x", None)
        if x is None:
            continue
        try:
            size = int(round(float(x)))
        except (TypeError, ValueError):
            continue
        if valid:
            size = min(valid, key=lambda v: (abs(v - size), v))
        return size
    return None


# --------------------------------------------------------------------------- lottery map


@dataclass(frozen=True, slots=True)
class LotteryGrid:
    sizes: list[int]
    fractions: list[float]
    intact: list[list[int]]  # rows = overlap fraction, columns = size; 1 intact, 0 split
    overlaps: list[list[int]]
    share_by_fraction: list[float]  # share of sizes that keep the answer, per row

    def row(self, size: int, overlap: int) -> int:
        """The row of the fraction nearest to ``overlap`` at ``size``."""
        return min(
            range(len(self.fractions)), key=lambda i: abs(self.fractions[i] - overlap / size)
        )

    def intact_at(self, size: int, overlap: int) -> bool | None:
        """The map's verdict at this setting (its nearest row); None off the map."""
        if size not in self.sizes:
            return None
        return bool(self.intact[self.row(size, overlap)][self.sizes.index(size)])


def lottery_grid(
    text: str,
    answer: str,
    unit: str,
    sizes: Sequence[int],
    fractions: Sequence[float] = OVERLAP_FRACTIONS,
) -> LotteryGrid:
    u = Unit.named(unit)
    m = lottery_map(text, answer, sizes, fractions, unit=u.base, tokenizer=u.tokenizer)
    grid = m.intact.astype(int)
    return LotteryGrid(
        [int(s) for s in m.sizes],
        [float(f) for f in m.fractions],
        grid.tolist(),
        m.overlaps.astype(int).tolist(),
        [float(r.mean()) if r.size else 0.0 for r in grid],
    )


# --------------------------------------------------------------------------- storage bill


@dataclass(frozen=True, slots=True)
class Bill:
    vectors: int
    vectors_without_overlap: int
    vector_bytes: int
    hnsw_bytes: float
    line: str  # the classic widget's line: "vectors stored: 8 — no overlap cost"
    corpus: dict[str, str] | None  # the bill at CORPUS_DOCS documents (words and tokens)


def storage_bill(
    chunks: Sequence[Chunk],
    chunks_without_overlap: int,
    opts: ChunkOptions,
    tokens_per_word: float = 0.0,
) -> Bill:
    """The bill for these chunks, and in words or tokens the corpus's (in tokens
    by ``tokens_per_word``, the document's own, for the options' tokenizer)."""
    n = len(chunks)
    if opts.overlap == 0:
        line = f"vectors stored: {n} — no overlap cost"
    else:
        ratio = n / chunks_without_overlap if chunks_without_overlap else 0.0
        line = f"vectors stored: {n} — {ratio:.2f}× the {chunks_without_overlap} without overlap"
    vb = vector_bytes(n)
    corpus = None
    if opts.unit == "words":
        row = cost_row(CORPUS_DOCS, CORPUS_WORDS_PER_DOC, opts.size, opts.overlap)
        base = cost_row(CORPUS_DOCS, CORPUS_WORDS_PER_DOC, opts.size, 0)
        corpus = {
            "Corpus": f"{CORPUS_DOCS:,} documents × {CORPUS_WORDS_PER_DOC:,} words",
            "Chunks": f"{row.chunks:,}",
            "Vectors @1536-dim": human_bytes(row.vector_bytes),
            "With HNSW (+50%)": human_bytes(row.hnsw_bytes),
            "Without overlap": human_bytes(base.vector_bytes),
            "Context at k=5": f"{row.context.words:,} words ≈ {row.context.tokens:,} tokens",
        }
    elif opts.unit == "tokens" and tokens_per_word:
        t = token_bill(
            CORPUS_DOCS, CORPUS_WORDS_PER_DOC, opts.size, opts.overlap, tokens_per_word,
            opts.tokenizer,
        )  # fmt: skip
        bare = token_bill(
            CORPUS_DOCS, CORPUS_WORDS_PER_DOC, opts.size, 0, tokens_per_word, opts.tokenizer
        )
        corpus = {
            "Corpus": f"{CORPUS_DOCS:,} documents × {CORPUS_WORDS_PER_DOC:,} words "
            f"≈ {t.total_tokens:,} {opts.unit_name} ({tokens_per_word:.2f} per word, "
            "as in this document)",
            "Chunks": f"{t.chunks:,}",
            "Vectors @1536-dim": human_bytes(t.vector_bytes),
            "With HNSW (+50%)": human_bytes(t.hnsw_bytes),
            "Without overlap": human_bytes(bare.vector_bytes),
            f"Context at k={t.k}": f"{t.k} chunks × {opts.size:,} {opts.unit_name} = "
            f"{t.context_tokens:,} {opts.unit_name} per request",
        }
    return Bill(n, chunks_without_overlap, vb, with_hnsw(vb), line, corpus)


# ------------------------------------------------------------------- strategies side by side


@dataclass(frozen=True, slots=True)
class SizeCheck:
    """Did a strategy keep to the size? Its largest chunk against the effective maximum
    (size + floor - 1, the most a runt merge may reach)."""

    largest: int
    limit: int
    over: int  # chunks longer than the limit
    unit: str

    def line(self, intact: bool | None) -> str:
        # -- why "the effective maximum" -- a chunk may pass the size by up to a runt
        # floor (a runt merged into it), so "within the size" was untrue of a 2,186-char
        # chunk at size 1,800: it is within the effective maximum, 2,249
        if not self.over:
            return (
                f"largest chunk {self.largest:,} {self.unit}, within the effective maximum "
                f"({self.limit:,})"
            )
        line = (
            f"⚠ ignored the size: {self.over} chunk(s) past the effective maximum of "
            f"{self.limit:,} {self.unit}, the largest {self.largest:,} {self.unit}"
        )
        return line + (": it survives because it ignored the size" if intact else "")


def size_check(chunks: Sequence[Chunk], opts: ChunkOptions) -> SizeCheck:
    stats = length_stats(chunks, opts)
    return SizeCheck(
        stats.max or 0, stats.effective_max, len(stats.over_effective_max), opts.unit_name
    )


def strategy_names() -> list[str]:
    """Structural, sentence, recursive, fixed: lab 3's order."""
    order = ["structural", "sentence", "recursive", "fixed"]
    return [s for s in order if s in STRATEGIES] + [s for s in STRATEGIES if s not in order]


def total_units(text: str, unit: str) -> int:
    u = Unit.named(unit)
    return count_units(text, u.base, u.tokenizer)


# --------------------------------------------------------------------------- the lottery in tokens

# the configuration most pipelines were set to, and the sizes the token lesson sweeps
PIPELINE_SIZE, PIPELINE_OVERLAP = 512, 50
TOKEN_LESSON_SIZES = range(8, 601, 2)


@dataclass(frozen=True, slots=True)
class TokenLesson:
    """The boundary lottery read in one tokenizer's tokens, for fixed-size windows."""

    unit: str  # "cl100k_base tokens"
    flips: int  # verdict changes over TOKEN_LESSON_SIZES, no overlap
    share: float  # share of those sizes that keep the answer
    at_pipeline: bool  # intact at 512 tokens with 50 overlap
    at_pipeline_bare: bool  # ... and with no overlap

    @property
    def line(self) -> str:
        lo, hi = TOKEN_LESSON_SIZES[0], TOKEN_LESSON_SIZES[-1]
        verdict = "intact" if self.at_pipeline else "split: unretrievable at any k"
        bare = "intact" if self.at_pipeline_bare else "split"
        return (
            f"**In {self.unit}.** Fixed-size windows from {lo} to {hi} {self.unit} keep this "
            f"answer at {self.share:.0%} of sizes and the verdict flips {self.flips} times. "
            f"At {PIPELINE_SIZE} {self.unit} with {PIPELINE_OVERLAP} overlap (the setting most "
            f"pipelines ship) it is {verdict}; without the overlap, {bare}. The lottery is "
            "the same in tokens: a verdict at one size says nothing about the next."
        )


def token_lesson(text: str, answer: str, tokenizer: str) -> TokenLesson:
    sizes = list(TOKEN_LESSON_SIZES)
    bare = survival_curve(text, answer, "fixed", sizes, unit="tokens", tokenizer=tokenizer)
    at = survival_curve(
        text, answer, "fixed", [PIPELINE_SIZE], unit="tokens", overlap=PIPELINE_OVERLAP,
        tokenizer=tokenizer,
    )  # fmt: skip
    return TokenLesson(
        str(Unit("tokens", tokenizer)),
        flips(bare),
        survival_share(bare),
        at.intact[0],
        bare.intact_at(PIPELINE_SIZE) is True,
    )
