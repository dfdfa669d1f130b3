"""Lab 12, routing: the mixed folder's types, the same questions under one strategy and
routed by type, and one type's chunker switched (only its row moves)."""

from __future__ import annotations

import pytest

from chunkers import ChunkOptions
from lab.inputs.doctypes import document_types
from lab.inputs.mixed import mixed_folder
from lab.measure.by_type import routing_comparison
from lab.retrieval.bm25_variants import Bm25Retriever
from tests.app.app_harness import all_text, click, dataframes, open_app, open_lab, set_widget

pytestmark = pytest.mark.usefixtures("no_network")


def example():
    return click(open_lab("routing"), "preset_routing")


def by_type(at):
    [table] = [d for d in dataframes(at) if "moved" in d.columns]
    return table


def test_the_lab_comes_last_and_keeps_the_others_numbers():
    at = open_app(lab="12")
    assert at.title[0].value == "12. Routing"
    assert at.query_params["lab"] == "routing"
    assert open_app(lab="11").title[0].value == "11. Two judges"


def test_the_types_and_the_per_type_table_are_the_lab_s_figures():
    at = example()
    text = all_text(at)
    types = at.table[0].value  # the folder's documents, their types and evidence
    found = dict(zip(types["document"], types["type"], strict=True))
    for doc, doc_type in (
        ("library_faq.md", "faq"),
        ("council_transcript.md", "transcript"),
        ("software_licence.md", "contract"),
        ("api_reference.md", "api"),
    ):
        assert found[doc] == doc_type
    table = by_type(at)
    assert list(table["type"]) == ["faq", "api", "transcript", "contract", "prose", "all"]
    docs, questions = mixed_folder()
    want = routing_comparison(
        docs,
        questions,
        document_types(docs),
        "structural",
        ChunkOptions(size=600, overlap=0),
        Bm25Retriever(),
        1,
        {"transcript": "sentence"},
    )
    assert list(table["routed recall@1"]) == [f"{f['b_recall@1']:.0%}" for f in want.values()]
    assert "Routed against structural on all 38 questions" in text


def test_switching_one_type_moves_only_its_row():
    at = example()
    set_widget(at, "selectbox", "lab12_type", "faq")
    set_widget(at, "selectbox", "lab12_to", "fixed")
    table = by_type(at)
    moved = dict(zip(table["type"], table["moved"], strict=True))
    assert moved["faq"] == "moved"
    assert all(moved[t] == "" for t in ("api", "contract", "prose"))
