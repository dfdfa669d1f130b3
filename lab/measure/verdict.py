"""The index gate's verdict: the one place that decides whether an index ships.

Every caller asks ``gate_verdict``: the integrity report (an answer in no chunk),
the check's report (runts, thresholds) and the boilerplate lesson (a gold passage
stripped). The rules, in the order a failure names them (docs/gate.md):

1. no answer or passage may lie in no chunk (the chunk does not exist);
2. runts: a chunk below the floor with no excuse fails a strategy that promises a
   floor (the structural chunker merges runts), and any strategy when the user sets
   ``max_runts`` (more than that many fail); otherwise runts are reported and warned
   about, never failed, so baselines at full marks can be compared by exit code;
3. a ``--min-*`` threshold not met;
4. a gold passage lying in text stripped as boilerplate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chunkers.registry import promises_floor


def _n(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The gate's answer: the rules that failed (none: it passes) and the warnings."""

    failed: tuple[str, ...] = ()  # each failed rule in words, e.g. "2 runts with no excuse"
    warnings: tuple[str, ...] = ()  # what was reported but does not fail the gate

    @property
    def passed(self) -> bool:
        return not self.failed

    @property
    def line(self) -> str:
        """The report's last line: PASS, or FAIL and the rules that failed."""
        return "PASS" if self.passed else "FAIL: " + "; ".join(self.failed)


def runts_fail(strategy: str, max_runts: int | None) -> int | None:
    """How many unexcused runts a strategy may have before the gate fails (None: runts
    never fail it, they are only reported)."""
    if max_runts is not None:
        return max_runts
    return 0 if promises_floor(strategy) else None


def gate_verdict(
    *,
    missing: int,
    strategy: str = "",
    runts: int = 0,
    max_runts: int | None = None,
    below: Sequence[str] = (),
    stripped: int = 0,
) -> Verdict:
    """Whether the index ships.

    Args:
        missing: questions with an answer or passage in no chunk.
        strategy: the strategy that made the chunks ("structural", "fixed", "chunks:FILE").
        runts: chunks below the floor with no excuse (lab.measure.stats.runt_invariant).
        max_runts: the user's allowance of such runts (``--max-runts``), or None.
        below: the thresholds not met, in words ("recall@5 0.600 < 0.8").
        stripped: gold questions whose passage lies in text stripped as boilerplate.
    """
    failed: list[str] = []
    warnings: list[str] = []
    if missing:
        failed.append(f"{_n(missing, 'answer')} in no chunk (chunk does not exist)")
    allowed = runts_fail(strategy, max_runts)
    if runts:
        said = _n(runts, "runt") + " with no excuse"
        if allowed is None:
            warnings.append(f"{said} (reported, not failed: {strategy} promises no floor)")
        elif runts > allowed:
            why = (
                f"more than --max-runts {max_runts}"
                if max_runts is not None
                else f"{strategy} promises a floor"
            )
            failed.append(f"{said} ({why})")
    if below:
        failed.append("below threshold: " + ", ".join(below))
    if stripped:
        failed.append(f"{_n(stripped, 'gold passage')} in text stripped as boilerplate")
    return Verdict(tuple(failed), tuple(warnings))
