"""`python -m lab gold`: a gold set made from the sample documents, checked by `check`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunkers import ChunkOptions
from lab.inputs.gold import load_gold
from lab.measure.integrity import check_judged
from lab.measure.questions import KINDS
from lab.retrieval.bm25_variants import Bm25Retriever
from lab.retrieval.tokenize import tokenize
from tests.support import SAMPLES
from tests.support import run_cli as run


def _samples() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.md"))}


def _made(
    capsys, tmp_path: Path, *extra: str, name: str = "g.jsonl", source: Path = SAMPLES
) -> tuple[Path, str]:
    out = tmp_path / name
    code, stdout, err = run(capsys, "gold", str(source), "--out", str(out), *extra)
    assert code == 0, err
    return out, stdout


def test_every_passage_is_a_span_of_its_document_with_words_in_it(capsys, tmp_path):
    out, stdout = _made(capsys, tmp_path, "--n", "30")
    docs = _samples()
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 30
    for kind in KINDS:  # a line per kind, and the count it gives is the file's
        made = sum(1 for x in lines if x["generated"] == kind)
        assert made > 0 and f"  {kind}: {made}," in stdout
    assert len({x["doc"] for x in lines}) == len(docs)  # spread over every document
    for x in lines:
        text = docs[x["doc"]]
        for p in x["passages"]:
            assert 0 <= p["start"] < p["end"] <= len(text)
            # -- words as BM25 counts them: a Chinese sentence has no spaces
            assert len(tokenize(text[p["start"] : p["end"]])) >= 3
        if x["generated"] == "cloze":  # the asking sentence is masked out of the passage
            assert all(x["question"] not in text[p["start"] : p["end"]] for p in x["passages"])


def test_the_same_seed_gives_the_same_set_and_another_seed_another(capsys, tmp_path):
    a, _ = _made(capsys, tmp_path, "--seed", "7", name="a.jsonl")
    b, _ = _made(capsys, tmp_path, "--seed", "7", name="b.jsonl")
    c, _ = _made(capsys, tmp_path, "--seed", "8", name="c.jsonl")
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()


def test_no_chunking_changes_where_its_passages_are(capsys, tmp_path):
    out, _ = _made(capsys, tmp_path, "--n", "12")
    gold = load_gold(out)
    spans = [[(p.start, p.end) for p in q.passages] for q in gold.questions]
    docs = _samples()
    for strategy, opts in (
        ("structural", ChunkOptions()),
        ("fixed", ChunkOptions(size=40, overlap=10, unit="words")),
    ):
        (report,) = check_judged(docs, gold.questions, strategy, opts, retrievers=[Bm25Retriever()])
        assert [[(p.start, p.end) for p in r.passages] for r in report.results] == spans


def test_check_marks_a_generated_gold_set(capsys, tmp_path):
    out, _ = _made(capsys, tmp_path, "--n", "9")
    code, stdout, _ = run(capsys, "check", str(SAMPLES), "--gold", str(out), "--quiet")
    assert "GENERATED: 9 of 9 questions were made from the documents" in stdout
    code, stdout, _ = run(capsys, "check", str(SAMPLES), "--gold", str(out), "--json", "--quiet")
    data = json.loads(stdout)
    assert data["generated_questions"] == 9
    assert 0 < data["iou"] <= data["precision"] <= 1 and data["token_recall"] > 0
    written = SAMPLES / "support_kb.gold.jsonl"
    code, stdout, _ = run(capsys, "check", str(SAMPLES / "support_kb.md"), "--gold", str(written))
    assert "GENERATED" not in stdout


@pytest.mark.parametrize(
    ("make", "args", "says"),
    [
        (lambda d: d, ["--n", "0"], "--n must be a whole number of at least 1, got 0"),
        (lambda d: d, [], "no *.md or *.txt files in docs"),
        (
            lambda d: (d / "short.md").write_text("# Title\n\nToo short.\n\n```\ncode\n```\n"),
            [],
            "no sentence of at least 6 words",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, make, args, says):
    folder = tmp_path / "docs"
    folder.mkdir()
    make(folder)
    out = tmp_path / "g.jsonl"
    code, stdout, err = run(capsys, "gold", str(folder), "--out", str(out), *args)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1
    assert not out.exists()  # nothing written half


TABLE_DOC = """# Plans

Every plan is billed monthly and can be cancelled at any time without a fee.
Prices below are in euros and include value added tax for every member state.

| plan name and tier | monthly price in euros | storage included per seat |
|---|---|---|
| starter plan for small teams | nine euros per seat | twenty gigabytes of storage |
| business plan for growing teams | nineteen euros per seat | one terabyte of storage |

```python
print("this code block holds a sentence long enough to ask about, but never is")
```
"""


def test_a_table_gives_its_data_rows_never_its_header_separator_or_code(capsys, tmp_path):
    doc = tmp_path / "plans.md"
    doc.write_text(TABLE_DOC, encoding="utf-8")
    out, _ = _made(capsys, tmp_path, "--n", "30", name="plans.jsonl", source=doc)
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    texts = [TABLE_DOC[p["start"] : p["end"]] for x in lines for p in x["passages"]]
    assert any(t.startswith("| starter plan") for t in texts)  # a data row is asked about
    assert not any("---" in t or "plan name and tier" in t or "print(" in t for t in texts)
