from __future__ import annotations

import numpy as np
import pytest

from lab.retrieval.dense import DenseRetriever, cosines
from lab.retrieval.embedders import Embedder, EmbeddingCache, load_embedder

VECTORS = {
    "question": [1.0, 2.0, 0.0],
    "near": [2.0, 3.0, 1.0],
    "far": [0.0, 0.0, 5.0],
    "opposite": [-1.0, -2.0, 0.0],
    "nothing": [0.0, 0.0, 0.0],
}


def table(texts: list[str]) -> list[list[float]]:
    return [VECTORS[t] for t in texts]


def retriever() -> DenseRetriever:
    return DenseRetriever(Embedder("table", table, EmbeddingCache()))


def test_scores_are_the_cosines_by_hand_and_rank_best_first():
    got = retriever().score(["far", "near", "opposite", "nothing"], "question")
    q = np.array(VECTORS["question"])
    near = np.array(VECTORS["near"])
    by_hand = q @ near / (np.linalg.norm(q) * np.linalg.norm(near))
    assert got.scores == pytest.approx([0.0, by_hand, -1.0, 0.0], abs=1e-6)
    assert got.ranks == (2, 1, 4, 3)  # far and nothing tie at 0: chunk order
    assert got.retriever == "dense (table)"


def test_cosines_function_agrees_with_the_retriever():
    texts = ["far", "near", "opposite"]
    expected = retriever().score(texts, "question").scores
    assert cosines(retriever().embedder, "question", texts).tolist() == pytest.approx(expected)


def test_many_questions_at_once_match_one_at_a_time():
    texts = ["far", "near", "opposite", "nothing"]
    index = retriever().index(texts)
    batched = index.score_all(["question", "near"])
    alone = [index.score("question"), index.score("near")]
    for b, a in zip(batched, alone, strict=True):
        assert b.scores == pytest.approx(a.scores, abs=1e-6)
        assert b.ranks == a.ranks


def test_tied_chunks_rank_the_same_alone_and_in_a_batch():
    # two copies of one text score alike to the last digit kept: a tie, broken by
    # chunk order, whether the question comes alone or with others
    texts = ["audit logs are kept", "lunch at noon", "audit logs are kept"]
    index = DenseRetriever().index(texts)
    alone = index.score("how long are audit logs kept")
    batched = index.score_all(["refunds", "how long are audit logs kept", "lunch"])[1]
    assert alone.scores[0] == alone.scores[2]
    assert alone.ranks == batched.ranks == (1, 3, 2)


def test_no_texts_and_a_wordless_question():
    assert retriever().score([], "question").scores == ()
    with pytest.raises(ValueError, match="no searchable words"):
        retriever().score(["near"], "?!")
    with pytest.raises(ValueError, match="no searchable words"):
        retriever().index(["near"]).score_all(["question", "..."])


def test_a_users_embedder_plugs_in_by_name():
    dense = DenseRetriever(load_embedder("tests.retrieval.toy_embedder:embed"))
    got = dense.score(
        ["refunds within 30 days", "audit logs kept 400 days", "lunch at noon"],
        "how long are audit logs kept",
    )
    assert got.ranks[1] == 1
    assert got.retriever == "dense (tests.retrieval.toy_embedder:embed)"


def test_the_default_dense_retriever_is_wordllama_and_finds_the_paraphrase():
    got = DenseRetriever().score(
        [
            "The cafeteria serves lunch from noon until two.",
            "Audit logs are retained for four hundred days before deletion.",
            "Invoices are emailed on the first of the month.",
        ],
        "how long do we keep audit logs?",
    )
    assert got.retriever == "dense (wordllama)"
    assert got.ranks[1] == 1
