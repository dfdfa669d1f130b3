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

from chunkers.scripts import HAN_BMP, HAN_EXTENSIONS, HANGUL, HIRAGANA, KANA_SUPPLEMENT, KATAKANA

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

# -- the characters written without spaces between words: Han ideographs, hiragana,
# -- katakana (half-width too) and Hangul, as chunkers.scripts writes their blocks.
# -- Searching for them here: the tokenizer, the embedders' reading check and the gold
# -- set's keywords all ask ``has_cjk`` or ``CJK_RUN``.
_CJK_BMP = HAN_BMP + HIRAGANA + KATAKANA + HANGUL
_KANA_SUPPLEMENT = KANA_SUPPLEMENT
_HAN_EXTENSIONS = HAN_EXTENSIONS
_CJK_CHARS = _CJK_BMP + _KANA_SUPPLEMENT + _HAN_EXTENSIONS
CJK_RUN = re.compile(f"[{_CJK_CHARS}]+")
# -- the test for any one of them, as three searches: a class of BMP ranges is a table
# -- lookup per character, one range a comparison, but a class that mixes ranges above
# -- U+FFFF is checked range by range (several times slower on text with none)
_ANY_CJK = tuple(re.compile(f"[{c}]") for c in (_CJK_BMP, _HAN_EXTENSIONS, _KANA_SUPPLEMENT))


_MARK = "\x01"  # a control character: in folded text only where put there


class _MarkedTable(dict):
    """As ``_TABLE``, each CJK character that is a token character preceded by _MARK:
    tokenize then finds CJK in the folded text with one search for one character,
    and the runs by splitting at it, with no regular expression over the text."""

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        folded = _TABLE[code]
        marked = _MARK + ch if folded == ch and CJK_RUN.fullmatch(ch) else folded
        self[code] = marked
        return marked


_MARKED = _MarkedTable()


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a Han, kana or Hangul character."""
    if text.isascii():  # -- (a loop in C: most text is known without a search)
        return False
    return any(p.search(text) is not None for p in _ANY_CJK)


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
    folded = text.lower().translate(_MARKED)
    if _MARK not in folded:  # -- no CJK: unicode61's words, at their old speed
        return folded.split()
    out: list[str] = []
    for word in folded.split():
        if _MARK not in word:
            out.append(word)
            continue
        # -- each piece after the first is a CJK character and what follows it up to
        # -- the next one: a run goes on while nothing follows its characters
        head, *pieces = word.split(_MARK)
        if head:
            out.append(head)
        run = ""
        for piece in pieces:
            run += piece[0]
            if len(piece) > 1:
                out.extend(bigrams(run))
                out.append(piece[1:])
                run = ""
        if run:
            out.extend(bigrams(run))
    return out
