"""Sentence packing: whole sentences up to ``size``, never splitting one.

Paragraphs are segmented separately (a blank line always ends a sentence);
packing runs across paragraphs. An oversized sentence becomes its own chunk.
Overlap is whole sentences: the longest run of the previous chunk's trailing
sentences that fits in ``overlap`` units.
"""

from __future__ import annotations

import re

from .options import ChunkOptions
from .segment import sentence_spans
from .spans import Draft
from .text import SourceText, count_units

_PARAGRAPH = re.compile(r"(?:[^\n]*\S[^\n]*(?:\n|\Z))+")


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for m in _PARAGRAPH.finditer(text):
        s, e = m.start(), m.end()
        seg = text[s:e]
        lead = len(seg) - len(seg.lstrip())
        out.append((s + lead, s + len(seg.rstrip())))
    return out


def sentence_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    text, unit, size, overlap = src.norm, opts.unit, opts.size, opts.overlap
    sents: list[tuple[int, int, int]] = []  # start, end, length in unit
    for ps, pe in paragraph_spans(text):
        for s, e in sentence_spans(text, ps, pe):
            sents.append((s, e, count_units(text[s:e], unit)))

    def span_len(a: int, b: int) -> int:  # sentences a..b inclusive
        if unit == "chars":
            return sents[b][1] - sents[a][0]
        return cum[b + 1] - cum[a]  # sentences are whitespace-separated: words add up

    cum = [0]
    for _s, _e, n in sents:
        cum.append(cum[-1] + n)
    groups: list[list[int]] = []  # indexes into sents
    cur: list[int] = []
    for i in range(len(sents)):
        if cur and span_len(cur[0], i) > size:
            groups.append(cur)
            cur = []
        cur.append(i)
    if cur:
        groups.append(cur)
    drafts: list[Draft] = []
    for g, group in enumerate(groups):
        d = Draft(sents[group[0]][0], sents[group[-1]][1])
        if overlap and g:
            prev = groups[g - 1]
            first = None
            for j in reversed(prev):
                if span_len(j, prev[-1]) > overlap:
                    break
                first = j
            if first is not None:
                d.overlap_start, d.overlap_end = sents[first][0], sents[prev[-1]][1]
        drafts.append(d)
    return drafts
