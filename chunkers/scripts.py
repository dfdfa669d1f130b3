"""What text in each script marks: where Chinese and Japanese sentences, clauses
and words end, and the scripts whose sentences the segmenter cannot find.

Chinese and Japanese put no space between words, and often none after a
sentence: ``。！？`` (the full-width ``．``, the half-width ``｡``) end a
sentence whatever follows them, with the closing quotes and brackets that may
follow them (``」』）】》``, ...); ``，、；：`` end a clause. Between two
ideographs (or kana) lies a word seam.

Words are counted as Unicode's word boundaries (UAX #29) and Lucene's
StandardTokenizer count them in these scripts: each Han ideograph and each
hiragana is a word, a run of katakana is one word. Everything else keeps the
lab's own rule, a word is a run of non-whitespace, so text without CJK counts
exactly as before and Korean (Hangul, written with spaces) counts by its
spaces.

-- why not a library -- a full UAX #29 segmenter (ICU, the ``regex`` module's
-- WORD flag) also cuts "don't", "v3.2" and "e.g." apart, which would change
-- every English count; what is wanted is the whitespace rule with the CJK
-- letters cut out of it, a few regular expressions.
"""

from __future__ import annotations

import re

# -- the scripts written without spaces between words, as Unicode blocks: the one place
# -- they are written (the chunker's seams and words here; BM25's bigrams in
# -- lab.retrieval.tokenize, which adds Hangul and the kana supplement)
# Han ideographs (with the iteration marks and ideographic zero), hiragana: one word each;
# the ideographs in the basic plane and beyond it apart (a class of one kind searches fast)
HAN_BMP = "\u3005-\u3007\u3021-\u3029\u3038-\u303b\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
HAN_EXTENSIONS = "\U00020000-\U0003134f"
HIRAGANA = "\u3041-\u3096\u309d-\u309f"  # (not the voicing marks)
# katakana (with the prolonged sound mark, without the middle dot ・) and half-width
# katakana: a run is one word
KATAKANA = "\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9f"
KANA_SUPPLEMENT = "\U0001b000-\U0001b16f"  # historic kana
# Hangul (jamo, compatibility and half-width jamo, syllables): Korean keeps its spaces,
# so it counts words by them; BM25 still reads its runs as bigrams
HANGUL = "\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7ff\uffa0-\uffdc"
_HAN = HAN_BMP + HAN_EXTENSIONS
_HIRAGANA = HIRAGANA
_KATAKANA = KATAKANA
_CJK = _HAN + _HIRAGANA + _KATAKANA

# sentence ends, clause marks and the closers that may follow them
CJK_STOPS = "\u3002\uff01\uff1f\uff0e\uff61"  # 。！？．｡
CJK_CLAUSE_MARKS = "\uff0c\u3001\uff1b\uff1a\uff64"  # ，、；：､
CJK_CLOSERS = (
    "\u300d\u300f\uff09\u3011\u300b\u3009\u3015\u3017\u3019\u301b\uff3d\uff5d\u301e\u301f"
    "\u2019\u201d\uff02\uff07\"')"
)  # 」』）】》〉〕〗〙〛］｝〞〟 ’ ” ＂ ＇ " ' )

HAS_CJK = re.compile(f"[{_CJK}]")
_KATA = re.compile(f"[{_KATAKANA}]")
_WS = re.compile(r"\S+")
# a mark: neither a letter or digit (nor "_", as \w) nor whitespace
_MARK = rf"[^\w\s{_CJK}]"
# a word: an ideograph, a kana or a run of katakana, with the marks around it (an
# opening mark before, closing marks after); or a run of anything else but whitespace
_WORD = re.compile(rf"{_MARK}*(?:[{_HAN}{_HIRAGANA}]|[{_KATAKANA}]+){_MARK}*|[^\s{_CJK}]+")
# a CJK sentence end with its closers (a full-width full stop before a digit is a
# decimal point; one inside a markdown link's text, before its "]", ends nothing)
CJK_SENTENCE_END = re.compile(
    rf"(?:[{CJK_STOPS.replace(chr(0xFF0E), '')}]|\uff0e(?![0-9\uff10-\uff19]))++"
    rf"[{CJK_CLOSERS}]*+(?!\])"  # (possessive: no shorter run of marks ends before a "]")
)
# a CJK clause mark with its closers
CJK_CLAUSE_END = re.compile(rf"[{CJK_CLAUSE_MARKS}]+[{CJK_CLOSERS}]*")


def cjk_sentence_cuts(text: str, start: int, end: int) -> list[int]:
    """Where CJK sentences end inside text[start:end] (after their closers), however
    the text goes on: the cuts ``end`` itself excluded (ask has_cjk first: most
    text has none)."""
    return [m.end() for m in CJK_SENTENCE_END.finditer(text, start, end) if m.end() < end]


def has_cjk(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether text[start:end] holds a Han ideograph or a kana."""
    if end is None:
        if start == 0 and text.isascii():  # (known without a scan)
            return False
        end = len(text)
    return HAS_CJK.search(text, start, end) is not None


def word_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of every word in text[start:end]: whitespace-delimited, with each
    Han ideograph and kana (a run of katakana) a word of its own."""
    if end is None:
        end = len(text)
    pattern = _WORD if has_cjk(text, start, end) else _WS
    return [m.span() for m in pattern.finditer(text, start, end)]


def count_words(text: str) -> int:
    """The number of words in text (word_spans' rule), counted without finding them.

    -- why not len(_WORD.findall(text)) -- a match per ideograph costs more than the
    -- rest of chunking CJK text in words. The rule read as a sum: every ideograph
    -- and hiragana is a word, every run of katakana one, and every run of anything
    -- else but whitespace one when it holds a letter or digit or stands alone
    -- between whitespace (marks beside a CJK word belong to it). The tests hold
    -- the two readings equal."""
    if not has_cjk(text):
        return len(text.split())
    # (runs of ideographs, not each one: a match costs more than a character)
    n = sum(map(len, _LETTER_RUN.findall(text))) + len(_KATA_RUN.findall(text))
    end = len(text)
    for m in _OTHER_RUN.finditer(text):
        s, e = m.span()
        if _WORD_CHAR.search(text, s, e) or (
            (s == 0 or text[s - 1].isspace()) and (e == end or text[e].isspace())
        ):
            n += 1
    return n


_OTHER_RUN = re.compile(rf"[^\s{_CJK}]+")
_WORD_CHAR = re.compile(rf"[^\W{_CJK}]")


_LETTER_RUN = re.compile(f"[{_HAN}{_HIRAGANA}]+")
_KATA_RUN = re.compile(f"[{_KATAKANA}]+")


def is_word_seam(text: str, i: int) -> bool:
    """Whether a cut at ``i`` falls between two words (word_spans' rule): at
    whitespace, or where a word of CJK text starts or ends with no space.

    -- the same rule as _WORD, read at one place: scanning back over the marks
    -- before ``i`` finds the letter they close (a mark after a letter closes it;
    -- one opening a token opens the word after it)."""
    if i <= 0 or i >= len(text) or text[i - 1].isspace() or text[i].isspace():
        return True
    if not _is_letter(text, i):  # a mark joins the word before or after it
        return False
    j = i - 1
    while j >= 0 and not text[j].isspace() and not _is_letter(text, j):
        j -= 1
    if j < 0 or text[j].isspace():  # marks opening the token: they open this word
        return False
    a_cjk = HAS_CJK.match(text, j) is not None
    if HAS_CJK.match(text, i) is None:  # a letter outside CJK starts a word after a CJK one
        return a_cjk
    # a CJK letter starts a word, unless it goes on a run of katakana
    return not (j == i - 1 and _KATA.match(text, i) and _KATA.match(text, j))


_ENDS_AT_CJK_MARK = re.compile(rf"(?:{CJK_SENTENCE_END.pattern}|{CJK_CLAUSE_END.pattern})\Z")


def is_seam(text: str, i: int) -> bool:
    """Whether a cut at ``i`` falls at a seam: between two words, or right after a
    CJK sentence end or clause mark (whatever mark follows it: "。`code`")."""
    if is_word_seam(text, i):
        return True
    head = max(0, i - 8)
    return not text[head:i].isascii() and _ENDS_AT_CJK_MARK.search(text, head, i) is not None


def _is_letter(text: str, i: int) -> bool:
    """Whether text[i] is a letter, a digit or "_" (``\\w``), or a CJK letter."""
    c = text[i]
    return c.isalnum() or c == "_" or HAS_CJK.match(text, i) is not None


# Scripts written without spaces between words whose sentence ends the segmenter does
# not know (Thai, Lao, Myanmar, Khmer, Tibetan): their text is cut below the sentence
_UNSEGMENTED = {
    "Thai": "\u0e00-\u0e7f",
    "Lao": "\u0e80-\u0eff",
    "Tibetan": "\u0f00-\u0fff",
    "Myanmar": "\u1000-\u109f",
    "Khmer": "\u1780-\u17ff",
}
_UNSEGMENTED_RUN = {name: re.compile(f"[{chars}]{{12}}") for name, chars in _UNSEGMENTED.items()}


def unsegmented_scripts(text: str) -> list[str]:
    """The scripts of ``text`` (runs of a dozen letters or more) whose sentences the
    segmenter cannot find, in a fixed order: their text is cut by the ladder below
    the sentence (lines, stops, clause marks, spaces)."""
    if text.isascii():
        return []
    return [name for name, run in _UNSEGMENTED_RUN.items() if run.search(text)]


def unsegmented_note(text: str) -> str:
    """One line saying how text in such a script is cut; "" when there is none."""
    names = unsegmented_scripts(text)
    if not names:
        return ""
    return (
        f"{' and '.join(names)} text: its sentence ends are not known here, so it is cut "
        "below the sentence (at lines, stops, clause marks and spaces)"
    )
