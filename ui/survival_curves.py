"""Survival curves over chunk sizes, cached: the sizes a curve sweeps, curves keyed by
blocks of sizes so a slider step chunks only the block it enters, and a long
document's curve swept one size at a time behind a progress bar."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from chunkers.options import Unit
from lab.measure.survival import SurvivalCurve, survival_curve
from ui import cached, worker
from ui.caching import PROGRESS_CHARS
from ui.present import sweeps

# A long document's survival curve over a chunking strategy (not fixed-size windows,
# which are arithmetic) is swept at fewer sizes: as many as chunk SWEEP_CHARS
# characters in all, from MIN_SWEEP_POINTS to LONG_SWEEP_POINTS. -- why a budget --
# chunking is linear in the document: forty sizes of a 700 KB upload were forty
# seconds of structural, sentence and recursive chunking on a small machine, and the
# work of one student's sweep is taken from every other student's steps.
LONG_SWEEP_POINTS = 40
MIN_SWEEP_POINTS = 5
SWEEP_CHARS = 6_000_000


def sweep_sizes(unit: str, size: int, overlap: int = 0) -> list[int]:
    """The sizes a curve sweeps: every size of the unit's span (a long document's
    curve over a chunking strategy thins them, see ``curve``)."""
    return sweeps.sweep_sizes(unit, size, overlap)


def sweep_points(text: str) -> int:
    """How many sizes a long document's curve over a chunking strategy sweeps."""
    return max(MIN_SWEEP_POINTS, min(LONG_SWEEP_POINTS, SWEEP_CHARS // max(1, len(text))))


# -- why sizes go in as a string -- Streamlit hashes a cached call's arguments value
# by value in Python: a sweep's hundred sizes as a tuple cost more to key than one
# string of them, and a step keys four curves
def _sizes_key(sizes: Sequence[int]) -> str:
    return ",".join(map(str, sizes))


def _sizes(key: str) -> list[int]:
    return [int(s) for s in key.split(",")]


@st.cache_data(max_entries=1024, show_spinner=False)
def _curve(
    text: str, answer: str, strategy: str, sizes: str, unit: str, overlap: int
) -> SurvivalCurve:
    u = Unit.named(unit)
    if len(text) >= PROGRESS_CHARS:  # off this process's GIL (ui.worker says why)
        got = worker.curve(text, answer, strategy, _sizes(sizes), u.base, overlap, u.tokenizer)
        if got is not None:
            return got
    parsed = cached.parsed_document(text) if strategy == "structural" else None
    return survival_curve(
        text,
        answer,
        strategy,
        _sizes(sizes),
        unit=u.base,
        overlap=overlap,
        parsed=parsed,
        tokenizer=u.tokenizer,
    )


# -- why blocks -- a curve's sizes reach past twice the chosen size in whole spans
# (sweeps.sweep_sizes), so a step into the next band asks for a longer list of sizes,
# and a link or a pin may add a size off the slider's grid. Keyed as one list, each such
# step chunked the document at every size again (Lab 3: four curves, about a hundred
# chunkings a step). Keyed by blocks of CURVE_BLOCK sizes on the slider's grid, a step
# chunks only the blocks it adds; the verdict at each size is the same either way.
CURVE_BLOCK = 32


def _blocked_curve(
    text: str, answer: str, strategy: str, sizes: Sequence[int], unit: str, overlap: int
) -> SurvivalCurve:
    base = Unit.named(unit).base
    step, top = sweeps.SIZE_STEP[base], sweeps.SIZE_LIMITS[base][1]
    width, lo = CURVE_BLOCK * step, min(sizes)
    grid = lo % step  # the blocks hold the sizes of the sweep's own grid
    verdicts: dict[int, tuple[bool, int]] = {}
    for b in sorted({s // width for s in sizes}):
        first = max(b * width, lo)
        first += (grid - first) % step
        block = [s for s in range(first, min((b + 1) * width, top + 1), step) if s > overlap]
        if block:
            got = _curve(text, answer, strategy, _sizes_key(block), unit, overlap)
            verdicts.update(zip(got.sizes, zip(got.intact, got.overlaps, strict=True), strict=True))
    rest = [s for s in sizes if s not in verdicts]  # off the grid: the chosen size, say
    if rest:
        got = _curve(text, answer, strategy, _sizes_key(rest), unit, overlap)
        verdicts.update(zip(got.sizes, zip(got.intact, got.overlaps, strict=True), strict=True))
    return SurvivalCurve(
        list(sizes), [verdicts[s][0] for s in sizes], [verdicts[s][1] for s in sizes]
    )


def curve(
    text: str,
    answer: str,
    strategy: str,
    sizes: Sequence[int],
    unit: str,
    overlap: int,
    label: str = "",
    current: int | None = None,
) -> SurvivalCurve:
    """A survival curve. A long document's curve over a chunking strategy sweeps
    ``sweep_points`` of the sizes (and ``current``, the page's size), one size a step
    behind a progress bar; the current size's verdict comes from the page's own
    chunking at that size (``survival``), so a slider step chunks nothing twice."""
    if strategy == "fixed":  # arithmetic over word offsets: one call, whatever the sizes
        return _curve(text, answer, strategy, _sizes_key(sizes), unit, overlap)
    if len(text) < PROGRESS_CHARS:
        return _blocked_curve(text, answer, strategy, sizes, unit, overlap)
    sizes = sweeps.thin(list(sizes), sweep_points(text), keep=current)
    name = label or strategy
    bar = st.progress(0.0, text=f"Sweeping {name} over {len(sizes)} sizes…")
    done = []
    for i, size in enumerate(sizes, start=1):
        if size == current:
            at = cached.Chunking(text, strategy, size, overlap, unit)
            ok = cached.survival(at, answer).intact
            done.append(SurvivalCurve([size], [ok], [overlap]))
        else:
            done.append(_curve(text, answer, strategy, str(size), unit, overlap))
        bar.progress(i / len(sizes), text=f"Sweeping {name}: {i}/{len(sizes)} sizes")
    bar.empty()
    return sweeps.join_curves(done)
