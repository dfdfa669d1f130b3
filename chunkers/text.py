"""Line-ending normalisation with an offset map back to the text as given.

Every strategy works on LF text so that CRLF and CR input chunk exactly as LF
does; spans are mapped back so offsets still point into the caller's text.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

_WS = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class SourceText:
    original: str
    norm: str
    # norm offsets at which a '\r' of a CRLF pair was dropped (sorted)
    _dropped: tuple[int, ...] = ()

    @classmethod
    def of(cls, text: str) -> "SourceText":
        if "\r" not in text:
            return cls(text, text)
        dropped: list[int] = []
        for m in re.finditer("\r\n", text):
            dropped.append(m.start() - len(dropped))
        norm = text.replace("\r\n", "\n").replace("\r", "\n")
        return cls(text, norm, tuple(dropped))

    def to_source(self, i: int) -> int:
        """Map an offset in ``norm`` to the matching offset in ``original``."""
        if not self._dropped:
            return i
        return i + bisect_left(self._dropped, i)


def count_units(text: str, unit: str) -> int:
    """Length of ``text`` in the unit: whitespace tokens for words (as seed 002 counts)."""
    if unit == "chars":
        return len(text)
    return len(text.split())


def word_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of every whitespace-delimited token in text[start:end]."""
    if end is None:
        end = len(text)
    return [(m.start(), m.end()) for m in _WS.finditer(text, start, end)]
