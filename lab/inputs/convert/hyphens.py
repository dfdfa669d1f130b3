"""Words broken at a line's end ("con-" / "firming") joined again, as a reader
reads them; a hyphen the word really has ("well-known") kept.

A printed line break hides which hyphen it is. The document itself tells: a
compound the text also writes whole, mid-line, keeps its hyphen; any other word
broken before a lowercase letter is joined. A capital or a digit after the
break ("Jean-" / "Pierre", "COVID-" / "19") keeps the hyphen too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_COMPOUND = re.compile(r"\b([^\W\d_]+)-([^\W\d_]+)\b")
_BROKEN = re.compile(r"([^\W\d_]+)-$")  # a line ending in letters and a hyphen
_NEXT_WORD = re.compile(r"(\S+)\s*")


def compounds(lines: Iterable[str]) -> frozenset[str]:
    """The hyphenated words written whole inside lines, lowercased."""
    text = "\n".join(lines)  # one scan of the joined text, not one a line
    return frozenset(f"{a}-{b}".lower() for a, b in _COMPOUND.findall(text))


def join_broken_words(lines: list[str], whole: frozenset[str]) -> list[str]:
    """A paragraph's lines with each word broken at a line end moved up whole."""
    out = list(lines)
    for i in range(len(out) - 1):
        if not out[i].endswith("-"):  # most lines: no regex
            continue
        broken = _BROKEN.search(out[i])
        nxt = _NEXT_WORD.match(out[i + 1])
        if not broken or not nxt or not out[i + 1][:1].islower():
            continue
        tail = nxt.group(1)
        tail_letters = re.match(r"[^\W\d_]+", tail)
        compound = f"{broken.group(1)}-{tail_letters.group(0) if tail_letters else ''}"
        hyphen = "-" if compound.lower() in whole else ""
        out[i] = out[i][:-1] + hyphen + tail
        out[i + 1] = out[i + 1][nxt.end() :]
    return [line for line in out if line]
