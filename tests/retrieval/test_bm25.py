from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lab.retrieval.bm25 import Bm25Params, ChunkScore
from lab.retrieval.bm25_variants import chunk_scores
from lab.retrieval.tokenize import tokenize
from tests.support import make_chunk as make
from tests.support import rank_of


def filler(tag: str, n: int) -> str:
    return " ".join(f"{tag}{j}" for j in range(n))  # unique words: positive IDF


def ranks(scores: list[ChunkScore]) -> list[int]:
    return [s.rank for s in scores]


def test_tokenize_matches_the_brief_examples():
    assert tokenize("Mumbai's") == ["mumbai", "s"]
    assert tokenize("FY24") == ["fy24"]
    assert tokenize("18,412") == ["18", "412"]
    assert tokenize("Déjà vu, RÉSUMÉ!") == ["deja", "vu", "resume"]
    assert tokenize(" -- ?! ") == []


def test_term_chunk_outranks_the_rest_and_ranks_are_1_to_n():
    chunks = [
        make(0, "audit logs are kept"),
        make(1, "refunds within 30 days"),
        make(2, "pricing for compute"),
        make(3, "support hours"),
    ]
    scores = chunk_scores(chunks, "How do refunds work?")
    assert sorted(ranks(scores)) == [1, 2, 3, 4]
    assert [s.index for s in scores] == [0, 1, 2, 3]  # aligned with the input
    assert rank_of(scores, 1) == 1
    assert scores[1].score > 0
    assert all(s.score == 0 for s in scores if s.index != 1)


def test_zero_scores_tie_break_by_chunk_index_even_out_of_order():
    chunks = [make(5, "beta"), make(2, "gamma"), make(9, "delta"), make(1, "alpha")]
    scores = chunk_scores(chunks, "alpha")
    assert rank_of(scores, 1) == 1
    assert [rank_of(scores, i) for i in (2, 5, 9)] == [2, 3, 4]


def test_heading_path_switch_decides_whether_a_heading_only_match_scores():
    chunks = [
        make(0, "kept for four hundred days", ("Data Retention", "Audit logs")),
        make(1, "prices are per hour", ("Pricing",)),
        make(2, "call us", ("Support",)),
    ]
    on = chunk_scores(chunks, "retention", heading_path=True)
    off = chunk_scores(chunks, "retention", heading_path=False)
    assert rank_of(on, 0) == 1 and on[0].score > 0
    assert off[0].score == 0
    assert on[0].indexed_tokens == 9 and off[0].indexed_tokens == 5


def test_overlap_switch_decides_whether_an_overlap_only_match_scores():
    chunks = [
        make(0, "which are refundable within 14 days", overlap="except for annual plans"),
        make(1, "pricing table"),
        make(2, "support hours"),
    ]
    assert chunk_scores(chunks, "annual plans", overlap=True)[0].score > 0
    assert chunk_scores(chunks, "annual plans", overlap=False)[0].score == 0


@pytest.mark.parametrize("variant", ["okapi", "lucene"])
def test_chunker_spec_orphan_row_outranks_the_table_it_came_from(variant):
    # Four chunks, each with Mumbai once; only length differs (the runt lesson's example). The
    # length lesson is the tf part, the same in every variant.
    orphan = make(0, "| Mumbai | FY24 | 18,412 | 4.2% |")
    caption = make(1, "Mumbai " + filler("c", 60))
    paragraph = make(2, "Mumbai " + filler("p", 180))
    table = make(3, "Mumbai " + filler("t", 270))
    params = Bm25Params(variant=variant)
    scores = chunk_scores([table, paragraph, caption, orphan], "Mumbai", params)
    assert [rank_of(scores, i) for i in (0, 1, 2, 3)] == [1, 2, 3, 4]
    # Mumbai is in every chunk. okapi: IDF < 0, floored to epsilon * average IDF > 0;
    # lucene: log(1 + 0.5 / 4.5) > 0 with no floor.
    assert all(s.score > 0 for s in scores)
    assert scores[3].length == len(orphan.body) and scores[3].indexed_tokens == 6


def test_epsilon_zero_removes_a_term_found_in_every_chunk_from_okapi_only():
    chunks = [make(i, f"mumbai {filler(str(i), 3)}") for i in range(4)]
    okapi = chunk_scores(chunks, "mumbai", Bm25Params(variant="okapi", epsilon=0))
    assert all(s.score == 0 for s in okapi)
    # lucene has no floor to remove: a term in every chunk still counts a little
    assert all(s.score > 0 for s in chunk_scores(chunks, "mumbai", Bm25Params(epsilon=0)))


def test_k1_and_b_change_scores():
    chunks = [
        make(0, "mumbai " + filler("a", 2)),
        make(1, "mumbai " + filler("b", 40)),
        make(2, "x"),
    ]
    flat = chunk_scores(chunks, "mumbai", Bm25Params(b=0.0))
    assert flat[0].score == pytest.approx(flat[1].score)  # b = 0: no length normalisation
    normal = chunk_scores(chunks, "mumbai", Bm25Params(b=0.75))
    assert normal[0].score > normal[1].score
    assert chunk_scores(chunks, "mumbai", Bm25Params(k1=2.0))[0].score != normal[0].score


def test_question_without_words_raises():
    with pytest.raises(ValueError, match="question has no searchable words"):
        chunk_scores([make(0, "text")], "?! -- ...")
    with pytest.raises(ValueError, match="question has no searchable words"):
        chunk_scores([], "   ")


def test_empty_inputs():
    assert chunk_scores([], "mumbai") == []
    empties = chunk_scores([make(0, ""), make(1, "  ")], "mumbai")
    assert ranks(empties) == [1, 2] and [s.score for s in empties] == [0.0, 0.0]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(max_size=40), max_size=12),
    st.text(min_size=1, max_size=20).filter(lambda q: bool(tokenize(q))),
    st.booleans(),
    st.booleans(),
)
def test_ranks_are_always_a_permutation(texts, query, heading, overlap):
    chunks = [make(i, t, heading=(t[:5],), overlap=t[5:]) for i, t in enumerate(texts)]
    scores = chunk_scores(chunks, query, heading_path=heading, overlap=overlap)
    assert len(scores) == len(chunks)
    assert sorted(ranks(scores)) == list(range(1, len(chunks) + 1))
    best_first = sorted(scores, key=lambda s: s.rank)
    assert all(a.score >= b.score for a, b in pairwise(best_first))
