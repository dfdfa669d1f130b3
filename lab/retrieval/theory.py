"""BM25's length normalisation in theory: the arithmetic behind the score-against-length chart.

With IDF held constant, a chunk's score for one term is proportional to the
term-frequency component ``tf*(k1+1) / (tf + k1*(1 - b + b*|D|/avgdl))``.
We report it relative to one match in an average-length chunk, so 1.00 means
"scores like a typical chunk" and 1.65 means "a 65% bonus for being short".
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .bm25 import DEFAULT_B, DEFAULT_K1, length_factor, term_weight


def _check(avgdl: float, k1: float, b: float) -> None:
    if avgdl <= 0 or k1 < 0 or not 0 <= b <= 1:
        raise ValueError(f"need avgdl > 0, k1 >= 0, 0 <= b <= 1 (got {avgdl}, {k1}, {b})")


def _out(x: np.ndarray) -> float | np.ndarray:
    return float(x) if x.ndim == 0 else x  # scalars in, plain floats out


def normaliser(length: ArrayLike, *, avgdl: float, b: float = DEFAULT_B) -> float | np.ndarray:
    """1 - b + b*|D|/avgdl: the length factor that k1 multiplies in the denominator."""
    _check(avgdl, DEFAULT_K1, b)
    return _out(length_factor(np.asarray(length, dtype=float), avgdl, b))


def relative_score(
    length: ArrayLike,
    *,
    avgdl: float,
    k1: float = DEFAULT_K1,
    b: float = DEFAULT_B,
    tf: ArrayLike = 1,
) -> float | np.ndarray:
    """Term-frequency component at ``length``/``tf``, divided by one match at avgdl.

    Vectorised: ``length`` and ``tf`` broadcast as numpy arrays.
    """
    _check(avgdl, k1, b)
    tf_ = np.asarray(tf, dtype=float)
    component = term_weight(tf_, length_factor(np.asarray(length, dtype=float), avgdl, b), k1)
    reference = term_weight(1, 1, k1)  # tf = 1 at length = avgdl: exactly 1
    return _out(component / reference)


def ceiling(k1: float = DEFAULT_K1) -> float:
    """The limit of relative_score as tf grows: saturation caps it at k1 + 1."""
    return k1 + 1


def inflation_cap(
    floor: float | None, *, avgdl: float, k1: float = DEFAULT_K1, b: float = DEFAULT_B
) -> float:
    """The largest bonus a short chunk can get: relative score at the runt floor,
    or at length 0 when there is no floor (``floor`` None or 0)."""
    return float(relative_score(floor or 0, avgdl=avgdl, k1=k1, b=b))
