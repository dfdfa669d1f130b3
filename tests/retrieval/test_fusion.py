from __future__ import annotations

import pytest

from lab.retrieval.bm25_variants import Bm25Retriever
from lab.retrieval.dense import DenseRetriever
from lab.retrieval.embedders import load_embedder
from lab.retrieval.fusion import RRF_K, HybridRetriever, rrf_scores

TOY = "tests.retrieval.toy_embedder:embed"


def test_rrf_is_the_sum_of_one_over_k_plus_rank():
    got = rrf_scores([[1, 2, 3], [3, 1, 2]], k=60)
    assert got.tolist() == pytest.approx([1 / 61 + 1 / 63, 1 / 62 + 1 / 61, 1 / 63 + 1 / 62])


def test_k_is_sixty():
    assert RRF_K == 60
    assert rrf_scores([[1], [1]]).tolist() == pytest.approx([2 / 61])


def test_bad_fusions_are_refused():
    with pytest.raises(ValueError, match="same chunks"):
        rrf_scores([[1, 2], [1]])
    with pytest.raises(ValueError, match="k must be >= 0"):
        rrf_scores([[1]], k=-1)
    with pytest.raises(ValueError, match="k must be >= 0"):
        HybridRetriever(Bm25Retriever(), DenseRetriever(load_embedder(TOY)), k=-5)


def hybrid() -> HybridRetriever:
    return HybridRetriever(Bm25Retriever("lucene"), DenseRetriever(load_embedder(TOY)))


TEXTS = [
    "the refund window is 30 days",
    "audit logs are kept for 400 days",
    "lunch is served at noon",
    "logs of lunch orders",
]
QUESTION = "how long are audit logs kept"


def test_hybrid_fuses_the_two_judges_ranks():
    index = hybrid().index(TEXTS)
    judged = index.judge(QUESTION)
    expected = rrf_scores([judged.bm25.ranks, judged.dense.ranks])
    assert judged.hybrid.scores == pytest.approx(expected.tolist())
    assert judged.bm25 == Bm25Retriever("lucene").score(TEXTS, QUESTION)
    assert judged.hybrid.ranks[1] == 1
    assert index.score(QUESTION) == judged.hybrid


def test_a_chunk_both_judges_rank_fairly_high_beats_one_judges_favourite():
    # chunk 0: first for BM25, 40th for dense; chunk 1: fifth for both
    bm25 = [1, 5] + list(range(2, 5)) + list(range(6, 41))
    dense = [40, 5] + list(range(1, 5)) + list(range(6, 40))
    assert sorted(bm25) == sorted(dense) == list(range(1, 41))
    assert rrf_scores([bm25, dense], k=RRF_K)[1] > rrf_scores([bm25, dense], k=RRF_K)[0]
    # with k = 0 a single first place wins: why k is not small
    assert rrf_scores([bm25, dense], k=0)[0] > rrf_scores([bm25, dense], k=0)[1]


def test_many_questions_at_once_match_one_at_a_time():
    index = hybrid().index(TEXTS)
    questions = [QUESTION, "refund window"]
    assert index.score_all(questions) == [index.score(q) for q in questions]
    assert hybrid().index([]).score_all(questions)[0].scores == ()


def test_the_label_says_what_was_fused():
    assert hybrid().label == f"hybrid (lucene + {TOY}, k=60)"
