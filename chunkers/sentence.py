"""Sentence packing: whole sentences up to ``size``; no chunk passes ``size``.

Paragraphs are segmented separately (a blank line always ends a sentence);
packing runs across paragraphs. A sentence longer than ``size`` (a chat log or
a table the segmenter sees as one "sentence") is cut down the ladder in
seams.py: lines, stops, clause marks, words, and in characters a run with no
whitespace. Its pieces pack like sentences, and every chunk that starts or ends
inside a sentence says so in ``sentence_cut``. Overlap is whole pieces: the
longest run of the previous chunk's trailing sentences (or pieces of a cut
one) that fits in ``overlap`` units.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from .options import ChunkOptions
from .seams import SEAMS, SeamPacker, seam_at
from .segment import sentence_spans
from .spans import Draft
from .text import SourceText
from .tokens import DEFAULT_TOKENIZER

_PARAGRAPH = re.compile(r"(?:[^\n]*\S[^\n]*(?:\n|\Z))+")


class Piece(NamedTuple):
    """A sentence, or a piece of one too long for a chunk."""

    start: int
    end: int
    length: int  # in the unit
    cut_after: str  # the seam that cuts its sentence after it; "" at the sentence's end
    tail: int = 0  # in tokens: what the whitespace after it adds when a piece follows


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for m in _PARAGRAPH.finditer(text):
        s, e = m.start(), m.end()
        seg = text[s:e]
        lead = len(seg) - len(seg.lstrip())
        out.append((s + lead, s + len(seg.rstrip())))
    return out


@lru_cache(maxsize=4)
def document_sentences(text: str) -> tuple[tuple[int, int], ...]:
    """Every sentence of the text, paragraph by paragraph: (start, end) offsets.

    -- why cached by text -- segmenting is most of the strategy's time and does not
    depend on the size: a sweep chunks one document at many sizes, and a slider step
    on the page chunks it again at the next size (a fresh SourceText each time). A
    few recent documents are kept (the spans are a small part of the text's own size)."""
    return tuple(span for ps, pe in paragraph_spans(text) for span in sentence_spans(text, ps, pe))


def sentence_pieces(
    text: str,
    unit: str,
    size: int,
    tokenizer: str = DEFAULT_TOKENIZER,
    cache: dict | None = None,
) -> Iterator[Piece]:
    """Every sentence of the text, each one longer than ``size`` cut into pieces that
    fit, one at a time (a sweep kept to a window cuts no sentence past its chunks).

    ``cache`` (a SourceText's) keeps, in tokens, every count for the next size of a
    sweep; the sentences themselves are found once per text (document_sentences)."""
    cache = {} if cache is None else cache
    packer = SeamPacker(text, unit, tokenizer, cache)
    tail = packer.tail
    for s, e in document_sentences(text):
        n = packer.length(s, e)
        if n <= size:
            yield Piece(s, e, n, "", tail(s, e))
            continue
        cuts = packer.pack(s, e, size, size, packer.below_sentence)
        for (cs, ce), (nxt, _) in pairwise(cuts):
            yield Piece(cs, ce, packer.length(cs, ce), seam_at(text, ce, nxt), tail(cs, ce))
        cs, ce = cuts[-1]
        yield Piece(cs, ce, packer.length(cs, ce), "", tail(cs, ce))


class _Pieces:
    """A text's pieces at one size, cut as far as the packing has read, and the
    running sum of their lengths (with tails) that a span's length is read from."""

    def __init__(self, pieces: Iterator[Piece]) -> None:
        self._more = pieces
        self.items: list[Piece] = []
        self.cum = [0]

    def has(self, k: int) -> bool:
        """Whether piece ``k`` exists (cutting sentences up to it)."""
        items, cum = self.items, self.cum
        while len(items) <= k:
            p = next(self._more, None)
            if p is None:
                return False
            items.append(p)
            cum.append(cum[-1] + p.length + p.tail)
        return True


def sentence_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    return sentence_drafts_near(src, opts, 0, None)[1]


def sentence_drafts_near(
    src: SourceText, opts: ChunkOptions, lo: int, hi: int | None
) -> tuple[int, list[Draft]]:
    """The drafts of the chunks that reach offsets lo..hi (a body ending past lo, a
    body or its overlap starting before hi; hi None: to the end), and how many
    chunks come before them. Chunks are packed from the first sentence, as
    sentence_drafts packs them, but none is made before lo, and no sentence is cut
    past the chunk after the last that starts before hi."""
    text, unit, size, overlap = src.norm, opts.unit, opts.size, opts.overlap
    cut = _Pieces(sentence_pieces(text, unit, size, opts.tokenizer, src.cache))
    pieces, cum, has = cut.items, cut.cum, cut.has

    def span_len(a: int, b: int) -> int:  # pieces a..b inclusive
        if unit == "chars":
            return pieces[b].end - pieces[a].start
        # pieces are whitespace-separated: words add up, tokens with their tails
        return cum[b] - cum[a] + pieces[b].length

    # in tokens, a span's exact count, kept with the text's other counts: a chunk is
    # counted once, whatever the sizes of a sweep that make it again
    exact = SeamPacker(text, unit, opts.tokenizer, src.cache).length if unit == "tokens" else None

    def over(a: int, b: int, limit: int) -> bool:
        """In tokens, whether pieces a..b counted whole pass ``limit`` (the sum of
        counts with tails decides; the exact count has the last word)."""
        return exact is not None and exact(pieces[a].start, pieces[b].end) > limit

    groups: list[tuple[int, int]] = []  # first and last piece of each chunk
    first = 0
    # -- the chunk after the last starting before hi ends the packing: its overlap
    # -- may reach back into lo..hi
    past = False
    while has(first) and not past:
        last = first
        while has(last + 1) and span_len(first, last + 1) <= size:
            last += 1
        while last > first and over(first, last, size):
            last -= 1
        groups.append((first, last))
        past = hi is not None and pieces[first].start >= hi
        first = last + 1
    at = bisect_right(groups, lo, key=lambda g: pieces[g[1]].end)  # the first ending past lo
    drafts: list[Draft] = []
    for g in range(at, len(groups)):
        a, b = groups[g]
        d = Draft(pieces[a].start, pieces[b].end)
        d.length = exact(d.start, d.end) if exact else -1  # (else finish() counts it)
        d.sentence_cut = _weaker(pieces[a - 1].cut_after if a else "", pieces[b].cut_after)
        if overlap and g:
            pa, pb = groups[g - 1]
            ov = next((j for j in range(pa, pb + 1) if span_len(j, pb) <= overlap), None)
            while ov is not None and over(ov, pb, overlap):
                ov = ov + 1 if ov < pb else None
            if ov is not None:
                d.overlap_start, d.overlap_end = pieces[ov].start, pieces[pb].end
        drafts.append(d)
    return at, drafts


def _weaker(before: str, after: str) -> str:
    """The weaker of two seams (later on the ladder); "" stands for no cut."""
    if not before or not after:
        return before or after
    return max(before, after, key=SEAMS.index)
