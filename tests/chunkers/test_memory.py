"""Chunking frees what it builds as soon as the caller drops the chunks.

Reference counting frees an object the moment its last reference goes; a
reference cycle among the chunker's working objects would keep a whole parse
(the text, every block, the sentence cache) alive until the cyclic collector
next ran, and make that collector walk it. The splitter once held such a
cycle (its split levels were closures over itself).
"""

from __future__ import annotations

import gc

import pytest

from chunkers import STRATEGIES, chunk
from tests.support import SAMPLES

# every split level: a prose paragraph, a list, a code block and a table, each
# bigger than a chunk, under headings, with CRLF line endings
DOCUMENT = "\r\n".join(
    [
        "# Oversized blocks",
        "",
        " ".join(f"Sentence number {i} of a long paragraph." for i in range(120)),
        "",
        "\r\n".join(f"- item {i} with some words in it" for i in range(80)),
        "",
        "```",
        "\r\n".join(f"line_{i} = {i}" for i in range(150)),
        "```",
        "",
        "## A table",
        "",
        "| region | revenue |",
        "|---|---|",
        "\r\n".join(f"| region {i} | {i * 100} |" for i in range(200)),
    ]
)


@pytest.mark.parametrize("strategy", list(STRATEGIES))
@pytest.mark.parametrize("unit,size", [("chars", 300), ("words", 40)])
def test_chunking_leaves_no_reference_cycles(strategy: str, unit: str, size: int) -> None:
    texts = [DOCUMENT] + [p.read_text("utf-8") for p in sorted(SAMPLES.glob("*.md"))]
    chunk(DOCUMENT, strategy, size, size // 8, unit=unit)  # imports and one-time caches first
    gc.collect()
    gc.disable()
    try:
        for text in texts:
            assert chunk(text, strategy, size, size // 8, unit=unit)
        unreachable = gc.collect()  # objects only a cycle kept alive
    finally:
        gc.enable()
    assert unreachable == 0
