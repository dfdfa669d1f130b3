"""The structural chunker against a reference CommonMark parser (markdown-it-py,
with the GFM table, front-matter and footnote rules a documentation site uses),
on CommonMark's own examples and on real markdown:

- nothing is lost;
- every top-level heading the reference sees is a heading to the chunker, and
  nothing else is;
- no chunk boundary falls inside a block the reference reports, unless that
  block alone is longer than a chunk, and then only at its own seams (rows,
  items, lines, sentences and words all end at a line break or a space);
- and on CommonMark's examples, the packing properties (invariants.py): nothing
  over the effective maximum but one unit, no chunk ending with what travels
  with the text after it, no code, HTML or table text in an overlap.
"""

from __future__ import annotations

import functools
import json
import re
from bisect import bisect_right

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from chunkers import ChunkOptions, chunk
from chunkers.scripts import is_seam
from chunkers.structural.blocks import TITLES, parse
from tests.chunkers.invariants import ending_breaks, over_max_breaks, overlap_breaks
from tests.support import (
    COMMONMARK_SPEC,
    STATIC_SITE,
    corpus_files,
    corpus_name,
    lost_characters,
)

# -- Only the block structure is compared, and CommonMark settles it before any
# -- inline parsing: the reference skips the inline pass (most of its time).
REFERENCE = (
    MarkdownIt("commonmark")
    .enable("table")
    .use(front_matter_plugin)
    .use(footnote_plugin)
    .disable("inline")
)
SIZES = [ChunkOptions(1800, 150), ChunkOptions(200, 20)]
CORPUS_SIZES = SIZES
_NEWLINE = re.compile("\n")


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in _NEWLINE.finditer(text)]


@functools.cache  # every size asks about the same texts
def reference_blocks(text: str) -> tuple[set[int], list[tuple[int, int]]]:
    """(the lines of top-level headings, the character span of every top-level block)."""
    starts = _line_starts(text) + [len(text)]
    headings: set[int] = set()
    spans: list[tuple[int, int]] = []
    for t in REFERENCE.parse(text):
        if t.level != 0 or t.map is None or t.nesting == -1:
            continue
        if t.type == "heading_open":
            headings.add(t.map[0])
        s, e = starts[t.map[0]], starts[min(t.map[1], len(starts) - 1)]
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            spans.append((s, e))
    return headings, spans


def chunker_headings(text: str, blocks: list) -> set[int]:
    starts = _line_starts(text)
    return {bisect_right(starts, b.start) - 1 for b in blocks if b.kind == "heading"}


def _at_seam(text: str, i: int, size: int) -> bool:
    """A cut at i is at a line break or a space (rows, items, lines, sentences, words
    all end at one), or between two words of CJK text (an ideograph is a word) or
    after its sentence end or clause mark; mid-word only inside a word longer than a
    chunk."""
    if is_seam(text, i):
        return True
    word_start = max(text.rfind(" ", 0, i), text.rfind("\n", 0, i)) + 1
    return i - word_start >= size


def _may_cut(
    chunks: list, blocks: list, leads: frozenset[int], bs: int, be: int, opts: ChunkOptions
) -> bool:
    """A block may be cut (at its seams) when it does not fit a fresh chunk (it
    passes the size: the runt merge then merges a shed runt back, up to the
    effective maximum), or when it is the first text after what travels with it
    (headings, titles, anchors, lead-ins, or the last piece of a lead-in too long
    for a chunk) and the two together pass the effective maximum: the block's
    first piece fills the room beside them."""
    # (an mkdocs admonition holds what CommonMark reads as paragraphs or indented
    # code: it is the admonition that must fit)
    outer = next((b for b in blocks if b.start <= bs and be <= b.end), None)
    if outer is not None:
        bs, be = outer.start, outer.end
    if be - bs > opts.size:
        return True
    holder = next((c for c in chunks if c.start <= bs < c.end), None)
    if holder is None or holder.start == bs or be - holder.start <= opts.effective_max:
        return False
    before = [i for i, b in enumerate(blocks) if b.end > holder.start and b.start < bs]
    # (packing starts afresh at a heading: what lies before it came with a runt merge)
    heads = [k for k, i in enumerate(before) if blocks[i].kind == "heading"]
    before = before[heads[-1] :] if heads else before
    return bool(before) and all(blocks[i].kind in TITLES or i in leads for i in before)


def violations(text: str, opts: ChunkOptions) -> list[str]:
    chunks = chunk(text, "structural", opts.size, opts.overlap)
    out = [f"lost {i}" for i in lost_characters(text, chunks)]
    headings, reference = reference_blocks(text)
    doc = parse(text)  # the chunker's own blocks, parsed once per text
    blocks = doc.blocks
    if chunker_headings(text, blocks) != headings:
        out.append(f"headings {sorted(chunker_headings(text, blocks))} != {sorted(headings)}")
    cuts = sorted({c.start for c in chunks} | {c.end for c in chunks})
    for bs, be in reference:
        inside = [i for i in cuts[bisect_right(cuts, bs) :] if i < be]
        if not inside:
            continue
        if not _may_cut(chunks, blocks, doc.leads, bs, be, opts):  # a block that fits is never cut
            out.append(f"cut inside the block {text[bs:be][:60]!r} at {inside}")
        else:
            out += [
                f"cut at no seam: {text[max(0, i - 20) : i + 20]!r}"
                for i in inside
                if not _at_seam(text, i, opts.size)
            ]
    return out


def _spec_examples() -> list[dict]:
    if not COMMONMARK_SPEC.exists():
        return []
    return json.loads(COMMONMARK_SPEC.read_text(encoding="utf-8"))


@pytest.mark.commonmark
@pytest.mark.parametrize("opts", SIZES + [ChunkOptions(20, 0)], ids=str)
def test_every_commonmark_example_keeps_its_blocks(opts: ChunkOptions) -> None:
    examples = _spec_examples()
    assert len(examples) == 655
    bad = {}
    for ex in examples:
        found = violations(ex["markdown"], opts)
        if found:
            bad[ex["example"]] = found
    assert bad == {}


@pytest.mark.corpus
@pytest.mark.parametrize("opts", CORPUS_SIZES, ids=str)
def test_every_corpus_file_keeps_its_blocks(opts: ChunkOptions) -> None:
    bad = {}
    # (not the static site: its shortcodes and front matter depart from CommonMark on
    # purpose; test_corpus.py holds its properties)
    for path in (f for f in corpus_files() if not f.is_relative_to(STATIC_SITE)):
        found = violations(path.read_text(encoding="utf-8"), opts)
        if found:
            bad[corpus_name(path)] = found[:3]
    assert bad == {}


@pytest.mark.commonmark
@pytest.mark.parametrize("opts", SIZES + [ChunkOptions(20, 0)], ids=str)
def test_the_packing_properties_hold_on_every_commonmark_example(opts: ChunkOptions) -> None:
    """No chunk passes the effective maximum unless it is one unit with no inner
    seam, none ends with what travels with the text after it, no overlap holds
    code, HTML or table text, nothing is lost."""
    examples = _spec_examples()
    assert len(examples) == 655
    bad = {}
    for ex in examples:
        text = ex["markdown"]
        chunks = chunk(text, "structural", opts.size, opts.overlap)
        found = (
            over_max_breaks(chunks, opts)
            + ending_breaks(text, chunks, opts)
            + overlap_breaks(text, chunks)
            + [f"lost {i}" for i in lost_characters(text, chunks)]
        )
        if found:
            bad[ex["example"]] = found
    assert bad == {}
