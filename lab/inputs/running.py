"""Running lines: a header, a footer or a stamp printed on many pages (or written
in many documents). One rule, used where a document's lines have a place: the
PDF converter (a line's height on the page) and the boilerplate finder (a line's
position among its page's lines).

A line recurs when it is the same compared case-, space- and digit-blind ("Page 3
of 12" and "Page 4 of 12" are one line, and so are the page numbers in a running
header). It is a running line when it recurs at the same place on at least a
quarter of the pages, and on three at least.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence

PLACED_SHARE = 0.25  # a running line recurs at one place on this share of the pages ...
MIN_UNITS = 3  # ... and on at least this many

_DIGITS = re.compile(r"\d+")
_SPACE = re.compile(r"\s+")


def line_key(line: str) -> str:
    """A line as running lines are compared: case-, space- and digit-blind."""
    return _DIGITS.sub("#", _SPACE.sub(" ", line.strip().casefold()))


def placed_threshold(units: int) -> int:
    """On how many of ``units`` pages a line must recur at one place."""
    return max(MIN_UNITS, math.ceil(PLACED_SHARE * units))


def running_lines(
    pages: Sequence[Iterable[tuple[str, Hashable]]], units: int | None = None
) -> set[tuple[str, Hashable]]:
    """The (key, place) pairs that recur on enough pages to be running lines: each
    page's lines as (line_key, place) pairs, out of ``units`` pages (default: as
    many as given)."""
    counts: Counter[tuple[str, Hashable]] = Counter()
    for page in pages:
        counts.update(set(page))
    need = placed_threshold(len(pages) if units is None else units)
    return {pair for pair, n in counts.items() if n >= need}
