"""Token efficiency of what a retriever hands the model (docs/gate.md).

Chroma's evaluation of chunkers counts tokens, not chunks: of the tokens the
top-k chunks put in the context window, how many are passage tokens
(precision), how many passage tokens arrive (recall), and their intersection
over union (IoU). A token counts once however many retrieved chunks repeat it
(overlap), so overlap costs the context window without raising recall.

Counted in the chunking's unit; a unit belongs to a span when its first
character does. Spans are the chunks' source text (body and overlap prefix);
a heading path is not text of the document and is left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from chunkers.fixed import unit_spans
from chunkers.tokens import DEFAULT_TOKENIZER

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Efficiency:
    """One question's token counts over its top-k chunks, and the shares made of them."""

    passage: int  # passage units (E)
    retrieved: int  # distinct units in the top-k chunks (R), every document together
    found: int  # passage units among them (E ∩ R)
    relevant: int  # distinct units of every chunk that meets a passage
    relevant_found: int  # passage units among those
    cost: int  # units the top-k chunks cost the context window, overlap counted each time

    @property
    def recall(self) -> float:
        return self.found / self.passage if self.passage else 0.0

    @property
    def precision(self) -> float:
        return self.found / self.retrieved if self.retrieved else 0.0

    @property
    def iou(self) -> float:
        union = self.passage + self.retrieved - self.found
        return self.found / union if union else 0.0

    @property
    def precision_omega(self) -> float:
        """Precision if recall were perfect: the passage over every chunk that meets it."""
        return self.relevant_found / self.relevant if self.relevant else 0.0


def unit_starts(text: str, unit: str, tokenizer: str = DEFAULT_TOKENIZER) -> np.ndarray:
    """Where each unit of ``text`` starts (every character in chars)."""
    spans = unit_spans(text, unit, tokenizer)
    return np.arange(len(text), dtype=np.int64) if spans is None else np.asarray(spans[0])


def mask_of(length: int, spans: Sequence[Span]) -> np.ndarray:
    """The characters of a document the spans cover, each once."""
    mask = np.zeros(length, dtype=bool)
    for s, e in spans:
        mask[max(0, s) : max(0, min(e, length))] = True
    return mask


def units_in(mask: np.ndarray, starts: np.ndarray) -> int:
    return int(mask[starts].sum()) if len(starts) else 0


def token_efficiency(
    starts: np.ndarray,
    length: int,
    passages: Sequence[Span],
    retrieved: Sequence[Sequence[Span]],
    relevant: Sequence[Span],
    elsewhere: int = 0,
    elsewhere_cost: int = 0,
) -> Efficiency:
    """One question over one document: ``passages`` its passage spans, ``retrieved``
    the source spans of each top-k chunk in this document (a chunk: body and overlap
    prefix), ``relevant`` the spans of every chunk meeting a passage; ``elsewhere``
    the distinct units the top k brought from other documents (and their cost)."""
    e = mask_of(length, passages)
    r = mask_of(length, [s for chunk in retrieved for s in chunk])
    cost = sum(units_in(mask_of(length, chunk), starts) for chunk in retrieved)
    rel = mask_of(length, relevant)
    return Efficiency(
        passage=units_in(e, starts),
        retrieved=units_in(r, starts) + elsewhere,
        found=units_in(e & r, starts),
        relevant=units_in(rel, starts),
        relevant_found=units_in(e & rel, starts),
        cost=cost + elsewhere_cost,
    )
