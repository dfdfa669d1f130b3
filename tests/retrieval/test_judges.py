from __future__ import annotations

import json

import pytest

from chunkers import chunk, indexed_text
from lab.measure.judges import crossings, muddy_vector, scaled, side_by_side, two_topics
from lab.measure.survival import AnswerNotFound, holds
from lab.retrieval.bm25_variants import Bm25Retriever
from lab.retrieval.dense import DenseRetriever
from lab.retrieval.embedders import EmbeddingCache, load_embedder
from lab.retrieval.fusion import HybridRetriever
from tests.support import SAMPLES

TOY = "tests.retrieval.toy_embedder:embed"


def toy():
    return load_embedder(TOY, cache=EmbeddingCache())


# --------------------------------------------------------------------------- scaling and crossing


def test_scaled_places_each_value_in_its_curves_range():
    assert scaled([1.0, 3.0, None, 2.0]) == [0.0, 1.0, None, 0.5]
    assert scaled([4.0, 4.0]) == [0.5, 0.5]
    assert scaled([None]) == [None]


def test_crossings_by_hand():
    assert crossings([0, 10], [0.0, 1.0], [1.0, 0.0]) == [5.0]
    assert crossings([0, 10, 20], [0.0, 0.5, 1.0], [1.0, 0.5, 0.0]) == [10.0]
    assert crossings([0, 10, 20], [0.0, 0.2, 1.0], [1.0, 0.6, 0.0]) == [
        pytest.approx(10 + 10 * 0.4 / 1.4)
    ]
    assert crossings([0, 10, 20], [0.0, None, 1.0], [1.0, 0.5, 0.0]) == []  # a gap breaks it
    assert crossings([0, 10], [1.0, 1.0], [0.0, 0.0]) == []


def test_curves_that_touch_or_start_and_end_together_do_not_cross():
    # both scaled curves start at 1 and end at 0 when both fall: no crossing there
    assert crossings([0, 10, 20], [1.0, 0.5, 0.0], [1.0, 0.2, 0.0]) == []
    # touching at 10 and parting in the same order; the swap is between 20 and 30
    got = crossings([0, 10, 20, 30], [1.0, 0.5, 0.5, 0.0], [0.0, 0.5, 0.4, 1.0])
    assert got == [pytest.approx(20 + 10 * 0.1 / 1.1)]
    # a stretch of equal points that comes out swapped crosses where it began
    assert crossings([0, 10, 20, 30], [1.0, 0.5, 0.5, 0.0], [0.0, 0.5, 0.5, 1.0]) == [10.0]
    # touching and parting in the same order is no crossing
    assert crossings([0, 10, 20], [1.0, 0.5, 1.0], [0.0, 0.5, 0.0]) == []


# --------------------------------------------------------------------------- the muddy vector


def first_gold(name: str) -> dict:
    line = (SAMPLES / f"{name}.gold.jsonl").read_text(encoding="utf-8").splitlines()[0]
    return json.loads(line)


SIZES = [200, 400, 800, 1600, 4000]


def test_each_point_is_the_chunk_that_holds_the_answer_at_that_size():
    text = (SAMPLES / "support_kb.md").read_text(encoding="utf-8")
    gold = first_gold("support_kb")
    got = muddy_vector(text, gold["question"], gold["answer"], SIZES, embedder=toy())
    assert [p.size for p in got.points] == SIZES
    for p in got.points:
        chunks = chunk(text, "structural", p.size, 0)
        texts = [indexed_text(c) for c in chunks]
        assert p.chunks == len(chunks)
        assert p.answer_chunk == next(i for i, c in enumerate(chunks) if holds(c, gold["answer"]))
        assert p.length == chunks[p.answer_chunk].length
        assert p.bm25 == Bm25Retriever().score(texts, gold["question"]).scores[p.answer_chunk]
    assert {p.cosine_scaled for p in got.points} >= {0.0, 1.0}
    assert got.bm25 == "bm25 (lucene)" and got.embedder == TOY


@pytest.mark.parametrize(
    "name",
    [
        "api_reference",
        "compute_pricing",
        "inspection_manual",
        "platform_data",
        "regional_revenue",
        "release_handbook",
        "support_kb",
    ],
)
def test_on_every_sample_a_big_chunk_has_a_muddier_vector_than_a_small_one(name):
    text = (SAMPLES / f"{name}.md").read_text(encoding="utf-8")
    gold = first_gold(name)
    got = muddy_vector(text, gold["question"], gold["answer"], [200, 4000])
    small, big = got.points
    assert big.length > small.length
    assert big.cosine < small.cosine


def test_a_size_that_cuts_the_answer_has_no_point():
    answer = "The deposit is refunded within ten working days of the final inspection."
    text = "Intro words here.\n\n" + answer + "\n\nClosing words here."
    got = muddy_vector(text, "when is the deposit refunded?", answer, [30, 400], embedder=toy())
    cut, whole = got.points
    assert (cut.answer_chunk, cut.cosine, cut.bm25, cut.cosine_scaled) == (None, None, None, None)
    assert whole.answer_chunk == 0 and whole.cosine > 0
    assert got.crossings == ()  # one point is no curve: nothing to cross


def test_bad_muddy_vector_input():
    with pytest.raises(AnswerNotFound):
        muddy_vector("some text here", "what?", "not in it", [100], embedder=toy())
    with pytest.raises(ValueError, match="larger than the overlap"):
        muddy_vector("some text here", "what text", "text", [100], overlap=100, embedder=toy())
    with pytest.raises(ValueError, match="at least one chunk size"):
        muddy_vector("some text here", "what text", "text", [], embedder=toy())


# --------------------------------------------------------------------------- two topics

REFUNDS = (
    "Refunds are available within 30 days of purchase. Annual plans are refundable "
    "within 14 days, and refunds go back to the card that paid."
)
AUDIT = (
    "Audit logs are kept for 400 days. An owner of the workspace can export them as "
    "JSON from the Security page."
)
Q_REFUNDS = "what is the refund window for annual plans?"
Q_AUDIT = "how long are audit logs kept?"
FILLER = (
    "Our offices are open on weekdays. The support team answers in English and German. "
    "Status updates appear on the public status page."
)


@pytest.mark.parametrize("embedder", [toy, load_embedder])
def test_a_chunk_growing_to_hold_two_topics_drifts_toward_their_midpoint(embedder):
    got = two_topics(
        REFUNDS, Q_REFUNDS, AUDIT, Q_AUDIT, filler=FILLER, steps=6, embedder=embedder()
    )
    first, last = got.points[0], got.points[-1]
    assert first.chars == len(REFUNDS) and first.second_chars == 0
    assert first.cosine_a == pytest.approx(got.alone_a)
    assert last.second_chars == len(AUDIT)
    assert [p.chars for p in got.points] == sorted({p.chars for p in got.points})
    # both topics in: each question likes the chunk less than its own passage alone
    assert last.cosine_a < got.alone_a
    assert last.cosine_b < got.alone_b
    assert last.cosine_b > first.cosine_b  # the second topic pulls the vector its way


def test_bad_two_topics_input():
    with pytest.raises(ValueError, match="both passages"):
        two_topics(" ", Q_REFUNDS, AUDIT, Q_AUDIT, embedder=toy())
    with pytest.raises(ValueError, match="steps must be at least 1"):
        two_topics(REFUNDS, Q_REFUNDS, AUDIT, Q_AUDIT, steps=0, embedder=toy())
    with pytest.raises(ValueError, match="no searchable words"):
        two_topics(REFUNDS, "??", AUDIT, Q_AUDIT, embedder=toy())


# --------------------------------------------------------------------------- side by side


def test_side_by_side_gives_each_chunk_its_three_ranks_and_marks_the_answer():
    text = (SAMPLES / "support_kb.md").read_text(encoding="utf-8")
    gold = first_gold("support_kb")
    chunks = chunk(text, "structural", 600, 50)
    hybrid = HybridRetriever(Bm25Retriever(), DenseRetriever(toy()))
    rows = side_by_side(chunks, gold["question"], gold["answer"], hybrid=hybrid)
    assert [r.number for r in rows] == [c.index + 1 for c in chunks]
    assert [r.holds_answer for r in rows] == [holds(c, gold["answer"]) for c in chunks]
    assert sum(r.holds_answer for r in rows) >= 1
    texts = [indexed_text(c) for c in chunks]
    bm25 = Bm25Retriever().score(texts, gold["question"])
    dense = DenseRetriever(toy()).score(texts, gold["question"])
    assert [r.bm25_rank for r in rows] == list(bm25.ranks)
    assert [r.dense_rank for r in rows] == list(dense.ranks)
    n = len(chunks)
    for ranks in (
        [r.bm25_rank for r in rows],
        [r.dense_rank for r in rows],
        [r.hybrid_rank for r in rows],
    ):
        assert sorted(ranks) == list(range(1, n + 1))


def test_side_by_side_with_no_answer_marks_nothing():
    chunks = chunk("First part about refunds.\n\nSecond part about logs.", "structural", 30, 0)
    rows = side_by_side(
        chunks, "refunds", None, hybrid=HybridRetriever(dense=DenseRetriever(toy()))
    )
    assert not any(r.holds_answer for r in rows)
