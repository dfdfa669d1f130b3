"""Line-ending normalisation with an offset map back to the text as given.

Every strategy works on LF text so that CRLF and CR input chunk exactly as LF
does; spans are mapped back so offsets still point into the caller's text.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

import numpy as np

from .scripts import count_words, word_spans
from .tokens import DEFAULT_TOKENIZER, tokenizer_for

__all__ = ["SourceText", "count_units", "surrogates_and_returns", "word_spans"]
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class SourceText:
    original: str
    norm: str
    # norm offsets at which a '\r' of a CRLF pair was dropped (sorted)
    _dropped: tuple[int, ...] = ()
    # what a strategy finds once per text whatever the size (token offsets and
    # counts), for a sweep that chunks one SourceText at many sizes
    cache: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, text: str) -> SourceText:
        surrogates, returns = surrogates_and_returns(text)
        # Lone surrogates (from a lossy decode) become U+FFFD in the working copy:
        # the same length, so offsets hold, and segmenters that must encode the
        # text as UTF-8 no longer fail on it. Bodies are still sliced from the original.
        norm = _SURROGATE.sub("\ufffd", text) if surrogates else text
        if not returns:
            return cls(text, norm)
        dropped: list[int] = []
        for m in re.finditer("\r\n", norm):
            dropped.append(m.start() - len(dropped))
        norm = norm.replace("\r\n", "\n").replace("\r", "\n")
        return cls(text, norm, tuple(dropped))

    def to_source(self, i: int) -> int:
        """Map an offset in ``norm`` to the matching offset in ``original``."""
        if not self._dropped:
            return i
        return i + bisect_left(self._dropped, i)

    def to_norm(self, i: int) -> int:
        """The offset in ``norm`` of offset ``i`` in ``original`` (a dropped '\r' maps
        to the '\n' after it): to_source's inverse."""
        if not self._dropped:
            return i
        # the k-th dropped '\r' sits at dropped[k] + k in the original
        lo, hi = 0, len(self._dropped)
        while lo < hi:
            mid = (lo + hi) // 2
            if self._dropped[mid] + mid < i:
                lo = mid + 1
            else:
                hi = mid
        return i - lo

    def to_source_all(self, offsets: np.ndarray) -> np.ndarray:
        """``to_source`` of every offset in an array at once."""
        if not self._dropped:
            return offsets
        return offsets + np.searchsorted(np.asarray(self._dropped, np.int64), offsets, "left")


def surrogates_and_returns(text: str) -> tuple[bool, bool]:
    """(a lone surrogate is in the text, a carriage return is). Only a lone
    surrogate makes UTF-8 encoding fail."""
    if text.isascii():  # (known without a scan: ASCII text has no surrogate)
        return False, "\r" in text
    try:
        text.encode("utf-8")
        surrogates = False
    except UnicodeEncodeError:
        surrogates = True
    return surrogates, "\r" in text


def count_units(text: str, unit: str, tokenizer: str = DEFAULT_TOKENIZER) -> int:
    """Length of ``text`` in the unit: words for words (whitespace-delimited, each
    Han ideograph and kana one: chunkers.scripts), characters for chars, the
    tokenizer's count for tokens."""
    if unit == "chars":
        return len(text)
    if unit == "tokens":
        return tokenizer_for(tokenizer).count(text)
    return count_words(text)
