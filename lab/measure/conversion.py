"""What conversion did: one document in several versions (the structured markdown
it was written in, a PDF's plain text, the converter's markdown), measured alike.

Which headings and tables survived, what repeats on every page, and what that does
to the gold set: a question whose answer no longer reads as written in a version is
lost to it before any chunking.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from chunkers import ChunkOptions, chunk_with
from lab.inputs.gold import GoldQuestion
from lab.measure.boilerplate import BoilerplateError, find_boilerplate
from lab.measure.integrity import DEFAULT_K, GoldLineError, check_gold
from lab.text import collapse_whitespace

_HEADING = re.compile(r"^#{1,6} +(.+?)\s*#*\s*$", re.M)
_TABLE_RULE = re.compile(r"^\|? *:?-{3,}", re.M)  # a markdown table's header rule
_PAGE = re.compile(r"^Page \d+$")


@dataclass(frozen=True)
class Version:
    label: str
    headings: tuple[str, ...]  # as written, page markers left out
    tables: int
    chunks: int
    boilerplate: tuple[str, ...]  # text repeated on most pages (first occurrence)
    boilerplate_chars: int
    intact: int  # gold answers whole in one chunk
    found: int  # ... and ranked within k
    mean_rank: float | None  # over the questions with a rank
    lost: tuple[str, ...] = ()  # questions whose answer is not in this version's text
    asked: int = 0
    missing_headings: tuple[str, ...] = field(default=())  # the source's, not found here


def _headings(text: str) -> tuple[str, ...]:
    return tuple(h for h in _HEADING.findall(text) if not _PAGE.match(h))


def measure_version(
    label: str,
    text: str,
    gold: Sequence[GoldQuestion],
    options: ChunkOptions,
    *,
    strategy: str = "structural",
    k: int = DEFAULT_K,
) -> Version:
    chunks = chunk_with(text, strategy, options)
    try:
        report = find_boilerplate({label: text}, strategy=strategy, options=options)
        repeated = tuple(f.text for f in report.findings)
        repeated_chars = report.boilerplate_chars
    except BoilerplateError:  # no pages: nothing repeats per page
        repeated, repeated_chars = (), 0
    kept: list[GoldQuestion] = []
    lost: list[str] = []
    for pair in gold:
        try:  # one at a time: a question lost to conversion must not sink the rest
            check_gold(text, [pair], strategy, options, k=k)
            kept.append(pair)
        except GoldLineError:
            lost.append(pair.question)
    result = check_gold(text, kept, strategy, options, k=k) if kept else None
    ranks = [r.rank for r in result.results if r.rank] if result else []
    return Version(
        label,
        _headings(text),
        len(_TABLE_RULE.findall(text)),
        len(chunks),
        repeated,
        repeated_chars,
        sum(r.intact for r in result.results) if result else 0,
        sum(r.rank is not None and r.rank <= k for r in result.results) if result else 0,
        sum(ranks) / len(ranks) if ranks else None,
        tuple(lost),
        len(gold),
    )


def compare_versions(
    versions: Mapping[str, str],
    gold: Sequence[GoldQuestion],
    options: ChunkOptions,
    *,
    strategy: str = "structural",
    k: int = DEFAULT_K,
) -> list[Version]:
    """Each version measured; the first is the source, whose headings the others
    are checked against (by their words, so "5. Storage" matches "5. Storage")."""
    pairs = [replace(p, doc="") for p in gold]
    out = [
        measure_version(n, t, pairs, options, strategy=strategy, k=k) for n, t in versions.items()
    ]
    if out:
        source = out[0].headings
        out = [
            replace(
                v,
                missing_headings=tuple(
                    h
                    for h in source
                    if collapse_whitespace(h) not in {collapse_whitespace(x) for x in v.headings}
                ),
            )
            for v in out
        ]
    return out


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class ReadingOrder:
    """How much of a source's text a version reads in the source's order: its
    sentences whole (line breaks and spacing aside), and its headings as headings."""

    label: str
    sentences_whole: int
    sentences: int
    headings_kept: int
    headings: int


def _letters(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def reading_order(source: str, versions: Mapping[str, str]) -> list[ReadingOrder]:
    """Each version against the source it was made from (a PDF set in columns, say):
    a sentence read across two columns is no longer whole in it."""
    paragraphs = [b for b in re.split(r"\n\s*\n", source) if b.strip() and not _HEADING.match(b)]
    sentences = [s for p in paragraphs for s in _SENTENCE_END.split(" ".join(p.split())) if s]
    titles = {collapse_whitespace(h) for h in _headings(source)}
    out = []
    for label, text in versions.items():
        letters = _letters(text)
        found = {collapse_whitespace(h) for h in _headings(text)}
        out.append(
            ReadingOrder(
                label,
                sum(_letters(s) in letters for s in sentences),
                len(sentences),
                len(titles & found),
                len(titles),
            )
        )
    return out
