"""The lab's one tokenizer for BM25: SQLite FTS5's ``unicode61`` for words between
spaces, overlapping character bigrams for Chinese, Japanese and Korean.

rank-bm25 takes pre-split tokens; the sparse index reads the same lists, and FTS5 is
given them already split (``lab.retrieval.fts5``), so the three BM25 variants differ
in scoring only, never in splitting.

-- why bigrams -- Chinese and Japanese put no space between words, so unicode61 makes
a whole run of Han or kana one token, and a question shares no token with its answer
(BM25 then ranks at random). Each two neighbouring characters as a token, as Lucene's
CJKBigramFilter does, matches the one- and two-character words most Chinese words are
without a dictionary; Hangul runs (words between spaces) are split the same way, as
Lucene does.
"""

from __future__ import annotations

import re
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

# -- the characters written without spaces between words: Han ideographs (with 々 and
# -- 〇), hiragana, katakana (half-width too) and Hangul. The one place this set is
# -- written for searching: the tokenizer, the embedders' reading check and the gold
# -- set's keywords all ask ``has_cjk`` or ``CJK_RUN``.
_CJK_CHARS = (
    "\u1100-\u11ff\u3005\u3007\u3021-\u3029\u3038-\u303b\u3040-\u309f\u30a0-\u30ff"
    "\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7ff"
    "\uf900-\ufaff\uff66-\uffdc\U0001b000-\U0001b16f\U00020000-\U0003134f"
)
CJK_RUN = re.compile(f"[{_CJK_CHARS}]+")
_CJK_OR_NOT = re.compile(f"[{_CJK_CHARS}]+|[^{_CJK_CHARS}]+")


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a Han, kana or Hangul character."""
    return CJK_RUN.search(text) is not None


_WORD_CHAR = re.compile(r"[^\W_]")


def cjk_share(text: str) -> float:
    """The share of ``text``'s letters and digits that are Han, kana or Hangul (0 to 1)."""
    cjk = sum(len(run) for run in CJK_RUN.findall(text))
    if not cjk:
        return 0.0
    return cjk / max(cjk, len(_WORD_CHAR.findall(text)))


def bigrams(run: str) -> list[str]:
    """A run of CJK characters as Lucene's CJKBigramFilter gives it: each two
    neighbours overlapping, or the character itself for a run of one."""
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _split_cjk(token: str) -> list[str]:
    """One unicode61 token with CJK in it: its CJK runs as bigrams, the rest as it is."""
    out: list[str] = []
    for part in _CJK_OR_NOT.findall(token):
        out.extend(bigrams(part) if CJK_RUN.fullmatch(part) else [part])
    return out


def words_unicode61(text: str) -> list[str]:
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

    >>> words_unicode61("Mumbai's FY24 revenue: 18,412")
    ['mumbai', 's', 'fy24', 'revenue', '18', '412']
    """
    return text.lower().translate(_TABLE).split()


def tokenize(text: str) -> list[str]:
    """The tokens BM25 indexes: unicode61's words (``words_unicode61``), each run of
    Han, kana or Hangul in them turned into overlapping bigrams (``bigrams``).

    >>> tokenize("Rust的所有权 rules")
    ['rust', '的所', '所有', '有权', 'rules']
    """
    words = text.lower().translate(_TABLE).split()
    if not has_cjk(text):  # -- text without CJK: unicode61's words, at their old speed
        return words
    out: list[str] = []
    for w in words:
        if has_cjk(w):
            out.extend(_split_cjk(w))
        else:
            out.append(w)
    return out
