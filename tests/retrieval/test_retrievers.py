from __future__ import annotations

import pytest

from lab.retrieval.bm25_variants import Bm25Retriever
from lab.retrieval.dense import DenseRetriever
from lab.retrieval.embedders import EmbedderError
from lab.retrieval.fusion import HybridRetriever
from lab.retrieval.interface import Retrieval
from lab.retrieval.retrievers import (
    DEFAULT_RETRIEVER,
    RETRIEVERS,
    get_retriever,
    parse_retrievers,
)

TOY = "tests.retrieval.toy_embedder:embed"


def test_the_three_names_and_the_default():
    assert list(RETRIEVERS) == ["bm25", "dense", "hybrid"]
    assert DEFAULT_RETRIEVER == "bm25"
    default = get_retriever()
    assert isinstance(default, Bm25Retriever) and default.label == "bm25 (lucene)"


def test_each_name_builds_its_retriever_with_the_settings_given():
    bm25 = get_retriever("bm25", variant="okapi", k1=1.5, b=0.5)
    assert (bm25.variant, bm25.k1, bm25.b) == ("okapi", 1.5, 0.5)
    dense = get_retriever("dense", embedder=TOY)
    assert isinstance(dense, DenseRetriever) and dense.label == f"dense ({TOY})"
    hybrid = get_retriever("hybrid", variant="fts5", embedder=TOY, k=10)
    assert isinstance(hybrid, HybridRetriever)
    assert hybrid.label == f"hybrid (fts5 + {TOY}, k=10)"


def test_unknown_names_and_bad_embedders_are_one_line():
    with pytest.raises(
        ValueError, match="retriever must be one of bm25, dense, hybrid, got 'sparse'"
    ):
        get_retriever("sparse")
    with pytest.raises(EmbedderError, match="no module named"):
        get_retriever("hybrid", embedder="not_installed_anywhere:embed")


def test_a_list_of_retrievers_from_a_command_line():
    assert parse_retrievers("bm25,dense,hybrid") == ["bm25", "dense", "hybrid"]
    assert parse_retrievers(" dense , bm25,dense ") == ["dense", "bm25"]
    with pytest.raises(ValueError, match="unknown retriever 'vector': choose from bm25, dense"):
        parse_retrievers("bm25,vector")
    with pytest.raises(ValueError, match="name at least one retriever"):
        parse_retrievers(" , ")


def test_every_retriever_scores_any_texts_through_one_interface():
    texts = ["refunds within 30 days", "audit logs are kept for 400 days", "lunch at noon"]
    for name in RETRIEVERS:
        got = get_retriever(name, embedder=TOY).score(texts, "how long are audit logs kept")
        assert len(got.scores) == len(got.ranks) == 3
        assert sorted(got.ranks) == [1, 2, 3]
        assert got.ranks[1] == 1


def test_a_retrieval_gives_its_top_k():
    r = Retrieval.of("x", [0.2, 0.9, 0.2, 0.5])
    assert r.ranks == (3, 1, 4, 2)
    assert r.top(2) == (1, 3)
    assert r.top(10) == (1, 3, 0, 2)
    assert r.top(0) == ()
