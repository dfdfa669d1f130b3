"""Every strategy's chunks know their pages: the page of the first character and
of the last, from the document's page marks (a converted PDF's ``## Page N``)."""

from __future__ import annotations

import json

import pytest

from chunkers import ChunkOptions, chunk_with
from chunkers.pages import page_at, page_marks
from chunkers.registry import OFFERED
from lab.inputs.documents import read_document
from lab.inputs.exports import chunking_config, export_chunks
from tests import doc_builders as build

OPTIONS = ChunkOptions(size=60, overlap=10)


@pytest.fixture(scope="module")
def manual() -> str:
    return read_document(build.three_page_pdf(), name="manual.pdf").text


def _expected(text: str, start: int, end: int) -> tuple[int | None, int | None]:
    starts = [text.index(f"## Page {n}\n") for n in (1, 2, 3)]
    first = sum(s <= start for s in starts)
    last = sum(s <= end - 1 for s in starts)
    return first, last


@pytest.mark.parametrize("strategy", list(OFFERED))
def test_every_chunk_of_every_strategy_has_its_first_and_last_page(strategy, manual) -> None:
    if strategy.startswith("chonkie"):
        pytest.importorskip("chonkie")
    chunks = chunk_with(manual, strategy, OPTIONS)
    assert chunks
    for c in chunks:
        assert (c.page, c.last_page) == _expected(manual, c.start, c.end), c.body
    assert {c.page for c in chunks} == {1, 2, 3}


def test_a_chunk_spanning_pages_says_first_and_last_in_every_export(manual) -> None:
    options = ChunkOptions(size=200, overlap=0)
    chunks = chunk_with(manual, "fixed", options)
    spanning = [c for c in chunks if c.last_page != c.page]
    assert spanning and all(c.last_page == c.page + 1 for c in spanning)
    config = chunking_config("manual.pdf", manual, "fixed", options)
    parts = [("manual.pdf", chunks, config)]
    lines = export_chunks("langchain", parts, options).splitlines()
    meta = [json.loads(line)["metadata"] for line in lines]
    assert [(m["page"], m["last_page"]) for m in meta] == [(c.page, c.last_page) for c in chunks]
    nodes = [json.loads(line) for line in export_chunks("llamaindex", parts, options).splitlines()]
    assert [n["metadata"]["last_page"] for n in nodes] == [c.last_page for c in chunks]
    rows = [
        json.loads(line)["chunk"] for line in export_chunks("jsonl", parts, options).splitlines()
    ]
    assert [(r["page"], r["last_page"]) for r in rows] == [(c.page, c.last_page) for c in chunks]
    csv = export_chunks("csv", parts, options)
    assert csv.count("\n") > len(chunks) and all(str(c.last_page) in csv for c in spanning)


def test_text_without_page_marks_has_no_pages() -> None:
    chunks = chunk_with("# Guide\n\nPrime the pump. " * 20, "fixed", OPTIONS)
    assert {(c.page, c.last_page) for c in chunks} == {(None, None)}


def test_the_page_of_an_offset_is_the_last_mark_at_or_before_it() -> None:
    text = "intro\n## Page 1\n\none\n\n# Page 2\n\ntwo\n```\n"
    marks = page_marks(text)
    assert [page_at(marks, i) for i in (0, text.index("##"), text.index("one"))] == [None, 1, 1]
    assert page_at(marks, text.index("two")) == 2


def test_the_apps_cards_show_the_pages_of_a_fixed_size_chunk(manual) -> None:
    from ui.present.chunkview import cards_html, chunk_cards

    options = ChunkOptions(size=200, overlap=0)
    chunks = chunk_with(manual, "fixed", options)
    shown = cards_html(chunk_cards(chunks, None, options))
    assert "page —" not in shown
    assert "pages 1–2" in shown and "page 3" in shown
