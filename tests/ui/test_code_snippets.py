"""Copy as code: each snippet, run as written, makes the chunks the lab makes."""

from __future__ import annotations

import pytest

from chunkers import chunk
from tests.support import SAMPLES, block_network, reference_encoding
from ui.present.code_snippets import snippets

TEXT = (SAMPLES / "release_handbook.md").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    block_network(monkeypatch, "the code snippets' tests")


def run(code: str) -> dict:
    scope = {"text": TEXT}
    body = "\n".join(ln for ln in code.splitlines() if not ln.startswith("text = open("))
    exec(body.replace("print(", "(lambda *a: None)("), scope)  # noqa: S102
    return scope


@pytest.mark.parametrize(
    "strategy", ["structural", "fixed", "sentence", "recursive", "semchunk", "chonkie-token"]
)
@pytest.mark.parametrize("unit", ["chars", "cl100k_base tokens", "o200k_base tokens"])
def test_this_librarys_snippet_makes_the_same_chunks(strategy, unit):
    [ours, *_] = snippets(strategy, unit, 300, 40, "release_handbook.md")
    assert ours.title == "With this library"
    base = "tokens" if unit.endswith("tokens") else unit
    tokenizer = unit.split()[0] if base == "tokens" else "cl100k_base"
    expected = chunk(TEXT, strategy, 300, 40, unit=base, tokenizer=tokenizer)
    assert run(ours.code)["chunks"] == expected


PEERS_OWN = {
    "recursive": lambda s: [d.page_content for d in s["docs"]],
    "semchunk": lambda s: s["chunks"],
    "chonkie-token": lambda s: [c.text for c in s["chunks"]],
    "chonkie-recursive": lambda s: [c.text for c in s["chunks"] if c.text.strip()],
}
UNITS = ["chars", "words", "cl100k_base tokens", "o200k_base tokens"]


# -- why chars only for Chonkie -- Chonkie counts words at spaces and loads tiktoken's
# -- tables itself, so its own API is compared with ours in characters
@pytest.mark.parametrize(
    "strategy, made, unit",
    [
        (name, made, unit)
        for name, made in PEERS_OWN.items()
        for unit in UNITS
        if not name.startswith("chonkie") or unit == "chars"
    ],
)
def test_the_peers_own_api_makes_the_same_chunks(strategy, made, unit):
    for name in ("cl100k_base", "o200k_base"):
        reference_encoding(name)  # tiktoken keeps them: the snippets find them offline
    overlap = 0 if strategy == "chonkie-recursive" else 40
    [_, theirs] = snippets(strategy, unit, 300, overlap, "release_handbook.md")
    base = "tokens" if unit.endswith("tokens") else unit
    tokenizer = unit.split()[0] if base == "tokens" else "cl100k_base"
    ours = chunk(TEXT, strategy, 300, overlap, unit=base, tokenizer=tokenizer)
    assert made(run(theirs.code)) == [c.retrievable_text for c in ours]


def test_your_chunks_are_imported_not_chunked():
    [snippet] = snippets("chunks:0123abcd", "chars", 300, 40, "release_handbook.md")
    assert "import_chunks(" in snippet.code and "chunk(" not in snippet.code.replace("_chunks(", "")


@pytest.mark.parametrize("strategy", ["recursive", "semchunk"])
def test_the_peers_own_api_counts_chinese_words_as_the_lab_does(strategy):
    # -- whitespace splitting sees a Chinese paragraph as one word; the snippet's
    # -- counter is the words unit's own, so the peer cuts where the lab does
    zh = (SAMPLES / "rust_variables_zh.md").read_text(encoding="utf-8")
    [_, theirs] = snippets(strategy, "words", 60, 10, "rust_variables_zh.md")
    scope = {"text": zh}
    body = "\n".join(ln for ln in theirs.code.splitlines() if not ln.startswith("text = open("))
    exec(body.replace("print(", "(lambda *a: None)("), scope)  # noqa: S102
    ours = chunk(zh, strategy, 60, 10, unit="words")
    assert len(ours) > 5 and PEERS_OWN[strategy](scope) == [c.retrievable_text for c in ours]
