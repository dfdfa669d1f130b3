"""Drift: each source's chunk statistics saved as a baseline after an ingestion run, and
a later run compared against it (see docs/concepts.md).

A *source* is a sub-folder of the folder read (documents at its top level form the
source "."): documents of one source share a type and a converter, so a format
change shows there first, as a shifted length histogram. The figures are the
ones the monitoring rules name, each computed where it is defined: the length
percentiles and the runts below the floor (lab.measure.stats), the chunks per
thousand characters, and the atomic-element violation rates (lab.measure.atomic).

A run is compared with the baseline saved by the same version and configuration
(another one's figures differ for reasons that are not drift). A figure has moved
when a length or a count changes by more than ``max_change`` of its baseline value
(a quarter by default), or a rate by more than ``max_rate_change`` (five points).
Sources and documents present in both runs are compared; new and gone ones are named.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chunkers import Chunk, ChunkOptions

from .atomic import KINDS, Elements, Violations, elements, violations
from .stats import distribution

BASELINE_FORMAT = "chunk-lab baseline"
BASELINE_VERSION = 2  # 2: lead-ins stranded, chunks over the size and only markup
TOP = "."  # the source of the documents at the folder's top level
ALL = "(all sources)"
MAX_CHANGE = 0.25  # a length or a count moved: more than a quarter of its baseline value
MAX_RATE_CHANGE = 0.05  # a rate moved: more than five points
BINS = 20  # the length histogram: 20 equal bins up to the effective maximum, then one beyond

# the figures compared, in the order reports show them: (key, label, a rate?)
PERCENTILE_FIGURES = (("p1", 1), ("p5", 5), ("median", 50), ("p95", 95))
PER_1K = "chunks per 1,000 chars"
RUNTS = "runts below the floor"


class BaselineError(ValueError):
    """A baseline that cannot be compared with this run: one line, naming the fix."""


def source_of(doc: str) -> str:
    """The sub-folder a document belongs to ("." at the top level)."""
    return doc.split("/", 1)[0] if "/" in doc else TOP


def bin_edges(opts: ChunkOptions) -> list[float]:
    """The histogram's bin edges: BINS equal bins from 0 to the effective maximum."""
    top = opts.effective_max
    return [top * i / BINS for i in range(BINS + 1)]


def histogram(lengths: Sequence[int], opts: ChunkOptions) -> list[int]:
    """Chunks per bin of bin_edges, plus a last bin for anything past the effective maximum."""
    return histogram_on(lengths, bin_edges(opts))


def histogram_on(lengths: Sequence[int], edges: Sequence[float]) -> list[int]:
    """Chunks per bin of ``edges`` (equal bins from 0), plus one for anything past the
    last edge: a document binned as a saved baseline was."""
    bins, top = len(edges) - 1, edges[-1]
    counts = [0] * (bins + 1)
    for n in lengths:
        counts[bins if n > top else min(bins - 1, math.floor(n * bins / top))] += 1
    return counts


@dataclass(frozen=True)
class Figures:
    """The watched figures of a set of chunks (a document, a source, all of them)."""

    chunks: int
    chars: int
    percentiles: dict[str, float | None]  # p1, p5, median, p95 in the unit
    runts: int  # chunks below the floor
    violations: dict[str, tuple[int, int]]  # kind -> (violations, out of)
    histogram: list[int] = field(default_factory=list)

    @property
    def per_1k(self) -> float:
        return 1000 * self.chunks / self.chars if self.chars else 0.0

    @property
    def runt_share(self) -> float:
        return self.runts / self.chunks if self.chunks else 0.0

    def values(self) -> dict[str, tuple[float | None, bool]]:
        """Each compared figure: label -> (value, is a rate)."""
        out: dict[str, tuple[float | None, bool]] = {
            label: (self.percentiles.get(label), False) for label, _ in PERCENTILE_FIGURES
        }
        out[PER_1K] = (self.per_1k, False)
        out[RUNTS] = (self.runt_share, True)
        for kind in KINDS:
            bad, of = self.violations.get(kind, (0, 0))
            out[f"{kind} rate"] = (bad / of if of else 0.0, True)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "chunks": self.chunks,
            "chars": self.chars,
            "percentiles": self.percentiles,
            "chunks_per_1k_chars": self.per_1k,
            "runts_below_floor": self.runts,
            "violations": {k: list(v) for k, v in self.violations.items()},
            "histogram": self.histogram,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Figures:
        return cls(
            int(d["chunks"]),
            int(d["chars"]),
            {k: (None if v is None else float(v)) for k, v in d["percentiles"].items()},
            int(d["runts_below_floor"]),
            {k: (int(v[0]), int(v[1])) for k, v in d["violations"].items()},
            [int(n) for n in d.get("histogram", [])],
        )


def figures(chunks: Sequence[Chunk], chars: int, broken: Violations, opts: ChunkOptions) -> Figures:
    d = distribution(chunks, opts)
    pct = {label: d.percentiles.get(p) for label, p in PERCENTILE_FIGURES}
    counts = {k: (c.violations, c.out_of) for k, c in broken.counts.items()}
    return Figures(
        len(chunks), chars, pct, d.below_floor, counts, histogram([c.length for c in chunks], opts)
    )


@dataclass(frozen=True)
class Snapshot:
    """One run's figures: every document's, every source's and all of them together."""

    config: dict[str, Any]
    documents: dict[str, Figures]
    sources: dict[str, Figures]
    everything: Figures
    edges: list[float]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": BASELINE_FORMAT,
            "version": BASELINE_VERSION,
            "config": self.config,
            "bin_edges": self.edges,
            "all": self.everything.to_json(),
            "sources": {n: f.to_json() for n, f in self.sources.items()},
            "documents": {n: f.to_json() for n, f in self.documents.items()},
        }


def config_of(strategy: str, opts: ChunkOptions) -> dict[str, Any]:
    return {
        "strategy": strategy,
        "unit": opts.unit,
        "size": opts.size,
        "overlap": opts.overlap,
        "runt_merge": opts.runt_merge,
        "heading_paths": opts.heading_paths,
        # -- named only in tokens: baselines saved in words or chars compare as before
        **({"tokenizer": opts.tokenizer} if opts.unit == "tokens" else {}),
    }


def config_label(config: Mapping[str, Any]) -> str:
    c = config
    return f"{c['strategy']}:{c['unit']}:{c['size']}:{c['overlap']} (runt merge {c['runt_merge']})"


def snapshot(
    documents: Mapping[str, str],
    chunked: Mapping[str, Sequence[Chunk]],
    strategy: str,
    opts: ChunkOptions,
    found: Mapping[str, Elements] | None = None,
) -> Snapshot:
    """The figures of a run: chunk lists per document, and the documents' text."""
    found = found or {n: elements(t) for n, t in documents.items()}
    broken = {n: violations(n, chunked[n], found[n], opts.effective_max) for n in documents}
    docs = {n: figures(chunked[n], len(documents[n]), broken[n], opts) for n in documents}
    by_source: dict[str, list[str]] = {}
    for n in documents:
        by_source.setdefault(source_of(n), []).append(n)

    def together(names: Sequence[str]) -> Figures:
        merged = Violations()
        for n in names:
            merged = merged.merged(broken[n])
        chunks = [c for n in names for c in chunked[n]]
        return figures(chunks, sum(len(documents[n]) for n in names), merged, opts)

    sources = {s: together(names) for s, names in sorted(by_source.items())}
    return Snapshot(
        config_of(strategy, opts), docs, sources, together(list(documents)), bin_edges(opts)
    )


# --------------------------------------------------------------------------- baselines


def save_baseline(snap: Snapshot, path: Path) -> None:
    Path(path).write_text(json.dumps(snap.to_json(), indent=1) + "\n", encoding="utf-8")


def read_baseline(data: bytes | str, name: str) -> Snapshot:
    """A saved baseline; BaselineError (one line) when it is not one this version reads."""
    try:
        raw = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raw = None
    if not isinstance(raw, dict) or raw.get("format") != BASELINE_FORMAT:
        raise BaselineError(
            f"{name} is not a chunk-lab baseline; save one with `stats DIR --save-baseline FILE`"
        )
    if raw.get("version") != BASELINE_VERSION:
        raise BaselineError(
            f"{name} was saved by another version of chunk-lab (baseline format "
            f"{raw.get('version')!r}, this one reads {BASELINE_VERSION}); save a new baseline "
            "with --save-baseline"
        )
    try:
        return Snapshot(
            dict(raw["config"]),
            {n: Figures.from_json(f) for n, f in raw["documents"].items()},
            {n: Figures.from_json(f) for n, f in raw["sources"].items()},
            Figures.from_json(raw["all"]),
            [float(e) for e in raw["bin_edges"]],
        )
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise BaselineError(
            f"{name} is damaged (a figure is missing or not a number); save a new baseline "
            "with --save-baseline"
        ) from None


def load_baseline(path: Path) -> Snapshot:
    p = Path(path)
    if not p.is_file():
        what = "is a folder, not a file" if p.is_dir() else "was not found"
        raise BaselineError(f"baseline {p.name or p} {what}; check the path")
    return read_baseline(p.read_bytes(), p.name)


def check_config(baseline: Snapshot, config: Mapping[str, Any], name: str) -> None:
    """BaselineError when the baseline was saved for another chunking."""
    if dict(baseline.config) != dict(config):
        raise BaselineError(
            f"{name} was saved for {config_label(baseline.config)}, this run is "
            f"{config_label(config)}; run with the baseline's settings, or save a new baseline"
        )


# --------------------------------------------------------------------------- comparing


@dataclass(frozen=True, slots=True)
class Move:
    level: str  # "source" or "document"
    name: str
    figure: str
    before: float | None
    now: float | None
    rate: bool  # a rate (compared in points) or a length or count (compared relatively)
    moved: bool

    @property
    def change(self) -> str:
        """By how much, as a reader says it: "+31%" or "+12.5 points"."""
        if self.before is None or self.now is None:
            return "—"
        if self.rate:
            return f"{100 * (self.now - self.before):+.1f} points"
        if self.before == 0:
            return "new" if self.now else "0%"
        return f"{(self.now - self.before) / self.before:+.0%}"


def _moved(before: float | None, now: float | None, rate: bool, lim: tuple[float, float]) -> bool:
    if before is None or now is None:
        return (before is None) != (now is None)
    if rate:
        return abs(now - before) > lim[1]
    if before == 0:
        return now != 0
    return abs(now - before) / before > lim[0]


def _compare(
    level: str, name: str, before: Figures, now: Figures, lim: tuple[float, float]
) -> list[Move]:
    b, n = before.values(), now.values()
    return [
        Move(level, name, label, b[label][0], n[label][0], rate, _moved(b[label][0], v, rate, lim))
        for label, (v, rate) in n.items()
    ]


@dataclass(frozen=True)
class DriftReport:
    baseline: Snapshot
    now: Snapshot
    moves: list[Move]  # every compared figure, moved or not
    new: dict[str, list[str]]  # "source"/"document" -> names only in this run
    gone: dict[str, list[str]]  # ... only in the baseline
    max_change: float
    max_rate_change: float

    @property
    def moved(self) -> list[Move]:
        return [m for m in self.moves if m.moved]

    def moved_names(self, level: str) -> list[str]:
        return list(dict.fromkeys(m.name for m in self.moved if m.level == level))

    @property
    def drifted(self) -> bool:
        return bool(self.moved)

    def to_json(self) -> dict[str, Any]:
        return {
            "config": self.now.config,
            "thresholds": {"max_change": self.max_change, "max_rate_change": self.max_rate_change},
            "drifted": self.drifted,
            "moved_sources": self.moved_names("source"),
            "moved_documents": self.moved_names("document"),
            "moved": [
                {
                    "level": m.level,
                    "name": m.name,
                    "figure": m.figure,
                    "baseline": m.before,
                    "now": m.now,
                    "change": m.change,
                }
                for m in self.moved
            ],
            "new": self.new,
            "gone": self.gone,
        }


def compare(
    baseline: Snapshot,
    now: Snapshot,
    *,
    max_change: float = MAX_CHANGE,
    max_rate_change: float = MAX_RATE_CHANGE,
) -> DriftReport:
    lim = (max_change, max_rate_change)
    moves: list[Move] = []
    for level, old, new in (
        ("source", baseline.sources, now.sources),
        ("document", baseline.documents, now.documents),
    ):
        for name in new:
            if name in old:
                moves += _compare(level, name, old[name], new[name], lim)
    added = {
        "source": sorted(set(now.sources) - set(baseline.sources)),
        "document": sorted(set(now.documents) - set(baseline.documents)),
    }
    gone = {
        "source": sorted(set(baseline.sources) - set(now.sources)),
        "document": sorted(set(baseline.documents) - set(now.documents)),
    }
    return DriftReport(baseline, now, moves, added, gone, max_change, max_rate_change)
