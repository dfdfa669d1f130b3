"""How sure a difference between two chunkings is: a paired bootstrap over the questions.

Both chunkings answer the same questions, so each question gives a pair of scores
(its reciprocal rank, or whether it was found within k, under A and under B). The
difference B - A is resampled with the questions drawn with replacement, the pairs
kept together; the middle 95 % of the resampled mean differences is the interval.
When it spans zero, the questions cannot tell A and B apart; the number that could
is estimated from the interval's width, which shrinks as one over the square root
of the number of questions, if the difference stayed what it is.

Seeded, so the same questions give the same interval on every run.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

RESAMPLES = 2000
SEED = 0
LEVEL = 0.95


@dataclass(frozen=True, slots=True)
class PairedDifference:
    """The mean difference B - A over the questions, and its bootstrap interval."""

    difference: float
    low: float
    high: float
    questions: int

    @property
    def spans_zero(self) -> bool:
        return self.low <= 0.0 <= self.high

    @property
    def questions_to_tell(self) -> int | None:
        """About how many questions in all would make the interval clear zero, were the
        difference to stay what it is (None: no difference, no number of questions)."""
        if not self.spans_zero:
            return self.questions
        half = (self.high - self.low) / 2
        if self.difference == 0 or half == 0:
            return None
        return math.ceil(self.questions * (half / abs(self.difference)) ** 2)

    @property
    def more_questions(self) -> int | None:
        """How many questions beyond these that would take (None: no number would)."""
        total = self.questions_to_tell
        return None if total is None else max(0, total - self.questions)

    def to_json(self) -> dict[str, object]:
        return {
            "difference": self.difference,
            "interval": [self.low, self.high],
            "questions": self.questions,
            "spans_zero": self.spans_zero,
            "more_questions_to_tell": self.more_questions,
        }


def paired_difference(
    a: Sequence[float], b: Sequence[float], *, seed: int = SEED, resamples: int = RESAMPLES
) -> PairedDifference:
    """The mean of b - a, question by question, with its paired bootstrap 95 % interval.

    Raises:
        ValueError: the two sides score different numbers of questions.
    """
    if len(a) != len(b):
        raise ValueError(f"paired scores need the same questions, got {len(a)} and {len(b)}")
    diffs = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    n = len(diffs)
    if n == 0:
        return PairedDifference(0.0, 0.0, 0.0, 0)
    rng = np.random.default_rng(seed)
    means = diffs[rng.integers(0, n, size=(resamples, n))].mean(axis=1)
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return PairedDifference(float(diffs.mean()), float(low), float(high), n)


def reciprocal_ranks(ranks: Sequence[int | None]) -> list[float]:
    """Each question's reciprocal rank (0 when no relevant chunk ranks): MRR's terms."""
    return [1.0 / r if r else 0.0 for r in ranks]


def found_within(ranks: Sequence[int | None], k: int) -> list[float]:
    """1 for each question with a relevant chunk within k, else 0: recall@k's terms."""
    return [1.0 if r is not None and r <= k else 0.0 for r in ranks]
