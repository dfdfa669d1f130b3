"""Token efficiency of what a retriever hands the model (docs/gate.md).

Chroma's evaluation of chunkers counts tokens, not chunks: of the tokens the
top-k chunks put in the context window, how many are passage tokens
(precision), how many passage tokens arrive (recall), and their intersection
over union (IoU). Counted as Chroma counts them: what is retrieved is every
token **as sent**, the chunks' lengths summed, so a token that two overlapping
chunks repeat counts twice (overlap lowers precision and IoU); a passage token
found counts once, however many chunks bring it. The one formula for precision
and IoU is here, on ``Efficiency``; every figure at a k or a budget uses it.

Counted in the chunking's unit; a unit belongs to a span when its first
character does. Spans are the chunks' source text (body and overlap prefix);
a heading path is not text of the document and is left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from chunkers.fixed import unit_spans
from chunkers.tokens import DEFAULT_TOKENIZER

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Efficiency:
    """One question's token counts over its top-k chunks, and the shares made of them."""

    passage: int  # passage units (E)
    retrieved: int  # distinct units in the top-k chunks, every document together
    found: int  # passage units among them (E ∩ R)
    relevant: int  # distinct units of every chunk that meets a passage
    relevant_found: int  # passage units among those
    cost: int  # units the top-k chunks send (R), overlap counted each time: Chroma's count

    @property
    def recall(self) -> float:
        return self.found / self.passage if self.passage else 0.0

    @property
    def precision(self) -> float:
        """Passage units found (each once) over the units sent (overlap counted each time)."""
        return self.found / self.cost if self.cost else 0.0

    @property
    def iou(self) -> float:
        """Found over the units sent plus the passage units that did not arrive."""
        union = self.cost + self.passage - self.found
        return self.found / union if union else 0.0

    @property
    def precision_omega(self) -> float:
        """Precision if recall were perfect: the passage over every chunk that meets it."""
        return self.relevant_found / self.relevant if self.relevant else 0.0


def unit_counts(text: str, unit: str, tokenizer: str = DEFAULT_TOKENIZER) -> np.ndarray:
    """How many units start before each offset of ``text`` (len(text) + 1 entries): a
    span [s, e) then holds counts[e] - counts[s] units, at the cost of two lookups."""
    spans = unit_spans(text, unit, tokenizer)
    if spans is None:  # chars: every offset starts one
        return np.arange(len(text) + 1, dtype=np.int64)
    starts = np.zeros(len(text) + 1, dtype=np.int64)
    np.add.at(starts, np.asarray(spans[0], dtype=np.int64) + 1, 1)
    return np.cumsum(starts)


def merged(spans: Iterable[Span]) -> list[Span]:
    """The spans as disjoint, sorted ranges: what they cover, each character once."""
    out: list[Span] = []
    for s, e in sorted(x for x in spans if x[0] < x[1]):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def common(a: Sequence[Span], b: Sequence[Span]) -> list[Span]:
    """Where two lists of disjoint sorted ranges meet."""
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        s, e = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if s < e:
            out.append((s, e))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def units_in(counts: np.ndarray, spans: Iterable[Span]) -> int:
    """Units starting inside the ranges (disjoint: see ``merged``)."""
    last = len(counts) - 1
    return int(sum(counts[min(e, last)] - counts[min(max(s, 0), last)] for s, e in spans))


def token_efficiency(
    counts: np.ndarray,
    passages: Sequence[Span],
    retrieved: Sequence[Sequence[Span]],
    relevant: Sequence[Span],
    elsewhere: int = 0,
    elsewhere_cost: int = 0,
) -> Efficiency:
    """One question over one document (``counts``: its ``unit_counts``): ``passages``
    its passage spans, ``retrieved`` the source spans of each top-k chunk in this
    document (a chunk: body and overlap prefix), ``relevant`` the spans of every chunk
    meeting a passage; ``elsewhere`` the distinct units the top k brought from other
    documents (and ``elsewhere_cost`` what they cost)."""
    e = merged(passages)
    r = merged(s for chunk in retrieved for s in chunk)
    rel = merged(relevant)
    cost = sum(units_in(counts, merged(chunk)) for chunk in retrieved)
    return Efficiency(
        passage=units_in(counts, e),
        retrieved=units_in(counts, r) + elsewhere,
        found=units_in(counts, common(e, r)),
        relevant=units_in(counts, rel),
        relevant_found=units_in(counts, common(e, rel)),
        cost=cost + elsewhere_cost,
    )
