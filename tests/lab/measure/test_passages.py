"""Gold passages: intact per passage, recall@k by overlap, coverage@k by characters, MRR."""

from __future__ import annotations

import pytest

from chunkers import Chunk, ChunkOptions
from lab.inputs.gold import GoldQuestion, Passage
from lab.measure import integrity, survival
from lab.measure.integrity import FOUND, NO_CHUNK, GoldLineError, GoldRun, check_index
from tests.support import SAMPLES

# three paragraphs of 20 characters each, one chunk each
PARAS = ["alpha alpha alpha !\n", "bravo bravo bravo !\n", "delta delta delta !\n"]
TEXT = "".join(PARAS)


def _chunks() -> list[Chunk]:
    out, at = [], 0
    for i, p in enumerate(PARAS):
        out.append(Chunk(i, p, at, at + len(p), len(p)))
        at += len(p)
    return out


def _check(*pairs: GoldQuestion, k: int = 1):
    gold = GoldRun({"doc.md": TEXT}, list(pairs), k)
    return check_index(gold, "fixed", ChunkOptions(), chunked={"doc.md": _chunks()})


def test_coverage_counts_the_passage_characters_inside_the_top_k_chunks() -> None:
    # the passage: the last 10 characters of chunk 1 and the first 10 of chunk 2
    pair = GoldQuestion("bravo", doc="doc.md", passages=(Passage(start=10, end=30),))
    (r,) = _check(pair).results
    assert r.rank == 1 and r.status == FOUND  # chunk 2 (bravo) overlaps the passage
    assert r.coverage[1] == pytest.approx(0.5)  # only chunk 2 is in the top 1
    assert r.coverage[3] == pytest.approx(1.0)  # chunks 1 and 2 both in the top 3
    (p,) = r.passages
    assert not p.intact and p.verdict == "passage split across chunks 1 and 2"
    assert not r.intact


def test_recall_counts_a_chunk_that_overlaps_a_passage_and_mrr_its_rank() -> None:
    # the passage lies in chunk 1 (alpha) only; the question prefers bravo
    pair = GoldQuestion("bravo bravo alpha", doc="doc.md", passages=(Passage(text="alpha alpha"),))
    report = _check(pair, k=1)
    (r,) = report.results
    assert r.rank == 2 and r.chunk_index == 0 and r.coverage[1] == 0.0
    assert report.recall_at(1) == 0.0 and report.recall_at(3) == 1.0
    assert report.mrr == pytest.approx(0.5)


def test_several_passages_count_together() -> None:
    pair = GoldQuestion(
        "delta",
        doc="doc.md",
        passages=(Passage(text="delta delta delta !"), Passage(text="alpha alpha alpha !")),
    )
    (r,) = _check(pair).results
    assert r.rank == 1 and r.chunk_index == 2 and r.intact
    assert r.coverage[1] == pytest.approx(0.5) and r.coverage[3] == pytest.approx(1.0)
    assert [p.chunk_index for p in r.passages] == [2, 0]


def test_an_answer_must_be_whole_where_a_passage_need_only_overlap() -> None:
    split = "alpha !\nbravo"  # runs across the boundary of chunks 1 and 2
    answer = _check(GoldQuestion("bravo", split, "doc.md")).results[0]
    passage = _check(GoldQuestion("bravo", doc="doc.md", passages=(Passage(text=split),))).results[
        0
    ]
    assert answer.status == NO_CHUNK and answer.rank is None
    assert passage.status == FOUND and passage.rank == 1


def test_a_text_passage_counts_its_best_covered_occurrence() -> None:
    # "!" closes every paragraph; the top chunk holds one of them whole
    (r,) = _check(GoldQuestion("delta", doc="doc.md", passages=(Passage(text="!"),))).results
    assert r.coverage[1] == 1.0


@pytest.mark.parametrize(
    "passage,needle",
    [
        (Passage(start=50, end=61, line=7), "gold pair 1 (line 7): span 50-61 runs outside doc.md"),
        (Passage(text="nowhere", line=3), "gold pair 1 (line 3): passage 'nowhere' is not in"),
        (Passage(start=19, end=20, line=4), "span 19-20 holds only spaces"),
    ],
)
def test_a_passage_that_does_not_fit_its_document_names_its_line(
    passage: Passage, needle: str
) -> None:
    with pytest.raises(GoldLineError, match=needle.replace("(", r"\(").replace(")", r"\)")) as e:
        _check(GoldQuestion("alpha", doc="doc.md", passages=(passage,), line=passage.line))
    assert e.value.line == passage.line


def test_each_document_is_laid_out_once_however_many_answers(monkeypatch) -> None:
    made: list[survival.DocumentLayout] = []
    laid_out: list = []  # kept alive, so each is told apart by identity

    class Counting(survival.DocumentLayout):
        """Records each document laid out, and each token layout it hands out."""

        def __init__(self, text: str, chunks: list[Chunk]) -> None:
            super().__init__(text, chunks)
            made.append(self)

        @property
        def layout(self):
            kept = super().layout
            if not any(x is kept for x in laid_out):
                laid_out.append(kept)
            return kept

    monkeypatch.setattr(integrity, "DocumentLayout", Counting)
    text = (SAMPLES / "support_kb.md").read_text(encoding="utf-8")
    answers = [
        "Refunds are available within 30 days of purchase",
        "except for annual plans",
        "Annual billing costs the same as ten months of monthly billing",
    ]
    pairs = [GoldQuestion(f"question {i}?", a, "kb.md") for i, a in enumerate(answers * 3)]
    report = check_index(GoldRun({"kb.md": text}, pairs), "structural", ChunkOptions())
    assert report.intact_rate == 1.0 and len(report.results) == 9
    assert [m.text for m in made] == [text] and len(laid_out) == 1
