"""A tokenizer that approximates SQLite FTS5's default ``unicode61`` tokenizer.

rank-bm25 takes pre-split tokens; giving it the same tokens FTS5 indexes keeps
the two BM25 implementations comparable (differences then come from scoring,
not from splitting).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

_DIACRITICS = range(0x0300, 0x0370)  # the Combining Diacritical Marks block


@lru_cache(maxsize=4096)
def _fold(ch: str) -> str:
    """One lowercased character as unicode61 stores it ("" = removed, " " = separator)."""
    if ord(ch) in _DIACRITICS:
        return ""  # a loose combining accent is dropped, joining its neighbours
    decomposed = unicodedata.normalize("NFD", ch)
    # remove_diacritics=1 strips one accent from a Latin letter (é -> e) but keeps
    # Greek tonos, Cyrillic й and stacked accents (ệ), as unicode61 does.
    base = decomposed[0]
    if (
        len(decomposed) == 2
        and base.isascii()
        and base.isalpha()
        and ord(decomposed[1]) in _DIACRITICS
    ):
        return base
    cat = unicodedata.category(ch)
    return ch if cat[0] in "LN" or cat == "Co" else " "  # default categories "L* N* Co"


class _FoldTable(dict):
    """ord -> folded string, filled on first sight: str.translate then folds
    each character in C instead of one Python call per character."""

    def __missing__(self, code: int) -> str:
        folded = _fold(chr(code))
        self[code] = folded
        return folded


_TABLE = _FoldTable()


def tokenize(text: str) -> list[str]:
    """Split ``text`` into lowercased word tokens the way unicode61 does (approximately).

    Rule:
      1. lowercase (``str.lower``, not ``casefold``: unicode61 keeps "straße");
      2. strip diacritics: a Latin letter with one accent loses it ("Déjà" ->
         "deja"), a standalone combining accent (U+0300-U+036F) is dropped;
      3. token characters are Unicode letters (L*), numbers (N*) and private-use
         (Co); every other character (spaces, punctuation, symbols, other
         combining marks) separates tokens.

    No NFKD compatibility folding, on purpose: unicode61 keeps "ﬁ", "x²" and
    "Ⅲ" as they are, and so do we. Still an approximation (unicode61 uses
    Unicode 6.1 tables), but it matches real FTS5 output on ordinary Latin,
    Cyrillic, Greek, CJK and Hangul text (see tests/retrieval/test_fts5.py).

    >>> tokenize("Mumbai's FY24 revenue: 18,412")
    ['mumbai', 's', 'fy24', 'revenue', '18', '412']
    """
    return text.lower().translate(_TABLE).split()
