"""The integrity check keeps "no chunk" and "ranks poorly" apart."""

from __future__ import annotations

import json

import pytest

from chunkers import ChunkOptions
from lab.inputs.gold import GoldQuestion
from lab.measure.integrity import FOUND, NO_CHUNK, RANKS_POORLY, GoldRun, check_gold, check_index
from lab.measure.survival import AnswerNotFound
from tests.support import SAMPLES


def _gold(name: str) -> tuple[str, list[GoldQuestion]]:
    text = (SAMPLES / f"{name}.md").read_text(encoding="utf-8")
    lines = (SAMPLES / f"{name}.gold.jsonl").read_text(encoding="utf-8").splitlines()
    return text, [GoldQuestion(**json.loads(line)) for line in lines if line.strip()]


def test_fixed_24_words_loses_the_audit_answer() -> None:
    text, pairs = _gold("platform_data")
    report = check_gold(text, pairs[:1], "fixed", ChunkOptions(size=24, overlap=0, unit="words"))
    (result,) = report.results
    assert result.status == NO_CHUNK and not result.intact and result.rank is None
    assert result.verdict == "answer split across chunks 4 and 5: unretrievable at any k"
    assert report.intact_rate == 0.0 and report.mrr == 0.0 and not report.passed


def test_sentence_chunks_keep_every_platform_answer() -> None:
    text, pairs = _gold("platform_data")
    report = check_gold(text, pairs, "sentence", ChunkOptions(size=24, overlap=0, unit="words"))
    assert report.intact_rate == 1.0 and report.passed
    assert report.results[0].verdict.startswith("answer intact in chunk ")


def test_ranks_poorly_is_not_missing() -> None:
    text, pairs = _gold("inspection_manual")
    report = check_gold(text, pairs, "structural", ChunkOptions(), k=1)
    assert report.intact_rate == 1.0 and report.missing == []
    poor = report.ranks_poorly
    assert poor and all(r.intact and r.rank > 1 for r in poor)
    assert report.recall_at(1) == pytest.approx(1 - len(poor) / len(pairs))
    assert all(r.status in (FOUND, RANKS_POORLY) for r in report.results)


def test_recall_and_mrr_arithmetic() -> None:
    text, pairs = _gold("support_kb")
    report = check_gold(text, pairs, "fixed", ChunkOptions(size=50, overlap=0, unit="words"))
    ranks = [r.rank for r in report.results]
    assert report.mrr == pytest.approx(sum(1 / r for r in ranks if r) / len(ranks))
    for k in (1, 3, 5, 10):
        assert report.recall[k] == pytest.approx(sum(1 for r in ranks if r and r <= k) / len(ranks))
    # the lottery example's refund sentence is split by 50-word windows
    assert report.results[0].status == NO_CHUNK


def test_folder_index_ranks_across_documents() -> None:
    docs, pairs = {}, []
    for name in ("support_kb", "release_handbook"):
        text, ps = _gold(name)
        docs[name + ".md"] = text
        pairs += [GoldQuestion(p.question, p.answer, name + ".md") for p in ps]
    report = check_index(GoldRun(docs, pairs), "structural", ChunkOptions())
    assert report.chunk_count == sum(len(__import__("chunkers").chunk(t)) for t in docs.values())
    assert report.intact_rate == 1.0
    assert {r.doc for r in report.results} == set(docs)
    assert report.recall_at(1) == 1.0  # each answer's chunk beats both documents' others


def test_answer_not_in_document_is_a_bad_gold_set() -> None:
    text, _ = _gold("platform_data")
    with pytest.raises(AnswerNotFound, match="gold pair 1"):
        check_gold(
            text, [GoldQuestion("q?", "a sentence that is nowhere")], "fixed", ChunkOptions()
        )
