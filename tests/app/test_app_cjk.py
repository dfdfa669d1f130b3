"""Chinese and Japanese in the app: the samples in the document list, Lab 4's tokenizer
lesson, and Lab 11's dense judge saying once that it cannot read Chinese."""

from __future__ import annotations

import pytest

from tests.app.app_harness import all_text, dataframes, open_app, open_lab

pytestmark = pytest.mark.usefixtures("no_network")


def test_the_chinese_and_japanese_samples_are_in_the_document_list():
    at = open_app()
    [doc] = [s for s in at.selectbox if s.label == "Document"]
    assert {"rust_variables_zh.md", "rust_variables_ja.md"} <= set(doc.options)


def test_lab4_ranks_the_same_questions_with_three_tokenizers():
    at = open_lab("runts")
    text = all_text(at)
    assert "The tokenizer decides what BM25 can find" in text
    assert "Of 7 questions over the same" in text and "with character bigrams" in text
    [table] = [d for d in dataframes(at) if "rank: character bigrams" in d.columns]
    assert len(table) == 7
    assert "rank: words between spaces" in table.columns
    assert "rank: model tokens (cl100k_base)" in table.columns
    assert "#1" in set(table["rank: character bigrams"])


def test_lab11_on_the_chinese_sample_says_the_dense_judge_cannot_read_it():
    at = open_lab("judges", doc="rust_variables_zh", q="0")
    warnings = [w.value for w in at.warning]
    lines = [w for w in warnings if "cannot read Chinese" in w]
    assert len(lines) == 1 and lines[0].startswith("dense (wordllama) cannot read")
    # -- on an English sample, no such line
    at = open_lab("judges", doc="support_kb", q="0")
    assert not [w.value for w in at.warning if "cannot read" in w.value]


def test_lab6_judged_by_the_hybrid_on_the_chinese_sample_says_it_fell_back_once():
    from tests.app.app_harness import set_widget

    at = open_lab("integrity", doc="rust_variables_zh", q="0")
    assert not [w for w in at.warning if "cannot read" in w.value]  # BM25 reads it
    set_widget(at, "radio", "lab6_retriever", "hybrid")
    lines = [w.value for w in at.warning if "cannot read Chinese" in w.value]
    assert len(lines) == 1 and lines[0].endswith("hybrid falls back to BM25.")


def test_lab9_ranked_by_the_dense_judge_on_the_chinese_sample_says_so_once():
    from tests.app.app_harness import set_widget

    at = open_lab("small-to-big", doc="rust_variables_zh", q="0")
    assert not [w for w in at.warning if "cannot read" in w.value]  # BM25 reads it
    set_widget(at, "radio", "lab9_retriever", "dense")
    lines = [w.value for w in at.warning if "cannot read Chinese" in w.value]
    assert len(lines) == 1
