"""The command line on Chinese text: BM25 reads it, and the dense judge says once that
it cannot."""

from __future__ import annotations

import pytest

from tests.support import run_cli as run

pytestmark = pytest.mark.usefixtures("no_network")

GUIDE = """# 所有权

所有权是 Rust 最独特的功能，它让 Rust 无需垃圾回收即可保障内存安全。

# 切片

切片允许你引用集合中一段连续的元素序列，而不用引用整个集合。

# 结构体

结构体是一个自定义数据类型，允许你包装和命名多个相关的值。
"""


def test_score_on_chinese_ranks_by_bigrams_and_says_once_the_dense_judge_cannot_read(
    capsys, tmp_path
) -> None:
    doc = tmp_path / "guide.md"
    doc.write_text(GUIDE, encoding="utf-8")
    argv = ["score", str(doc), "--query", "如何保障内存安全", "--size", "60"]
    code, out, err = run(capsys, *argv, "--retriever", "bm25,dense,hybrid")
    assert code == 0 and err == ""
    lines = out.splitlines()
    notes = [ln for ln in lines if "cannot read Chinese" in ln]
    assert notes == [
        "dense (wordllama) cannot read Chinese, Japanese or Korean: its vocabulary holds "
        "single characters and bytes, not words, so its cosines here are noise; hybrid "
        "falls back to BM25."
    ]
    first = next(ln for ln in lines if ln.strip().startswith("1 "))
    assert "所有权是" in first  # BM25 ranks the answer first
    code, out, _ = run(capsys, *argv)
    assert "cannot read" not in out  # BM25 alone needs no such line


def test_check_on_the_chinese_sample_says_once_the_dense_judge_cannot_read(capsys) -> None:
    from tests.support import SAMPLES

    doc, gold = SAMPLES / "rust_variables_zh.md", SAMPLES / "rust_variables_zh.gold.jsonl"
    argv = ["check", str(doc), "--gold", str(gold), "--size", "200"]
    code, out, err = run(capsys, *argv, "--retriever", "bm25,dense,hybrid")
    assert err == "" and out.count("cannot read Chinese") == 1
    code, out, _ = run(capsys, *argv, "--retriever", "bm25,dense,hybrid", "--json")
    import json

    notes = [r["note"] for r in json.loads(out)["retrievers"]]
    assert notes[0] == "" and notes[1].startswith("dense (wordllama)") and notes[2] == notes[1]
    by = {r["retriever"]: r for r in json.loads(out)["retrievers"]}
    hybrid = next(r for label, r in by.items() if label.startswith("hybrid"))
    assert hybrid["recall"] == by["bm25 (lucene)"]["recall"]  # it ranked as BM25 does
