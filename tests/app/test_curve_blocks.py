"""The survival curves a step draws: the same verdicts as sweeping every size at once,
and a step that widens the sweep chunks only the sizes no earlier step has."""

from __future__ import annotations

import pytest

import ui.cached
import ui.caching
import ui.chunk_files
import ui.survival_curves
from lab.measure.survival import survival_curve
from ui.present import sweeps

DOC = "support_kb"


def _answer() -> str:
    return ui.cached.gold_questions(DOC)[0].answer


@pytest.mark.parametrize(
    ("strategy", "unit", "size", "overlap"),
    [
        ("structural", "words", 90, 0),
        ("sentence", "chars", 1700, 100),
        ("recursive", "words", 37, 5),
    ],
)
def test_a_curve_is_the_verdict_at_every_size_swept_at_once(strategy, unit, size, overlap):
    text = ui.cached.sample_text(DOC)
    sizes = ui.survival_curves.sweep_sizes(unit, size, overlap)
    got = ui.survival_curves.curve(text, _answer(), strategy, sizes, unit, overlap)
    whole = survival_curve(text, _answer(), strategy, sizes, unit=unit, overlap=overlap)
    assert got == whole
    assert size in got.sizes


def test_walking_the_size_up_chunks_each_size_once(monkeypatch):
    text, answer = ui.cached.sample_text(DOC), _answer()
    per_step: list[list[int]] = []
    real = ui.survival_curves.survival_curve

    def counting(text, answer, strategy, sizes, **options):
        per_step[-1].extend(sizes)
        return real(text, answer, strategy, sizes, **options)

    monkeypatch.setattr(ui.survival_curves, "survival_curve", counting)
    # the sweep reaches twice the size in whole spans of 120 words: it widens at 121
    for size in range(110, 130):
        per_step.append([])
        ui.survival_curves.curve(
            text, answer, "structural", sweeps.sweep_sizes("words", size), "words", 0
        )
    later = [s for step in per_step[1:] for s in step]
    assert len(later) == len(set(later))  # no size chunked twice
    assert not set(later) & set(per_step[0])
    # only the step into the wider band chunks, and only the sizes it adds
    widened = [size for size, step in zip(range(111, 130), per_step[1:], strict=True) if step]
    assert widened == [121]
    assert min(later) > 240
