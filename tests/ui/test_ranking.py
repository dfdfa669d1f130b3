from chunkers import ChunkOptions, chunk_with
from lab.inputs.samples import EXAMPLES_DIR
from lab.retrieval.bm25 import Bm25Params
from lab.retrieval.bm25_variants import chunk_scores
from tests.support import SAMPLES
from ui.present.ranking import (
    HOLDS,
    HOLDS_RUNT,
    REVENUE_ANSWER,
    REVENUE_QUESTION,
    RUNT_MERGE_EXAMPLE,
    heading_rank_moves,
    orphan_case,
    revenue_case,
    runt_merge_example,
    score_rows,
    theory_curve,
)

REVENUE = (SAMPLES / "regional_revenue.md").read_text()


def test_orphan_row_outranks_its_table_only_without_the_runt_merge():
    off = revenue_case(REVENUE, "off")
    assert off.orphan and off.answer_rank == 1 and off.answer_length < 450
    # the structural runt carries the header: it is a runt, not a headerless orphan
    assert not off.headerless and "header repeated" in off.summary and "ranks #1" in off.summary
    for runt_merge in ("backward", "forward"):
        on = revenue_case(REVENUE, runt_merge)
        assert not on.orphan and on.answer_length > 1800 and "no orphan" in on.summary


def test_fixed_size_cuts_the_row_off_without_its_header():
    case = orphan_case(REVENUE, variant="okapi")  # the figures as rank-bm25 scores them
    assert case.orphan and case.headerless and not case.tie
    assert case.answer_length == len(REVENUE_ANSWER) + 1  # the row and its line break
    assert case.summary.startswith(f"fixed, no overlap: the orphan row {REVENUE_ANSWER} is cut")
    assert "it ranks #1 with 0.995, above the table it was cut from (chunk 2, #3" in case.summary
    # the length lesson holds for every variant: other weights, the same verdict
    for variant in ("lucene", "fts5"):
        other = orphan_case(REVENUE, variant=variant)
        assert other.orphan and "it ranks #1 with" in other.summary, variant
        assert "above the table it was cut from (chunk 2, #3" in other.summary, variant


def test_at_k1_zero_length_plays_no_part_only_which_words_a_chunk_holds():
    # -- k1 = 0: a word's weight is tf / tf = 1, so a chunk scores the IDF of each
    # -- question word it holds, once: the 261-char runt and the 1,318-char chunk that
    # -- hold the same words score the same, and so do the 478- and 1,799-char ones
    case = revenue_case(REVENUE, "off", k1=0.0)
    by_number = {r.number: r for r in case.rows}
    assert (by_number[4].length, by_number[2].length) == (261, 1318)
    assert by_number[4].score == by_number[2].score > by_number[1].score == by_number[3].score > 0
    at_default = {r.number: r.score for r in revenue_case(REVENUE, "off").rows}
    assert at_default[4] > at_default[2]  # with k1 > 0 the runt's shortness wins
    assert not case.tie and "ranks #" in case.summary


def test_the_shipped_example_merges_differently_forward_and_backward():
    text = (EXAMPLES_DIR / RUNT_MERGE_EXAMPLE).read_text(encoding="utf-8")
    ex = runt_merge_example(text, RUNT_MERGE_EXAMPLE)
    assert ex.lengths["off"] == [1414, 1734, 358, 211]
    assert ex.lengths["forward"] == [1414, 2094, 211] and ex.runts("forward") == [211]
    assert ex.lengths["backward"] == [1414, 1734, 571] and ex.runts("backward") == []


def test_score_rows_categories_and_theory_label():
    opts = ChunkOptions(size=1800, overlap=150, unit="chars", runt_merge="off")
    chunks = chunk_with(REVENUE, "structural", opts)
    rows = score_rows(chunks, chunk_scores(chunks, REVENUE_QUESTION), opts, REVENUE_ANSWER)
    assert [r.category for r in rows].count(HOLDS_RUNT) == 1 and rows[-1].category == HOLDS_RUNT
    curve = theory_curve(rows, opts)
    assert curve.anchor == rows[-1].number
    # the curve passes through the anchor chunk and falls with length
    assert curve.scores[0] > curve.scores[-1]
    assert "inflation" in curve.label and "×" in curve.label
    assert curve.cap_at_floor > 1.0 and curve.shortest_factor > 1.0
    assert HOLDS != HOLDS_RUNT


def test_b_zero_removes_the_length_bonus():
    opts = ChunkOptions(size=1800, overlap=150, unit="chars", runt_merge="off")
    chunks = chunk_with(REVENUE, "structural", opts)
    scores = chunk_scores(chunks, REVENUE_QUESTION, Bm25Params(b=0.0))
    rows = score_rows(chunks, scores, opts, REVENUE_ANSWER)
    curve = theory_curve(rows, opts, b=0.0)
    assert (
        abs(curve.shortest_factor - 1.0) < 1e-9 and abs(curve.scores[0] - curve.scores[-1]) < 1e-9
    )


def test_heading_rank_moves():
    text = (SAMPLES / "compute_pricing.md").read_text()
    chunks = chunk_with(text, "structural", ChunkOptions(size=600, overlap=100, unit="chars"))
    moves = heading_rank_moves(chunks, "what is the price of reserved instances?")
    assert sorted(m.rank_with for m in moves) == list(range(1, len(chunks) + 1))
    assert any(m.move != 0 for m in moves)
    assert all(m.move == m.rank_with - m.rank_without for m in moves)
