"""Real markdown from ../shared/corpus, ../shared/corpus-more and ../shared/corpus-cjk
(and the folders CHUNK_LAB_CORPUS names): indented fences, admonitions, content tabs,
includes, code listings, a long changelog, Chinese and Japanese prose."""

from __future__ import annotations

import pytest

from chunkers import STRATEGIES, ChunkOptions, chunk
from tests.chunkers.invariants import (
    ending_breaks,
    heading_context_breaks,
    over_max_breaks,
    overlap_breaks,
    page_breaks,
    runt_breaks,
    trust_breaks,
)
from tests.support import (
    CORPORA,
    SHARED_CORPORA,
    STATIC_SITE,
    assert_spans_true,
    corpus_files,
    corpus_name,
    lost_characters,
)

pytestmark = pytest.mark.corpus
FILES = corpus_files()


def test_corpus_is_there() -> None:
    assert FILES, f"no markdown files under {', '.join(map(str, CORPORA))}"


@pytest.mark.shared_corpus
def test_the_shared_corpus_is_whole() -> None:
    assert [len(sorted(f.rglob("*.md"))) for f in SHARED_CORPORA] == [332, 120, 74]


@pytest.mark.parametrize("name", list(STRATEGIES))
@pytest.mark.parametrize("unit,size,overlap", [("chars", 1800, 150), ("words", 200, 20)])
def test_no_text_lost_on_the_corpus(name: str, unit: str, size: int, overlap: int) -> None:
    failures: list[str] = []
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        chunks = chunk(text, name, size, overlap, unit=unit)
        lost = lost_characters(text, chunks)
        if lost:
            failures.append(f"{corpus_name(path)}: {len(lost)} characters lost")
        assert_spans_true(text, chunks)
    assert failures == []


@pytest.mark.parametrize(
    "unit,size,overlap",
    [("chars", 1800, 150), ("chars", 400, 40), ("chars", 200, 20), ("words", 200, 20)],
)
def test_structural_invariants_hold_on_the_corpus(unit: str, size: int, overlap: int) -> None:
    """No chunk passes the effective maximum unless it is one unit with no inner
    seam; no chunk ends with a heading, a tab or admonition title, anchors or a
    lead-in; no overlap holds code, HTML or table text; no runt without an
    excuse; every heading above a chunk named; trust and pages as the text says."""
    opts = ChunkOptions(size=size, overlap=overlap, unit=unit)
    failures: list[str] = []
    for path in FILES:
        # "\n" line breaks: chunk offsets are then the parse's offsets
        text = path.read_text(encoding="utf-8").replace("\r\n", "\n").replace("\r", "\n")
        chunks = chunk(text, "structural", size, overlap, unit=unit)
        breaks = (
            over_max_breaks(chunks, opts)
            + ending_breaks(text, chunks, opts)
            + overlap_breaks(text, chunks)
            + runt_breaks(chunks, opts)
            + heading_context_breaks(text, chunks)
            + trust_breaks(text, chunks)
            + page_breaks(text, chunks)
        )
        failures += [f"{corpus_name(path)}: {b}" for b in breaks]
    assert failures == []


# the headings the static site's pages really have: no path may name another (a "#"
# line inside a shortcode or front matter), and front matter is under none
SITE_HEADINGS = {
    "content/en/docs/reference/feature-gates.md": {
        "Overview", "Stages of a feature", "Alpha", "Beta",
    },
    "content/en/docs/reference/_index.md": {"Command-line tools"},
    "content/en/blog/release-notes.md": {"Networking", "Removed gates"},
}  # fmt: skip


@pytest.mark.parametrize("unit,size,overlap", [("chars", 1800, 150), ("chars", 300, 30)])
def test_a_static_sites_shortcodes_and_front_matter_make_no_headings(unit, size, overlap):
    files = sorted(STATIC_SITE.rglob("*.md"))
    assert {f.relative_to(STATIC_SITE).as_posix() for f in files} == set(SITE_HEADINGS)
    for path in files:
        text = path.read_text(encoding="utf-8")
        chunks = chunk(text, "structural", size, overlap, unit=unit)
        named = {h for c in chunks for h in c.heading_path}
        assert named <= SITE_HEADINGS[path.relative_to(STATIC_SITE).as_posix()], path.name
        assert chunks[0].heading_path == ()  # it opens with front matter
        # -- a paired shortcode that fits is never cut: its opening and closing tags
        # -- share a chunk (one longer than the size is cut as code is, at its lines)
        for c in chunks if size >= 1800 else ():
            for mark in ("{{< codeFromInline", "{{% pageinfo", "{{% notice", "{{< tabpane"):
                if mark in c.body:
                    closing = mark.replace("{{< ", "{{< /").replace("{{% ", "{{% /")
                    assert closing in c.body, (path.name, mark)
