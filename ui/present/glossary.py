"""The words a student meets on the labs without an explanation nearby, each with one
line saying what it means. The pages attach these lines as help tooltips to the
element that uses the word (``explain``); ``terms_in`` finds the words in a text."""

from __future__ import annotations

import re
from collections.abc import Iterable


class Term:
    def __init__(self, name: str, pattern: str, line: str) -> None:
        self.name = name
        self.pattern = re.compile(pattern)
        self.line = line


TERMS: tuple[Term, ...] = (
    Term(
        "HNSW",
        r"\bHNSW\b",
        "**HNSW** (hierarchical navigable small world): the graph index most vector "
        "stores search; its links between vectors cost about half as much again as the "
        "vectors themselves (the +50% here).",
    ),
    Term(
        "@1536-dim",
        r"@1536-dim",
        "**@1536-dim**: every chunk stored as one vector of 1,536 numbers (a common "
        "embedding size), 4 bytes each: 6,144 bytes a chunk.",
    ),
    Term(
        "stride",
        r"\bstride\b",
        "**stride**: how far each fixed-size window starts after the one before it: the "
        "size less the overlap. Halve the stride and you store twice the vectors.",
    ),
    Term(
        "cap at the floor",
        r"\bcap at (the )?floor\b",
        "**cap at the floor**: the largest bonus BM25's length normalisation can give a "
        "chunk over an average one, reached at the runt floor (a chunk shorter than the "
        "floor is merged away).",
    ),
    Term(
        "p1, p5",
        r"\bp[15]\b",
        "**p1, p5**: the 1st and 5th percentiles of chunk length: 1% (or 5%) of the "
        "chunks are shorter than this.",
    ),
    Term(
        "MRR",
        r"\bMRR\b",
        "**MRR** (mean reciprocal rank): for each question, 1 divided by the rank of the "
        "chunk holding its answer (0 when no chunk holds it), averaged: 1 means always "
        "ranked first, 0.5 on average second.",
    ),
    Term(
        "recall@k",
        r"(?i)\brecall@",
        "**recall@k**: the share of questions whose answer sits whole in one of the k "
        "best-ranked chunks.",
    ),
    Term(
        "atomic-element violations",
        r"(?i)\batomic-element violations?\b",
        "**atomic-element violations**: what a chunking breaks that a reader needs whole: "
        "a table fragment without its header, a code block split, a heading cut off from "
        "its text, a sentence cut mid-way.",
    ),
    Term(
        "effective maximum",
        r"\beffective max(imum)?\b",
        "**effective maximum**: the size plus the runt floor, less one: the longest a chunk "
        "may get when a runt is merged into it.",
    ),
    Term(
        "equal cost",
        r"(?i)\bequal cost\b",
        "**equal cost**: both configurations given the same context budget (the cheaper "
        "one's text at k): the ranked chunks are sent until it is spent, the last one cut, "
        "so bigger chunks no longer win by sending more.",
    ),
    Term(
        "top-20 failures",
        r"(?i)\btop-20 failures\b",
        "**top-20 failures**: the share of questions with no chunk holding the answer among "
        "the 20 best-ranked (1 - recall@20), the figure contextual retrieval is reported in.",
    ),
)


def terms_in(*texts: str) -> list[Term]:
    """The glossary's terms that ``texts`` use, in the glossary's order."""
    joined = "\n".join(texts)
    return [t for t in TERMS if t.pattern.search(joined)]


def explain(terms: Iterable[Term]) -> str | None:
    """A help tooltip explaining ``terms``, one line each; None when there are none."""
    lines = [t.line for t in terms]
    return "\n\n".join(lines) if lines else None


def help_for(*texts: str) -> str | None:
    """The tooltip for an element showing ``texts``: every glossary term in them."""
    return explain(terms_in(*texts))
