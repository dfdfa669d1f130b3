"""The runt story on the revenue sample: the orphan row wins BM25."""

from __future__ import annotations

from chunkers import chunk
from lab.retrieval.bm25_variants import chunk_scores
from tests.support import SAMPLES

QUESTION = "what was Mumbai's FY24 revenue?"
ROW = "| Mumbai | FY24 | 18,412 | 4.2% |"
HEADER = "| Territory (cities and depots covered) |"


def _text() -> str:
    return (SAMPLES / "regional_revenue.md").read_text(encoding="utf-8")


def test_fixed_chunks_orphan_the_row_and_it_outranks_the_table() -> None:
    chunks = chunk(_text(), "fixed", 1800, 0)
    orphan = next(c for c in chunks if ROW in c.body)
    table = next(c for c in chunks if HEADER in c.body)
    assert HEADER not in orphan.body and orphan.length == 34  # one severed row
    scores = {s.index: s for s in chunk_scores(chunks, QUESTION)}
    assert scores[orphan.index].rank == 1
    assert scores[orphan.index].score > scores[table.index].score


def test_structural_sheds_a_runt_without_the_runt_merge_and_it_wins() -> None:
    chunks = chunk(_text(), "structural", 1800, 150, runt_merge="off")
    runt = chunks[-1]
    assert ROW in runt.body and runt.length < 450
    assert chunk_scores(chunks, QUESTION)[runt.index].rank == 1


def test_structural_with_the_runt_merge_leaves_no_orphan_and_the_table_ranks_first() -> None:
    chunks = chunk(_text(), "structural")
    holders = [c for c in chunks if ROW in c.body]
    assert len(holders) == 1
    (table,) = holders
    assert HEADER in table.body and table.length >= 450
    assert chunk_scores(chunks, QUESTION)[table.index].rank == 1
