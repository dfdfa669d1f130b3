"""The named retrievers: "bm25" (lucene by default), "dense" and "hybrid".

``get_retriever("dense", embedder="my_pkg.embed:encode")`` builds one from the
names a command line or a URL carries; ``parse_retrievers("bm25,dense")`` reads
a comma-separated list of them.
"""

from __future__ import annotations

from collections.abc import Callable

from lab.retrieval.bm25 import DEFAULT_B, DEFAULT_K1

from .bm25_variants import DEFAULT_VARIANT, Bm25Retriever
from .dense import DenseRetriever
from .embedders import DEFAULT_EMBEDDER, Embedder, load_embedder
from .fusion import RRF_K, HybridRetriever
from .interface import Retriever

BM25, DENSE, HYBRID = "bm25", "dense", "hybrid"
DEFAULT_RETRIEVER = BM25


def _loaded(embedder: str | Embedder) -> Embedder:
    return embedder if isinstance(embedder, Embedder) else load_embedder(embedder)


def _bm25(variant: str, embedder: str | Embedder, k1: float, b: float, k: int) -> Retriever:
    return Bm25Retriever(variant, k1, b)


def _dense(variant: str, embedder: str | Embedder, k1: float, b: float, k: int) -> Retriever:
    return DenseRetriever(_loaded(embedder))


def _hybrid(variant: str, embedder: str | Embedder, k1: float, b: float, k: int) -> Retriever:
    return HybridRetriever(Bm25Retriever(variant, k1, b), DenseRetriever(_loaded(embedder)), k)


RETRIEVERS: dict[str, Callable[[str, str | Embedder, float, float, int], Retriever]] = {
    BM25: _bm25,
    DENSE: _dense,
    HYBRID: _hybrid,
}


def get_retriever(
    name: str = DEFAULT_RETRIEVER,
    *,
    variant: str = DEFAULT_VARIANT,
    embedder: str | Embedder = DEFAULT_EMBEDDER,
    k1: float = DEFAULT_K1,
    b: float = DEFAULT_B,
    k: int = RRF_K,
) -> Retriever:
    """The retriever ``name`` with its settings.

    Args:
        variant, k1, b: BM25's (alone or in the hybrid).
        embedder: dense's and hybrid's: a name load_embedder takes, or an
            Embedder already loaded.
        k: the hybrid's fusion constant (reciprocal rank fusion).

    Raises:
        ValueError: one line, for an unknown name or a bad setting (EmbedderError,
            one of them, for an embedder that cannot be found).
    """
    try:
        make = RETRIEVERS[name]
    except KeyError:
        raise ValueError(
            f"retriever must be one of {', '.join(RETRIEVERS)}, got {name!r}"
        ) from None
    return make(variant, embedder, k1, b, k)


def parse_retrievers(spec: str) -> list[str]:
    """``"bm25,dense,hybrid"`` as names, in order, each once; ValueError naming an unknown one."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise ValueError(f"name at least one retriever ({', '.join(RETRIEVERS)})")
    unknown = [n for n in names if n not in RETRIEVERS]
    if unknown:
        raise ValueError(f"unknown retriever {unknown[0]!r}: choose from {', '.join(RETRIEVERS)}")
    return list(dict.fromkeys(names))
