"""Answer survival: does a known answer sit whole inside one chunk?

"Intact" means the answer's text, whitespace collapsed, is a substring of some
chunk's retrievable text (overlap prefix + body), whitespace collapsed. That is
the chunk-integrity diagnostic: a substring search, no model.

For the fixed strategy the answer's position decides survival arithmetically,
so curves and lottery maps are computed with numpy instead of re-chunking, by
the window rule in chunkers.fixed (which units the answer touches, which
windows hold them); the tests hold that shortcut equal to real chunking.
Other strategies are swept by chunking at every size (structural: parse
once, pack per size).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from chunkers import (
    Chunk,
    ChunkOptions,
    ParsedDocument,
    chunk_sweep,
    get_strategy,
)
from chunkers.fixed import UnitSpans, unit_spans, units_touched, windows_hold
from chunkers.tokens import DEFAULT_TOKENIZER
from lab.text import clip, collapse_whitespace

_TOKEN = re.compile(r"\S+")  # the same tokens as chunkers.text.word_spans


class AnswerNotFound(ValueError):
    """The answer text does not occur in the document (whitespace aside)."""


# --------------------------------------------------------------------------- finding


@dataclass(frozen=True, slots=True)
class _Layout:
    """A text's tokens, and the whitespace-collapsed text they make."""

    text: str
    starts: np.ndarray  # token start offsets in ``text``
    ends: np.ndarray
    cstarts: np.ndarray  # token start offsets in ``collapsed``
    collapsed: str

    @classmethod
    def of(cls, text: str) -> _Layout:
        spans = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
        arr = np.array(spans, dtype=np.int64).reshape(-1, 2)
        starts, ends = arr[:, 0], arr[:, 1]
        lengths = ends - starts
        cstarts = np.concatenate(([0], np.cumsum(lengths + 1)[:-1])) if len(spans) else starts
        collapsed = " ".join(text[s:e] for s, e in spans)
        return cls(text, starts, ends, cstarts.astype(np.int64), collapsed)


@lru_cache(maxsize=2)
def _layout_of(text: str) -> _Layout:
    """``_Layout.of(text)``, kept for the last two texts (read-only once built).

    -- why kept -- every chunking of a document asks where the answer is in the same
    text: each size of a sweep, each strategy of a page, each step of a slider. On a
    long upload building the layout is most of a survival check."""
    return _Layout.of(text)


@dataclass(frozen=True, slots=True)
class _Occurrences:
    """Every whitespace-insensitive occurrence of an answer (overlapping ones too)."""

    first_token: np.ndarray  # token holding the first character
    last_token: np.ndarray  # token holding the last character
    start: np.ndarray  # character span [start, end) in the layout's text
    end: np.ndarray


def _occurrences(layout: _Layout, answer: str) -> _Occurrences:
    needle = collapse_whitespace(answer)
    if not needle:
        raise AnswerNotFound("the answer is empty: give the text to look for")
    hits: list[int] = []
    pos = layout.collapsed.find(needle)
    while pos != -1:
        hits.append(pos)
        pos = layout.collapsed.find(needle, pos + 1)
    if not hits:
        raise AnswerNotFound(f"answer not found in the document: {clip(needle)!r}")
    cs = np.array(hits, dtype=np.int64)
    ce = cs + len(needle) - 1  # last character; never a space (needle is trimmed)
    t0 = np.searchsorted(layout.cstarts, cs, side="right") - 1
    t1 = np.searchsorted(layout.cstarts, ce, side="right") - 1
    start = layout.starts[t0] + (cs - layout.cstarts[t0])
    end = layout.starts[t1] + (ce - layout.cstarts[t1]) + 1
    return _Occurrences(t0, t1, start, end)


def find_answers(text: str, answer: str) -> list[tuple[int, int]]:
    """Every (start, end) span of ``answer`` in ``text``, whitespace-insensitive."""
    occ = _occurrences(_layout_of(text), answer)
    return [(int(s), int(e)) for s, e in zip(occ.start, occ.end, strict=True)]


def find_answer(text: str, answer: str) -> tuple[int, int]:
    """The first (start, end) span of ``answer`` in ``text``, whitespace-insensitive.

    Runs of whitespace match any run of whitespace, so an answer copied from a
    rendered page still finds a line-wrapped source. Raises AnswerNotFound.
    """
    return find_answers(text, answer)[0]


def _require(text: str, answers: Sequence[str]) -> None:
    """AnswerNotFound unless every answer occurs in the text (whitespace aside).

    The same test as find_answer (its layout's collapsed text is collapse_whitespace(text))
    without building the token layout: a sweep step asks this once per size, and
    on a long upload the layout alone costs more than the step's search."""
    collapsed = collapse_whitespace(text)
    for a in answers:
        needle = collapse_whitespace(a)
        if not needle or needle not in collapsed:
            find_answer(text, a)  # raises AnswerNotFound with the usual message


def answer_problem(text: str, answer: str) -> str | None:
    """Why ``answer`` cannot be checked in ``text`` (one line), or None when it occurs."""
    try:
        _require(text, [answer])
    except AnswerNotFound as exc:
        return str(exc)
    return None


# --------------------------------------------------------------------------- one chunking


@dataclass(frozen=True, slots=True)
class Survival:
    """Whether one answer survived one chunking, and if not, where it was cut.

    ``chunk_index`` and ``pieces`` are 0-based like Chunk.index; the verdict
    numbers chunks from 1, as people count them.
    """

    intact: bool
    chunk_index: int | None  # first chunk whose retrievable text holds the answer
    span: tuple[int, int]  # the answer's first occurrence in the text
    pieces: list[int] = field(default_factory=list)  # chunks whose body overlaps the span
    cuts: list[int] = field(default_factory=list)  # offsets where a body starts inside it
    verdict: str = ""


def _and_list(numbers: Sequence[int]) -> str:
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


class ChunkTexts:
    """A chunking's retrievable texts (overlap prefix + body), whitespace collapsed
    and joined once, to ask which chunks hold an answer whole.

    ``holders`` is the one test of "intact" every measurement uses: the answer,
    whitespace collapsed, is a substring of a chunk's collapsed retrievable text.
    """

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        collapsed = [collapse_whitespace(c.retrievable_text) for c in chunks]
        # collapsed texts hold no newline and neither does a collapsed answer, so
        # joined by newlines no match can run from one chunk into the next
        self._joined = "\n".join(collapsed)
        self._starts: list[int] = []
        at = 0
        for t in collapsed:
            self._starts.append(at)
            at += len(t) + 1

    def holders(self, answer: str, *, first_only: bool = False) -> list[int]:
        """Positions (in the chunking) of every chunk that holds ``answer`` whole,
        in chunk order; only the first with ``first_only``."""
        needle = collapse_whitespace(answer)
        if not needle:
            return []
        found: list[int] = []
        pos = self._joined.find(needle)
        while pos != -1:
            i = bisect_right(self._starts, pos) - 1
            found.append(i)
            if first_only or i + 1 == len(self._starts):
                break
            # the next chunk may hold it too; no need to look further inside this one
            pos = self._joined.find(needle, self._starts[i + 1])
        return found

    def holds(self, answer: str) -> bool:
        """Does any chunk hold ``answer`` whole?"""
        return bool(self.holders(answer, first_only=True))


def holds(chunk: Chunk, answer: str) -> bool:
    """Does this one chunk hold ``answer`` whole (see ChunkTexts)?"""
    return ChunkTexts([chunk]).holds(answer)


class DocumentLayout:
    """One document and its chunks, laid out once for any number of answers.

    Finding an answer needs the document's token layout; asking which chunk
    holds it needs every chunk's collapsed text. Both cost a pass over the
    whole document, so a gold set builds them once per document, not once per
    answer (which made checking a large gold set quadratic).
    """

    def __init__(self, text: str, chunks: Sequence[Chunk]) -> None:
        self.text = text
        self.chunks = list(chunks)
        self._layout: _Layout | None = None
        self._texts = ChunkTexts(self.chunks)

    @property
    def layout(self) -> _Layout:
        if self._layout is None:  # built on first use, then kept
            self._layout = _layout_of(self.text)
        return self._layout

    def spans(self, answer: str) -> list[tuple[int, int]]:
        """Every (start, end) of ``answer`` in the text, whitespace-insensitive;
        AnswerNotFound when there is none."""
        occ = _occurrences(self.layout, answer)
        return [(int(s), int(e)) for s, e in zip(occ.start, occ.end, strict=True)]

    def holders(self, answer: str) -> list[int]:
        """Positions (in ``chunks``) of every chunk whose retrievable text holds
        ``answer`` whole, whitespace collapsed, in chunk order."""
        return self._texts.holders(answer)

    def survival(self, answer: str, span: tuple[int, int] | None = None) -> Survival:
        """The verdict for one answer: "answer intact in chunk 5" or
        "answer split across chunks 4 and 5: unretrievable at any k" (1-based).

        Any occurrence held whole counts; a split is described at ``span``, by
        default the first occurrence.
        """
        if span is None:
            span = self.spans(answer)[0]
        held = self.holders(answer)
        chunks = self.chunks
        if held:
            index = chunks[held[0]].index
            return Survival(True, index, span, verdict=verdict_line(index, []))
        s, e = span
        pieces = [c.index for c in chunks if c.start < e and s < c.end]
        cuts = sorted({c.start for c in chunks if s < c.start < e})
        return Survival(False, None, span, pieces, cuts, verdict_line(None, pieces))


def verdict_line(held: int | None, pieces: Sequence[int], *, short: bool = False) -> str:
    """The verdict's words: intact in chunk ``held`` (0-based), or else cut into
    ``pieces``, the chunks whose bodies meet the answer (0-based, in order).

    ``short``: the few words a narrow column has room for, naming the same chunks
    ("intact in chunk 9", "split, chunks 6–7", "not whole in any chunk")."""
    if held is not None:
        return f"intact in chunk {held + 1}" if short else f"answer intact in chunk {held + 1}"
    if len(pieces) >= 2:
        if short:
            return f"split, chunks {pieces[0] + 1}–{pieces[-1] + 1}"
        numbers = _and_list([p + 1 for p in pieces])
        return f"answer split across chunks {numbers}: unretrievable at any k"
    if short:
        return "not whole in any chunk"
    if pieces:  # part of the answer lies in no chunk's body at all
        return (
            f"answer only partly in chunk {pieces[0] + 1}, the rest is in no chunk: "
            "unretrievable at any k"
        )
    return "answer is in no chunk: unretrievable at any k"


def check_survival(chunks: Sequence[Chunk], text: str, answer: str) -> Survival:
    """The verdict for one answer in one chunking (see DocumentLayout.survival);
    for many answers, build one DocumentLayout and ask it."""
    return DocumentLayout(text, chunks).survival(answer)


# --------------------------------------------------------------------------- fixed, by arithmetic


def _fixed_text(text: str) -> str:
    """The text the fixed chunker counts in: CRLF and CR as LF (chunkers.text.SourceText).

    Lone surrogates stay as they are (SourceText's working copy turns them into
    U+FFFD, one for one, so offsets agree): chunk bodies are sliced from the
    text as given, so an answer holding one must be found here as it is there.
    """
    return text.replace("\r\n", "\n").replace("\r", "\n")


@dataclass(frozen=True, slots=True)
class _FixedCase:
    """One answer's occurrences as unit ranges (chunkers.fixed.units_touched)."""

    first: np.ndarray  # per occurrence: first unit it touches
    last: np.ndarray  # per occurrence: last unit it touches (inclusive)

    def held(self, sizes: np.ndarray, overlaps: np.ndarray) -> np.ndarray:
        """Intact per (size, overlap) cell, broadcasting (chunkers.fixed.windows_hold).

        Why windows stand for chunks: a chunk's retrievable text is its window
        (prefix + body, joined by whitespace or, in chars and tokens, by nothing
        where the window cut a word), and the windows fixed.py skips are whitespace
        only, while the window whose body holds an answer's last character is never
        skipped.
        """
        return windows_hold(self.first, self.last, sizes, overlaps)


def _fixed_case(layout: _Layout, answer: str, unit: str, tokenizer: str) -> _FixedCase:
    occ = _occurrences(layout, answer)
    # the layout's tokens are the fixed chunker's words (chunkers.text.word_spans)
    spans = (
        (layout.starts, layout.ends)
        if unit == "words"
        else unit_spans(layout.text, unit, tokenizer)
    )
    return _FixedCase(*units_touched(spans, occ.start, occ.end))


def fixed_units(text: str, answer: str, spans: UnitSpans) -> tuple[np.ndarray, np.ndarray]:
    """Every occurrence's first and last unit (0-based, inclusive) among ``spans``,
    the units the fixed chunker counts in the text's working copy."""
    occ = _occurrences(_layout_of(_fixed_text(text)), answer)
    return units_touched(spans, occ.start, occ.end)


def answer_units(
    text: str, answer: str, unit: str, tokenizer: str = DEFAULT_TOKENIZER
) -> tuple[int, int]:
    """The first occurrence's first and last unit, 1-based and inclusive, as the
    fixed-size chunker counts them (chunkers.fixed.units_touched)."""
    case = _fixed_case(_layout_of(_fixed_text(text)), answer, unit, tokenizer)
    return int(case.first[0]) + 1, int(case.last[0]) + 1


# --------------------------------------------------------------------------- sweeps


@dataclass(frozen=True, slots=True)
class SurvivalCurve:
    sizes: list[int]
    intact: list[bool]
    overlaps: list[int]  # the overlap used at each size, in units

    def intact_at(self, size: int) -> bool | None:
        """The verdict at ``size``; None when the curve did not sweep it."""
        return self.intact[self.sizes.index(size)] if size in self.sizes else None


def _overlaps(sizes: Sequence[int], overlap: int, overlap_fraction: float | None) -> list[int]:
    if overlap_fraction is None:
        return [overlap] * len(sizes)
    if overlap:
        raise ValueError("give overlap or overlap_fraction, not both")
    if not 0 <= overlap_fraction < 1:
        raise ValueError(
            f"overlap_fraction must be from 0 up to (not including) 1, got {overlap_fraction!r}"
        )
    return [min(int(s * overlap_fraction), s - 1) for s in sizes]


def _options(
    sizes: Sequence[int], overlaps: Sequence[int], unit: str, opts: dict[str, Any]
) -> list[ChunkOptions]:
    return [
        ChunkOptions(size=s, overlap=o, unit=unit, **opts)
        for s, o in zip(sizes, overlaps, strict=True)
    ]


def sweep_plan(
    strategy: str,
    sizes: Iterable[int],
    *,
    unit: str,
    overlap: int = 0,
    overlap_fraction: float | None = None,
    **opts: Any,
) -> tuple[list[int], list[int], list[ChunkOptions]]:
    """A sweep's sizes, the overlap at each, and their options, every one checked
    (the strategy's name too) before any chunking starts. Its keywords are every
    sweep's (survival_curve, gold_survival_rates, lab.measure.drag.drag_frames):
    overlap in units, or a fraction of each size; ``opts``, the other ChunkOptions
    fields."""
    get_strategy(strategy)
    sizes = [int(s) for s in sizes]
    overlaps = _overlaps(sizes, overlap, overlap_fraction)
    return sizes, overlaps, _options(sizes, overlaps, unit, opts)


def _chunkings(
    text: str, strategy: str, options: Sequence[ChunkOptions], parsed: ParsedDocument | None = None
) -> Iterable[list[Chunk]]:
    # parse once, pack per size; a caller sweeping in steps passes its parse
    return chunk_sweep(text, strategy, options, parsed)


def survival_curve(
    text: str,
    answer: str,
    strategy: str,
    sizes: Iterable[int],
    *,
    unit: str,
    overlap: int = 0,
    overlap_fraction: float | None = None,
    parsed: ParsedDocument | None = None,
    **opts: Any,
) -> SurvivalCurve:
    """Intact or not at each size. Overlap is in units, or a fraction of each size
    (int(size * fraction), at most size - 1). Fixed is computed, others chunked.

    Args:
        answer: the text that must sit whole in one chunk (whitespace aside).
        overlap_fraction: when given, replaces ``overlap``.
        parsed: ``parse(text)`` made earlier, for a structural sweep in steps.
        **opts: the other ChunkOptions fields (tokenizer, runt_merge, ...).

    Returns:
        The sizes, the verdict at each, and the overlap each used.

    Raises:
        AnswerNotFound: the answer is empty or not in the text.
        ValueError: an unknown strategy, or a size or overlap out of range.
    """
    sizes, overlaps, options = sweep_plan(
        strategy, sizes, unit=unit, overlap=overlap, overlap_fraction=overlap_fraction, **opts
    )
    if strategy == "fixed":
        case = _fixed_case(
            _layout_of(_fixed_text(text)), answer, unit, opts.get("tokenizer", DEFAULT_TOKENIZER)
        )
        intact = case.held(np.array(sizes, np.int64), np.array(overlaps, np.int64))
        return SurvivalCurve(sizes, [bool(x) for x in intact], overlaps)
    _require(text, [answer])  # an absent answer is an error, not a flat "no" curve
    intact_list = [
        ChunkTexts(chunks).holds(answer) for chunks in _chunkings(text, strategy, options, parsed)
    ]
    return SurvivalCurve(sizes, intact_list, overlaps)


@dataclass(frozen=True, slots=True)
class LotteryMap:
    sizes: np.ndarray  # (m,)
    fractions: np.ndarray  # (f,)
    intact: np.ndarray  # bool (f, m): row = overlap fraction, column = size
    overlaps: np.ndarray  # int (f, m): the overlap each cell used, in units


def lottery_map(
    text: str,
    answer: str,
    sizes: Iterable[int],
    overlap_fractions: Iterable[float],
    unit: str = "words",
    tokenizer: str = DEFAULT_TOKENIZER,
) -> LotteryMap:
    """Fixed-size survival over sizes x overlap fractions, one numpy pass."""
    S = np.array(list(sizes), dtype=np.int64)
    F = np.array(list(overlap_fractions), dtype=np.float64)
    if S.size and S.min() < 1:
        raise ValueError(f"sizes must be integers >= 1, got {int(S.min())}")
    if F.size and not ((F >= 0) & (F < 1)).all():
        raise ValueError("overlap fractions must be from 0 up to (not including) 1")
    ChunkOptions(size=1, overlap=0, unit=unit, tokenizer=tokenizer)  # validates both
    OV = np.minimum(np.floor(S[None, :] * F[:, None]).astype(np.int64), S[None, :] - 1)
    case = _fixed_case(_layout_of(_fixed_text(text)), answer, unit, tokenizer)
    return LotteryMap(S, F, case.held(S[None, :], OV), OV)


def gold_survival_rates(
    text: str,
    answers: Sequence[str],
    strategy: str,
    sizes: Iterable[int],
    *,
    unit: str,
    overlap: int = 0,
    overlap_fraction: float | None = None,
    **opts: Any,
) -> list[float]:
    """Share of gold answers intact at each size, for one strategy.

    An answer missing from the text raises AnswerNotFound rather than counting as
    a miss.
    """
    answers = list(answers)
    if not answers:
        raise ValueError("no gold answers to check")
    sizes, overlaps, options = sweep_plan(
        strategy, sizes, unit=unit, overlap=overlap, overlap_fraction=overlap_fraction, **opts
    )
    if strategy == "fixed":
        layout = _layout_of(_fixed_text(text))
        S, OV = np.array(sizes, np.int64), np.array(overlaps, np.int64)
        tokenizer = opts.get("tokenizer", DEFAULT_TOKENIZER)
        hits = sum(
            _fixed_case(layout, a, unit, tokenizer).held(S, OV).astype(np.int64) for a in answers
        )
        return [float(h) / len(answers) for h in np.atleast_1d(hits)]
    _require(text, answers)
    rates: list[float] = []
    for chunks in _chunkings(text, strategy, options):
        texts = ChunkTexts(chunks)
        rates.append(sum(texts.holds(a) for a in answers) / len(answers))
    return rates
