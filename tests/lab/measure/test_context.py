"""What context in the index buys: top-20 failures with and without heading paths, on a
fixture where the question's words are in the headings only."""

from __future__ import annotations

import pytest

from chunkers import ChunkOptions, chunk_with, indexed_text
from lab.inputs.gold import GoldQuestion
from lab.measure.context import NONE, PATH, TITLE_PATH, context_text, context_texts, titles
from lab.measure.integrity import check_judged
from lab.retrieval.bm25_variants import Bm25Retriever
from lab.retrieval.tokenize import tokenize

WORDS = [f"topic{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(30)]
# thirty sections, each an overview and a reference; the references read alike but
# for their codes, so only the heading above one tells a question which it wants
DOC = "\n\n".join(
    f"## Section {w}\n\n### Overview\n\nGeneral notes sit here.\n\n"
    f"### Reference\n\nThe reference code is R{i}X."
    for i, w in enumerate(WORDS)
)
QUESTIONS = [GoldQuestion(f"reference code for {w}", f"R{i}X") for i, w in enumerate(WORDS)]
OPTS = ChunkOptions(size=8, overlap=0, unit="words")


def _report(context: str, docs: dict[str, str] | None = None):
    return check_judged(
        docs or {"handbook.md": DOC},
        [GoldQuestion(q.question, q.answer, doc="handbook.md") for q in QUESTIONS],
        "structural",
        OPTS,
        retrievers=[Bm25Retriever()],
        k=10,
        context=context,
    )[0]


def test_failure_at_20_without_and_with_heading_paths():
    # with no context the question's topic word is only in its section's overview
    # (ranked first, not the answer); every reference scores alike and ties rank in
    # chunk order: question i's answer ranks i + 2, so the last eleven miss the top 20
    report = _report(NONE)
    assert [r.rank for r in report.results] == list(range(2, 32))
    assert report.failure_at_20 == pytest.approx(11 / 30)
    # with its heading path in the index, each question's section ranks first
    with_path = _report(PATH)
    assert with_path.failure_at_20 == 0.0
    assert with_path.recall_at(1) == 1.0


def test_title_plus_path_names_the_file_when_the_document_has_no_title():
    report = _report(TITLE_PATH)
    assert report.titles is not None
    assert report.titles.by_document == {"handbook.md": "handbook"}
    note = report.titles.note()
    assert note is not None and "\n" not in note and "'handbook'" in note
    assert note.count("handbook.md") == 1


def test_the_title_is_the_first_top_level_heading_and_is_indexed_once():
    doc = "# Depot manual\n\nIntro text here.\n\n## Counts\n\nCounted weekly.\n"
    named = titles({"d.md": doc})
    assert named.by_document == {"d.md": "Depot manual"} and named.note() is None
    chunks = chunk_with(doc, "structural", ChunkOptions(size=5, overlap=0, unit="words"))
    texts = [context_text(c, TITLE_PATH, "Depot manual") for c in chunks]
    # the path opens with the title already: nothing is added
    assert texts == [context_text(c, PATH) for c in chunks]
    # none: the chunk's own text (the heading lines its body holds stay)
    assert [context_text(c, NONE) for c in chunks] == [c.retrievable_text for c in chunks]


def test_the_indexed_texts_and_their_tokens_are_the_indexs():
    # path is what the lab indexes by default; tokens made from the parts are the text's
    chunks = chunk_with(DOC, "structural", OPTS)
    for mode in (NONE, PATH, TITLE_PATH):
        made, _ = context_texts({"handbook.md": DOC}, {"handbook.md": chunks}, mode)
        assert list(made.tokens()) == [tokenize(t) for t in made.texts]
        if mode == PATH:
            assert made.texts == [indexed_text(c) for c in chunks]
