"""Routing: each document through the chunker its type needs, into one index.

The classifier (chunkers.doctype) names the type; ROUTES names the strategy each
type goes to, and the registry's "routed" strategy follows them. Prose goes to
the structural chunker, so a corpus of prose chunks exactly as it did. A caller
may route a type elsewhere (the lab swaps one type's chunker to watch only that
type's figures move) or say a document's type itself (a folder's mapping file).
"""

from __future__ import annotations

from collections.abc import Mapping

from .doctype import DOC_TYPES

# each type's own chunker: a strategy by name (chunkers.registry)
ROUTES: dict[str, str] = {
    "faq": "faq",
    "api": "api",
    "transcript": "transcript",
    "contract": "contract",
    "prose": "structural",
}


def route_for(doc_type: str, routes: Mapping[str, str] | None = None) -> str:
    """The strategy a document of ``doc_type`` goes to (``routes`` overriding ROUTES)."""
    if doc_type not in ROUTES:
        raise ValueError(f"document type must be one of {', '.join(DOC_TYPES)}, got {doc_type!r}")
    return (routes or {}).get(doc_type, ROUTES[doc_type])
