"""The fast block parser agrees with a CommonMark parser (markdown-it-py) on
real markdown, so speed never buys wrong structure."""

from __future__ import annotations

from bisect import bisect_right

import pytest
from markdown_it import MarkdownIt

from chunkers.structural.blocks import parse
from tests.support import SAMPLES, STATIC_SITE, corpus_files

# the sample documents always; the corpus where it is there (test_corpus.py says when not);
# not the static site, whose shortcodes and front matter depart from CommonMark on purpose
FILES = [f for f in corpus_files() if not f.is_relative_to(STATIC_SITE)] + sorted(
    SAMPLES.glob("*.md")
)
MD = MarkdownIt("commonmark").enable("table")


def _structure(text: str):
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def line(offset: int) -> int:
        return bisect_right(starts, offset) - 1

    doc = parse(text)
    mine = {
        kind: [(line(b.start), line(b.end)) for b in doc.blocks if b.kind == kind]
        for kind in ("heading", "code", "list", "admonition")
    }
    # blocks that may hold a fence: code, and the containers (a fence in a list
    # item, a quote, an admonition's body or a footnote belongs to that block)
    mine["holds code"] = [
        (line(b.start), line(b.end))
        for b in doc.blocks
        if b.kind in ("code", "list", "quote", "admonition", "footnote")
    ]
    # GFM tables only: linearised rows are a table to us and prose to CommonMark
    mine["table"] = [(line(b.start), line(b.end)) for b in doc.blocks if b.header is not None]
    tokens = MD.parse(text)
    theirs = {
        "heading": {
            t.map[0]
            for t in tokens
            if t.type == "heading_open" and t.markup.startswith("#") and t.level == 0
        },
        "fence": [(t.map[0], t.map[1] - 1) for t in tokens if t.type == "fence"],
        # mkdocs writes fences indented under tabs and admonitions, which CommonMark
        # reads as indented code: code either way
        "indented": [(t.map[0], t.map[1] - 1) for t in tokens if t.type == "code_block"],
        "table": [(t.map[0], t.map[1] - 1) for t in tokens if t.type == "table_open"],
        # the engine also reads a separator with a gap in a cell ("--- ---") as a table
        "paragraph": [(t.map[0], t.map[1] - 1) for t in tokens if t.type == "paragraph_open"],
        "list": [
            t.map[0]
            for t in tokens
            if t.type in ("bullet_list_open", "ordered_list_open") and t.level == 0
        ],
    }
    return mine, theirs


def _inside(span, spans) -> bool:
    return any(s <= span[0] and span[1] <= e for s, e in spans)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_block_classification_matches_commonmark(path) -> None:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    mine, theirs = _structure(text)
    assert {s for s, _ in mine["heading"]} == theirs["heading"]
    # every fence CommonMark sees is inside one of our code blocks, and every code
    # block of ours starts where CommonMark starts a fence
    assert [f for f in theirs["fence"] if not _inside(f, mine["holds code"])] == []
    fence_starts = {s for s, _ in theirs["fence"]}
    # (an indented fence right under "???+ example" is a paragraph continuation to
    # CommonMark and code to mkdocs: we side with mkdocs)
    assert [
        c
        for c in mine["code"]
        if c[0] not in fence_starts
        and not _inside(c, theirs["indented"])
        and not lines[c[0]].startswith("    ")
    ] == []
    # tables: each CommonMark table is inside one of ours, and ours overlap one of theirs
    assert [t for t in theirs["table"] if not _inside(t, mine["table"])] == []
    # (HTML tables are tables to us and HTML blocks to CommonMark; the engine also
    # reads a separator with a gap in a cell, "--- ---", as a table; a table in a
    # content tab's body is indented code to CommonMark)
    assert [
        t
        for t in mine["table"]
        if not lines[t[0]].lstrip().startswith("<")
        and not _inside(t, theirs["indented"])
        and not any(ts <= t[1] and t[0] <= te for ts, te in theirs["table"] + theirs["paragraph"])
    ] == []
    # every top-level list starts one of our list blocks
    # (YAML front matter is not a list, whatever CommonMark makes of "  - navigation")
    front = lines.index("---", 1) if lines and lines[0] == "---" and "---" in lines[1:] else -1
    list_starts = {s for s, _ in mine["list"]}
    # (a list in an admonition's body belongs to the admonition)
    assert [
        s
        for s in theirs["list"]
        if s not in list_starts and s > front and not _inside((s, s), mine["admonition"])
    ] == []
