"""Precision, recall and IoU of retrieved tokens, computed by hand on small cases."""

from __future__ import annotations

import json

import pytest

from chunkers import ChunkOptions
from lab.inputs.gold import GoldQuestion, Passage, load_gold
from lab.measure.efficiency import token_efficiency, unit_counts
from lab.measure.integrity import check_gold
from tests.support import SAMPLES
from tests.support import run_cli as run

TEXT = "alpha beta gamma delta epsilon zeta eta theta"  # eight words
WORDS = ChunkOptions(size=4, overlap=2, unit="words")


def _span(first: str, last: str) -> tuple[int, int]:
    return TEXT.index(first), TEXT.index(last) + len(last)


def test_overlapping_chunks_count_a_word_each_time_it_is_sent():
    # chunk A: alpha..delta; chunk B: prefix gamma delta, body epsilon zeta.
    # passage gamma..epsilon (3 words). As Chroma counts: the chunks send 4 + 4 = 8
    # words (gamma and delta twice), 6 of them distinct; the 3 passage words are found
    # once each. Precision 3/8, IoU 3 / (8 + 3 - 3): the overlap lowers both.
    a = [_span("alpha", "delta")]
    b = [_span("gamma", "delta"), _span("epsilon", "zeta")]
    got = token_efficiency(unit_counts(TEXT, "words"), [_span("gamma", "epsilon")], [a, b], a + b)
    assert (got.passage, got.retrieved, got.found, got.cost) == (3, 6, 3, 8)
    assert got.precision == pytest.approx(3 / 8)
    assert got.recall == 1.0
    assert got.iou == pytest.approx(3 / (8 + 3 - 3))
    assert got.precision_omega == pytest.approx(3 / 6)


def test_overlap_lowers_iou_at_the_same_size():
    # the same passage and the same 4-word chunks, with and without 2 words of overlap,
    # every chunk that meets the passage retrieved: the overlap sends more words
    counts = unit_counts(TEXT, "words")
    passage = [_span("delta", "epsilon")]
    plain = [[_span("alpha", "delta")], [_span("epsilon", "theta")]]
    overlapped = [
        [_span("alpha", "delta")],
        [_span("gamma", "delta"), _span("epsilon", "zeta")],
        [_span("epsilon", "zeta"), (TEXT.index(" eta ") + 1, len(TEXT))],
    ]
    flat = [s for c in overlapped for s in c]
    without = token_efficiency(counts, passage, plain, [s for c in plain for s in c])
    with_overlap = token_efficiency(counts, passage, overlapped, flat)
    assert without.iou == pytest.approx(2 / 8) and with_overlap.iou == pytest.approx(2 / 12)
    assert with_overlap.iou < without.iou and with_overlap.recall == without.recall == 1.0


def test_chunks_from_another_document_only_add_to_what_is_retrieved():
    # characters: passage [10, 20), one chunk [0, 15) here and 8 characters elsewhere
    text = "x" * 30
    got = token_efficiency(
        unit_counts(text, "chars"), [(10, 20)], [[(0, 15)]], [(0, 15), (15, 30)], 8, 8
    )
    assert (got.passage, got.retrieved, got.found) == (10, 23, 5)
    assert got.precision == pytest.approx(5 / 23)
    assert got.recall == pytest.approx(0.5)
    assert got.iou == pytest.approx(5 / (23 + 10 - 5))
    assert got.precision_omega == pytest.approx(10 / 30)
    assert got.cost == 23


def _check(k: int):
    question = GoldQuestion(
        "eta theta",
        passages=(Passage(start=_span("delta", "epsilon")[0], end=_span("delta", "epsilon")[1]),),
    )
    return check_gold(TEXT, [question], "fixed", WORDS, k=k)


def test_check_reports_the_top_chunk_against_the_passage():
    # fixed 4 words, overlap 2: [alpha..delta] [(gamma delta) epsilon zeta]
    # [(epsilon zeta) eta theta]. "eta theta" ranks the last first: of its 4 words
    # one (epsilon) is a passage word, of the passage's 2 words one arrives.
    report = _check(k=1)
    eff = report.results[0].efficiency
    assert (eff.passage, eff.retrieved, eff.found) == (2, 4, 1)
    assert report.precision == pytest.approx(1 / 4)
    assert report.token_recall == pytest.approx(1 / 2)
    assert report.iou == pytest.approx(1 / (2 + 4 - 1))
    # every chunk meets the passage, so even perfect recall brings all eight words
    assert report.precision_omega == pytest.approx(2 / 8)


def test_overlap_costs_the_context_window_but_not_the_count():
    report = _check(k=3)
    eff = report.results[0].efficiency
    assert eff.retrieved == 8  # every word once
    assert eff.cost == 12  # three chunks of four words each sent, and counted so
    assert report.precision == pytest.approx(2 / 12)
    assert report.iou == pytest.approx(2 / (12 + 2 - 2))


def test_diff_shows_token_efficiency_beside_recall_as_check_measures_it(capsys):
    doc, gold = SAMPLES / "support_kb.md", SAMPLES / "support_kb.gold.jsonl"
    argv = ("diff", str(doc), "--gold", str(gold), "--k", "3")
    argv += ("--a", "structural:chars:1800:150", "--b", "structural:words:60:20")
    code, out, _ = run(capsys, *argv, "--format", "json")
    b = json.loads(out)["b"]["gold"]
    questions = load_gold(gold).questions
    text = doc.read_text(encoding="utf-8")
    opts = ChunkOptions(size=60, overlap=20, unit="words")
    report = check_gold(text, questions, "structural", opts, k=3)
    assert b["iou"] == pytest.approx(report.iou) and b["precision"] == pytest.approx(
        report.precision
    )
    assert 0 < b["iou"] <= b["precision"] <= 1 and 0 < b["precision_omega"] <= 1
    code, out, _ = run(capsys, *argv)
    assert "| token IoU@3 |" in out and "words |" in out  # each side's cost in its unit


def test_lab6_lesson_shows_overlap_lowering_iou_at_the_same_size():
    # fixed windows of the support sample, each size with no overlap and with a quarter:
    # counted as sent, the overlap's repeated text lowers IoU at most sizes
    from lab.measure.efficiency_sweep import spread, token_sweep

    text = (SAMPLES / "support_kb.md").read_text(encoding="utf-8")
    questions = load_gold(SAMPLES / "support_kb.gold.jsonl").questions
    lesson = spread(token_sweep(text, questions, "fixed", ChunkOptions(), 5))
    assert lesson.sizes == 4 and lesson.overlap_lowers_iou >= 3
