from __future__ import annotations

import pytest

from lab.measure.costs import (
    ContextBudget,
    chunks_for,
    context_budget,
    cost_row,
    human_bytes,
    round_sig,
    vector_bytes,
    with_hnsw,
)

MB, GB = 10**6, 10**9
CORPUS = dict(docs=10_000, words_per_doc=2_000)  # the published cost example: 20 million words


def test_200_words_no_overlap():
    row = cost_row(**CORPUS, size=200, overlap=0)
    assert row.total_words == 20_000_000
    assert row.chunks == 100_000
    assert row.vector_bytes / MB == 614.4  # exact: 100,000 x 1536 x 4
    assert human_bytes(row.vector_bytes) == "614 MB"


def test_200_words_50_overlap():
    row = cost_row(**CORPUS, size=200, overlap=50)
    assert row.chunks == 133_334  # ceil(20,000,000 / 150)
    assert round_sig(row.chunks, 3) == 133_000
    # The article's 817 MB is the rounded 133,000 chunks x 6,144 bytes;
    # the exact 133,334 chunks give 819.2 MB.
    assert vector_bytes(int(round_sig(row.chunks, 3))) / MB == pytest.approx(817, abs=1)
    assert row.vector_bytes / MB == pytest.approx(819.2, abs=0.1)


def test_200_words_100_overlap_and_500_words_100_overlap():
    half = cost_row(**CORPUS, size=200, overlap=100)
    assert half.chunks == 200_000 and round(half.vector_bytes / GB, 2) == 1.23
    assert human_bytes(half.vector_bytes) == "1.23 GB"
    big = cost_row(**CORPUS, size=500, overlap=100)
    assert big.chunks == 50_000 and round(big.vector_bytes / MB) == 307
    assert human_bytes(big.vector_bytes) == "307 MB"


def test_storage_is_vectors_only_and_hnsw_is_separate():
    row = cost_row(**CORPUS, size=200, overlap=0)
    assert row.vector_bytes == 100_000 * 1536 * 4
    assert row.hnsw_bytes == pytest.approx(row.vector_bytes * 1.5)
    assert with_hnsw(1000) == 1500 and with_hnsw(1000, factor=2) == 2000


def test_practice_problem_2():
    assert vector_bytes(1) == 6_144
    a = cost_row(50_000, 1_500, 300, 0)
    b = cost_row(50_000, 1_500, 300, 150)
    assert a.total_words == 75_000_000
    assert (a.chunks, b.chunks) == (250_000, 500_000)
    assert round(a.vector_bytes / GB, 2) == 1.54 and round(a.hnsw_bytes / GB, 1) == 2.3
    assert round(b.vector_bytes / GB, 2) == 3.07 and round(b.hnsw_bytes / GB, 1) == 4.6
    # Overlap costs storage, nothing per request: k=5 of 300 words ~ 2,000 tokens in both.
    assert a.context == b.context == ContextBudget(1_500, 2_000)
    assert round((b.hnsw_bytes - a.hnsw_bytes) / GB, 1) == 2.3  # "the extra 2.3 GB"


def test_context_budget():
    assert context_budget(5, 500) == ContextBudget(2_500, 3_333)
    assert round_sig(context_budget(5, 500).tokens, 2) == 3_300  # "around 3,300 tokens"
    assert context_budget(5, 300).tokens == 2_000
    assert context_budget(5, 200).words == 1_000


def test_chunks_for_edges():
    assert chunks_for(0, 200, 0) == 0
    assert chunks_for(201, 200, 0) == 2
    with pytest.raises(ValueError):
        chunks_for(100, 200, 200)
    with pytest.raises(ValueError):
        chunks_for(100, 200, -1)


def test_human_bytes_units():
    assert human_bytes(2.304 * GB) == "2.3 GB"
    assert human_bytes(512) == "512 B"
    assert round_sig(0) == 0.0
