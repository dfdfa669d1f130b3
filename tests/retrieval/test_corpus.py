"""Each judge over a whole index (what `lab check` asks) ranks as the judge itself does."""

from __future__ import annotations

import pytest

from chunkers import chunk, indexed_text
from lab.retrieval.corpus import corpus_index
from lab.retrieval.retrievers import get_retriever
from tests.support import SAMPLES

TOY = "tests.retrieval.toy_embedder:embed"
QUESTIONS = ["how long are audit logs kept?", "what does the API rate limit allow", "FY24"]


@pytest.fixture(scope="module")
def chunks():
    text = (SAMPLES / "platform_data.md").read_text(encoding="utf-8")
    text += "\n\n" + (SAMPLES / "api_reference.md").read_text(encoding="utf-8")
    return chunk(text, "structural", 400, 50)


@pytest.mark.parametrize(
    "name,settings",
    [
        ("bm25", {"variant": "lucene"}),
        ("bm25", {"variant": "okapi"}),
        ("bm25", {"variant": "fts5"}),
        ("dense", {"embedder": TOY}),
        ("dense", {}),
        ("hybrid", {"embedder": TOY, "variant": "okapi"}),
    ],
)
def test_the_corpus_index_ranks_as_the_retriever(chunks, name, settings):
    retriever = get_retriever(name, **settings)
    index = corpus_index(retriever, chunks)
    assert index.label == retriever.label
    index.prepare(QUESTIONS)
    texts = [indexed_text(c) for c in chunks]
    for q in QUESTIONS:
        want = retriever.score(texts, q)
        got = index.scores(q)
        assert got.scores.tolist() == pytest.approx(list(want.scores), rel=1e-6)
        assert got.ranks().tolist() == list(want.ranks), q


def test_a_wordless_question_is_refused_by_every_judge(chunks):
    for name in ("bm25", "dense", "hybrid"):
        index = corpus_index(get_retriever(name, embedder=TOY), chunks)
        with pytest.raises(ValueError, match="no searchable words"):
            index.scores("?!")
