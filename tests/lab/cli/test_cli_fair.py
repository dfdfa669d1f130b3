"""`check` and `diff` with --budget and --context: the same numbers as the library, and
bad input in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunkers import ChunkOptions
from lab.inputs.gold import load_gold
from lab.measure.integrity import check_judged
from lab.retrieval.bm25_variants import Bm25Retriever
from tests.support import SAMPLES
from tests.support import run_cli as run

KB = SAMPLES / "support_kb.md"
KB_GOLD = str(SAMPLES / "support_kb.gold.jsonl")
WORDS = ("--unit", "words", "--size", "60", "--overlap", "10")


def test_budget_object_is_the_librarys_figures(capsys) -> None:
    code, out, _ = run(capsys, "check", str(KB), "--gold", KB_GOLD, *WORDS, "--k", "3",
                       "--budget", "150", "--json", "--quiet")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    got = data["budget"]
    assert set(got) >= {"tokens", "chunks", "coverage", "recall", "precision", "iou"}
    opts = ChunkOptions(size=60, overlap=10, unit="words")
    pairs = load_gold(Path(KB_GOLD)).questions
    report = check_judged(
        {KB.name: KB.read_text(encoding="utf-8")},
        pairs,
        "structural",
        opts,
        retrievers=[Bm25Retriever()],
        k=3,
        budget=150,
    )[0]
    figures = report.at_budget
    assert figures is not None
    assert got == figures.to_json()
    assert got["tokens"] == 150 and got["unit"] == "words"
    assert 1 < got["chunks"] < 150 / 10  # a few chunks fit, the last cut
    assert data["retrievers"][0]["budget"] == got


def test_budget_lines_say_how_many_chunks_fit(capsys) -> None:
    code, out, _ = run(capsys, "check", str(KB), "--gold", KB_GOLD, *WORDS, "--budget", "150",
                       "--quiet")  # fmt: skip
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("at a budget of 150 words"))
    assert "chunks fit on average" in line and "coverage" in line and "IoU" in line


def test_a_budget_below_one_chunk_is_one_line(capsys) -> None:
    code, out, err = run(capsys, "check", str(KB), "--gold", KB_GOLD, *WORDS, "--budget", "3",
                         "--quiet")  # fmt: skip
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "a budget of 3 words holds no whole chunk" in err and "needs" in err


def test_title_plus_path_names_the_file_it_used_once(tmp_path: Path, capsys) -> None:
    doc = tmp_path / "depot_notes.md"
    doc.write_text("## Counts\n\nStock is counted every Friday.\n\n## Losses\n\n"
                   "Losses go to the audit team.\n", encoding="utf-8")  # fmt: skip
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"question": "when is stock counted", "answer": "every Friday"})
                    + "\n", encoding="utf-8")  # fmt: skip
    code, out, _ = run(capsys, "check", str(doc), "--gold", str(gold), "--context", "title+path",
                       "--quiet")  # fmt: skip
    assert code == 0
    notes = [x for x in out.splitlines() if "has no title" in x]
    assert len(notes) == 1 and "'depot_notes'" in notes[0]


def test_context_reports_top_20_failures_against_none(capsys) -> None:
    code, out, _ = run(capsys, "check", str(KB), "--gold", KB_GOLD, *WORDS, "--context", "path",
                       "--retriever", "bm25", "--json", "--quiet")  # fmt: skip
    assert code == 0
    ctx = json.loads(out)["context"]
    assert ctx["mode"] == "path" and ctx["compared_with"] == "none"
    (row,) = ctx["retrievers"]
    assert set(row) == {"retriever", "failure_at_20", "failure_at_20_none", "relative_change"}
    assert 0 <= row["failure_at_20"] <= 1


@pytest.mark.parametrize("extra", [(), ("--budget", "400")])
def test_diff_compares_at_equal_cost(capsys, extra: tuple[str, ...]) -> None:
    code, out, _ = run(capsys, "diff", str(KB), "--a", "structural:words:40:0",
                       "--b", "structural:words:200:0", "--gold", KB_GOLD, "--k", "3",
                       "--format", "json", *extra)  # fmt: skip
    data = json.loads(out)
    e = data["equal_cost"]
    assert e is not None and e["cheaper"] == "A" and e["cost_ratio"] > 1.1
    assert e["tokens"] == (400 if extra else round(data["a"]["gold"]["context_cost"]))
    assert "leans on the comparison at equal cost" in data["advice"]
    assert len(e["a"]) == len(e["b"]) == 1


def test_diff_with_title_plus_path_names_the_file_once(tmp_path: Path, capsys) -> None:
    doc = tmp_path / "notes.md"
    doc.write_text("## Counts\n\nStock is counted every Friday by the depot team.\n",
                   encoding="utf-8")  # fmt: skip
    code, out, err = run(capsys, "diff", str(doc), "--a", "structural:words:20:0",
                         "--b", "fixed:words:20:0", "--context", "title+path")  # fmt: skip
    assert err.count("\n") == 1 and "no title" in err and "'notes'" in err


def test_a_budget_below_one_on_diff_is_one_line(capsys) -> None:
    code, out, err = run(capsys, "diff", str(KB), "--a", "structural:words:40:0",
                         "--b", "structural:words:200:0", "--gold", KB_GOLD,
                         "--budget", "0")  # fmt: skip
    assert code == 2 and out == "" and err.count("\n") == 1 and "at least 1" in err


def test_context_path_on_the_fixture_lowers_top_20_failures_by_all(tmp_path: Path, capsys):
    from tests.lab.measure.test_context import DOC, QUESTIONS

    doc = tmp_path / "handbook.md"
    doc.write_text(DOC, encoding="utf-8")
    gold = tmp_path / "g.jsonl"
    gold.write_text("".join(json.dumps({"question": q.question, "answer": q.answer}) + "\n"
                            for q in QUESTIONS), encoding="utf-8")  # fmt: skip
    code, out, _ = run(capsys, "check", str(doc), "--gold", str(gold), "--unit", "words",
                       "--size", "8", "--overlap", "0", "--context", "path", "--quiet")  # fmt: skip
    line = next(x for x in out.splitlines() if x.startswith("context path:"))
    assert line == (
        "context path: top-20 failures (1 - recall@20): bm25 (lucene) 0.0% (none: 36.7%; -100%)"
    )
