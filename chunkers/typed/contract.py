"""Contract: chunks start at clauses and sub-clauses, the clause path
(``4. Redistribution > (b)``) as their heading path.

A clause is a numbered heading or line ("4.", "4.2", "Section 4"); a sub-clause
a lettered or roman one ("(b)", "(iv)"). The sub-clauses of one clause share a
chunk while they fit; a chunk of several names them as a range ("(a)-(c)").
A clause too long for a chunk is cut by the structural chunker, which never
cuts inside a sentence it can keep, so a defined term stays whole.
"""

from __future__ import annotations

import re

from ..doctype import CLAUSE, HEADING, SUB_CLAUSE
from ..options import ChunkOptions
from ..spans import Draft
from ..text import SourceText
from .units import Heading, Mark, heading_stack, lines, pack_units, titles

GAP_EXCUSE = "text outside the clauses"
EXCUSE = "a clause"
_ROMAN = re.compile(r"[ivx]+")
_LETTER_DEPTH, _ROMAN_DEPTH = 50, 51
# a clause's title: the words before its first full stop, when that is short
_TITLE = re.compile(r"([^.:;]{1,60}?)[.:]")


def _clause_label(number: str, dot: str, rest: str, heading: bool) -> str:
    rest = rest.strip().strip("*_").strip()
    if heading:
        return f"{number}{dot} {rest}".strip()
    title = _TITLE.match(rest)
    return f"{number}{dot} {title[1].strip()}" if title else f"{number}{dot}".strip()


def contract_marks(text: str) -> list[Mark]:
    marks: list[Mark] = []
    stack: list[Heading] = []
    clauses: list[tuple[int, str]] = []  # the open clauses: (depth, label)
    last_letter = ""
    for ln in lines(text):
        if ln.in_fence:
            continue
        clause = CLAUSE.match(ln.text)
        h = HEADING.match(ln.text)
        if clause:
            depth = clause["number"].count(".") + 1
            label = _clause_label(clause["number"], clause["dot"], clause["rest"], h is not None)
            clauses = [c for c in clauses if c[0] < depth] + [(depth, label)]
            last_letter = ""
            level = len(h[1]) if h else 7
            if h:
                stack = [s for s in stack if s.level < level]
            top = clauses[0][1]
            marks.append(Mark(ln.start, (*titles(stack), *(c[1] for c in clauses)), level, top))
        elif h:
            stack = heading_stack(stack, Heading(ln.start, len(h[1]), h[2].strip()))
            clauses, last_letter = [], ""
        elif (sub := SUB_CLAUSE.match(ln.text)) and clauses:
            label = sub["label"]
            # "(i)" after "(h)" is a letter; otherwise i, v, x... are roman numerals
            follows = bool(last_letter) and label == chr(ord(last_letter) + 1)
            roman = bool(_ROMAN.fullmatch(label)) and not follows
            depth = _ROMAN_DEPTH if roman else _LETTER_DEPTH  # below every numbered level
            if not roman:
                last_letter = label if len(label) == 1 else last_letter
            clauses = [c for c in clauses if c[0] < depth] + [(depth, f"({label})")]
            marks.append(
                Mark(ln.start, (*titles(stack), *(c[1] for c in clauses)), group=clauses[0][1])
            )
    return marks


def clause_range(paths: list[tuple[str, ...]]) -> tuple[str, ...]:
    """A chunk of several clauses: their common path, then the first and last of the
    clauses below it ("4. Redistribution > (a)–(c)")."""
    n = min(len(p) for p in paths)
    while n and any(p[:n] != paths[0][:n] for p in paths):
        n -= 1
    below = list(dict.fromkeys(p[n] for p in paths if len(p) > n))
    if not below:
        return paths[0][:n]
    return (*paths[0][:n], below[0] if len(below) == 1 else f"{below[0]}–{below[-1]}")


def contract_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    return pack_units(src, contract_marks(src.norm), opts, EXCUSE, GAP_EXCUSE, clause_range)
