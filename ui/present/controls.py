"""Each lab's own controls (beyond the sidebar): one list that draws them, pins them
and restores them.

A pin keeps every control of its lab under a plain name (``k1``, ``runt_merge``...),
and restoring it puts each value back in its widget. An imported notebook can
say anything, so a restored value goes through ``Control.clean`` first: a bad
one keeps the widget as it is and yields a one-line notice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chunkers.doctype import DOC_TYPES
from chunkers.options import RUNT_MERGES
from chunkers.registry import OFFERED
from lab.measure.context import CONTEXTS, DEFAULT_CONTEXT
from lab.measure.integrity import RECALL_KS
from lab.report.markup import md_escape
from lab.retrieval.bm25 import BM25_VARIANTS, DEFAULT_B, DEFAULT_K1, DEFAULT_VARIANT
from lab.retrieval.embedders import DEFAULT_EMBEDDER
from lab.retrieval.retrievers import DEFAULT_RETRIEVER, RETRIEVERS
from ui.present.urlstate import app_embedders


@dataclass(frozen=True, slots=True)
class Control:
    key: str  # the widget's key
    name: str  # how a pin (and its Markdown export) names it
    label: str  # what the widget says
    default: Any
    lo: float | None = None  # a slider's range and step
    hi: float | None = None
    step: float | None = None
    options: tuple[Any, ...] = ()  # a choice's options; (False, True) for a toggle
    former_names: tuple[str, ...] = ()  # names older notebooks used for it

    def clean(self, value: Any) -> Any | None:
        """``value`` as the widget takes it, or None when it cannot take it."""
        if self.options:
            return next((o for o in self.options if o == value and type(o) is type(value)), None)
        try:
            number = float(value)
        except (TypeError, ValueError):
            return None
        if self.lo is None or self.hi is None or self.step is None:
            return None  # a control with neither options nor a range takes nothing
        if isinstance(value, bool) or not self.lo <= number <= self.hi:
            return None
        steps = round((number - self.lo) / self.step)
        return round(self.lo + steps * self.step, 2)


K1 = Control("k1", "k1", "k1 (term saturation)", DEFAULT_K1, 0.0, 3.0, 0.1)
B = Control("b", "b", "b (length normalisation)", DEFAULT_B, 0.0, 1.0, 0.05)
RUNT_MERGE = Control(
    "lab4_runt_merge",
    "runt_merge",
    "Runt merge (structural)",
    "backward",
    options=("off", "forward", "backward"),
    former_names=("sweep",),
)
assert set(RUNT_MERGE.options) == set(RUNT_MERGES)
NO_HEADING = Control(
    "lab5_no_heading",
    "heading_path_left_out",
    "Leave the heading path out of the index",
    False,
    options=(False, True),
)
BUDGET = Control(
    "lab6_budget",
    "budget",
    "Context budget (the sidebar's unit; 0: off): the ranked chunks sent until it is spent",
    0,
    0,
    1_000_000,
    1,
)
CONTEXT = Control(
    "lab6_context",
    "context",
    "Indexed with each chunk: none, its path, or title+path",
    DEFAULT_CONTEXT,
    options=CONTEXTS,
)
COMPARE_BUDGET = Control(
    "lab8_budget",
    "budget",
    "Context budget for A and B (A's unit; 0: at the cheaper side's cost at k)",
    0,
    0,
    1_000_000,
    1,
)
# one line beside another control, at a projector's size too
K_LABEL = "k: an answer is found when its chunk ranks within k"
K = Control(
    "lab6_k",
    "k",
    K_LABEL,
    10,
    options=RECALL_KS,
)

CHILD_SIZE = Control(
    "lab9_child", "child_size", "Child size (the sidebar's unit)", 200, 1, 100_000, 1
)
PARENT_SIZE = Control(
    "lab9_parent", "parent_size", "Parent size (the sidebar's unit)", 1800, 1, 100_000, 1
)
S2B_K = Control("lab9_k", "k", "k (children retrieved; plain chunks too)", 5, options=RECALL_KS)
BOILERPLATE_K = Control(
    "lab10_k", "k", "k (a chunk ranking within k is sent to the model)", 3, options=RECALL_KS
)

# The judges: one value for every lab that ranks (their keys are shared, see ui.state)
BM25 = Control("bm25", "bm25", "BM25 variant", DEFAULT_VARIANT, options=BM25_VARIANTS)
EMBEDDER = Control(
    "embedder", "embedder", "Embedder (the dense judge)", DEFAULT_EMBEDDER, options=app_embedders()
)
RETRIEVER = Control(
    "lab6_retriever",
    "retriever",
    "Ranked by (the strategies' table and bars)",
    DEFAULT_RETRIEVER,
    options=tuple(RETRIEVERS),
)
S2B_RETRIEVER = Control(
    "lab9_retriever", "retriever", "Ranked by", DEFAULT_RETRIEVER, options=tuple(RETRIEVERS)
)
BOILERPLATE_RETRIEVER = Control(
    "lab10_retriever", "retriever", "Ranked by", DEFAULT_RETRIEVER, options=tuple(RETRIEVERS)
)

# Routing: k, and the one type whose chunker is switched, and what to
ROUTING_K = Control(
    "lab12_k",
    "k",
    K_LABEL,
    1,
    options=RECALL_KS,
)
SWITCH_TYPE = Control(
    "lab12_type", "switched_type", "Switch one type's chunker", "transcript", options=DOC_TYPES
)
SWITCH_TO = Control(
    "lab12_to",
    "switched_to",
    "to",
    "sentence",
    options=tuple(s for s in OFFERED if s != "routed"),
)

LAB_CONTROLS: dict[str, tuple[Control, ...]] = {
    "runts": (K1, B, RUNT_MERGE, BM25),
    "tables": (NO_HEADING, BM25),
    "integrity": (K, RETRIEVER, BM25, EMBEDDER, BUDGET, CONTEXT),
    "compare": (BM25, COMPARE_BUDGET),
    "judges": (BM25, EMBEDDER),
    "small-to-big": (CHILD_SIZE, PARENT_SIZE, S2B_K, S2B_RETRIEVER, BM25, EMBEDDER),
    "boilerplate": (BOILERPLATE_K, BOILERPLATE_RETRIEVER, BM25, EMBEDDER),
    "routing": (ROUTING_K, SWITCH_TYPE, SWITCH_TO, BM25),
}


def of(lab: str) -> tuple[Control, ...]:
    return LAB_CONTROLS.get(lab, ())


def ensure(session: Any, lab: str) -> None:
    """Give the lab's widgets their defaults before they are drawn (a widget that is
    given both a default and a session value warns on the page)."""
    for c in of(lab):
        session.setdefault(c.key, c.default)


def snapshot(session: Mapping[Any, Any], lab: str) -> dict[str, Any]:
    """The lab's controls as a pin keeps them: plain name -> value."""
    return {c.name: session.get(c.key, c.default) for c in of(lab)}


def restore(lab: str, saved: Mapping[str, Any], source: str = "Pin") -> tuple[dict, list[str]]:
    """Widget key -> value for every control the pin kept, plus one notice per bad value."""
    values: dict[str, Any] = {}
    notices: list[str] = []
    for c in of(lab):
        name = next((n for n in (c.name, *c.former_names) if n in saved), None)
        if name is None:
            continue
        value = c.clean(saved[name])
        if value is None:
            shown = md_escape(repr(saved[name])[:40])
            notices.append(f"{source} value {name}={shown} ignored; {c.name} stays as it is.")
        else:
            values[c.key] = value
    return values, notices
