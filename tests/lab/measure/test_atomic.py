"""Atomic-element violations: each rule with an example that breaks it and one that does not."""

from __future__ import annotations

from itertools import pairwise

import pytest

from chunkers import Chunk, chunk
from lab.measure.atomic import (
    CODE,
    ENDS_WITH_TITLE,
    HEADING,
    LEADIN,
    MARKUP,
    ONLY_MARKUP,
    OVERSIZE,
    PASSES_SIZE,
    SENTENCE,
    TABLE,
    elements,
    findings,
    violations,
)


def cut(text: str, *at: int, header: str = "") -> list[Chunk]:
    """Chunks that tile ``text``, cut at the given offsets (a caller's own chunking).
    ``header``: the chunks after the first begin with this repeated table header."""
    bounds = [0, *at, len(text)]
    out = []
    for i, (s, e) in enumerate(pairwise(bounds)):
        repeat = header if i and header else ""
        body = repeat + text[s:e]
        out.append(Chunk(i, body, s, e, len(body), header_repeated=bool(repeat)))
    return out


def counts(text: str, chunks: list[Chunk], kind: str) -> tuple[int, int]:
    c = violations("doc", chunks, elements(text)).counts[kind]
    return c.violations, c.out_of


def at(doc: str, *marks: str) -> list[Chunk]:
    """``doc`` cut where each of ``marks`` first occurs."""
    return cut(doc, *(doc.index(m) for m in marks))


TABLE_DOC = "# Prices\n\n| size | price |\n|---|---|\n| small | 4 |\n| large | 9 |\n\nThe end.\n"
HEADER = "| size | price |\n|---|---|\n"
CODE_DOC = "Run this:\n\n```python\nx = 1\n\ny = 2\n```\n\nThen stop.\n"
HEADING_DOC = "Intro paragraph here.\n\n## Setup\n\nInstall the tool first.\n"
SENTENCE_DOC = "The first sentence is here. The second one follows it.\n\n- one item\n- two items\n"
LIST_DOC = "- a long item that wraps\n  onto the next line\n- a second item\n"
LEAD_DOC = "Intro paragraph here.\n\nRun the server with:\n\n```\nuvicorn main:app\n```\n"
PROSE_CRLF = "Line one.\r\n\r\nLine two.\r\n\r\nFirst one is here. Second one is here.\r\n"


def crlf(doc: str) -> str:
    return doc.replace("\n", "\r\n")


# -- each rule with examples that break it and that keep it: the document, where it
# -- is cut (before the first occurrence of each mark), and (violations, elements
# -- of that kind); CRLF ones, because offsets are those of the text as given
RULES = {
    TABLE: {
        "a fragment without its header": (TABLE_DOC, ["| large"], (1, 2)),
        "a whole table": (TABLE_DOC, [], (0, 1)),
        "a fragment holding only half the header": (TABLE_DOC, ["|---"], (1, 1)),
        "CRLF: a fragment without its header": (crlf(TABLE_DOC), ["| large"], (1, 2)),
    },
    CODE: {
        "a boundary inside the block": (CODE_DOC, ["y = 2"], (1, 1)),
        "a boundary at the blank line inside the fence": (CODE_DOC, ["\n\ny"], (1, 1)),
        "boundaries around the block": (CODE_DOC, ["```python", "\n\nThen"], (0, 1)),
    },
    HEADING: {
        "a chunk that ends with it strands it": (HEADING_DOC, ["Install"], (1, 1)),
        "a boundary inside its line": (HEADING_DOC, ["up"], (1, 1)),
        "one that opens its chunk": (HEADING_DOC, ["## Setup"], (0, 1)),
        "one at the very end": ("Intro paragraph here.\n\n## Appendix\n", [], (0, 0)),
        "CRLF: stranded": (crlf(HEADING_DOC), ["Install"], (1, 1)),
        "CRLF: opening its chunk": (crlf(HEADING_DOC), ["## Setup"], (0, 1)),
    },
    SENTENCE: {
        "a boundary inside a sentence": (SENTENCE_DOC, ["sentence is"], (1, 4)),
        "a boundary inside a list line": (SENTENCE_DOC, ["item"], (1, 4)),
        "between sentences and list lines": (SENTENCE_DOC, [" The second", "- two"], (0, 4)),
        "a list cut between items": (LIST_DOC, ["- a second"], (0, 2)),
        "a list cut inside a wrapped item": (LIST_DOC, ["onto"], (1, 2)),
        "CRLF: between sentences": (PROSE_CRLF, [" Second"], (0, 4)),
        "CRLF: inside a sentence": (PROSE_CRLF, ["one is here."], (1, 4)),
    },
    LEADIN: {
        "a chunk that ends with it strands it": (LEAD_DOC, ["```"], (1, 1)),
        "one that opens its chunk": (LEAD_DOC, ["Run"], (0, 1)),
    },
}
CASES = {
    f"{kind}: {name}": (doc, marks, kind, expected)
    for kind, cases in RULES.items()
    for name, (doc, marks, expected) in cases.items()
}


@pytest.mark.parametrize(("doc", "marks", "kind", "expected"), CASES.values(), ids=list(CASES))
def test_each_rule_broken_and_kept(doc: str, marks: list[str], kind: str, expected) -> None:
    assert counts(doc, at(doc, *marks), kind) == expected


def test_the_violation_names_the_chunk_that_breaks_the_rule() -> None:
    v = violations("doc", at(TABLE_DOC, "| large"), elements(TABLE_DOC))
    assert v.by_chunk == {("doc", 1): (TABLE,)}


def test_a_fragment_that_repeats_its_header_is_not_a_violation() -> None:
    second_row = TABLE_DOC.index("| large")
    assert counts(TABLE_DOC, cut(TABLE_DOC, second_row, header=HEADER), TABLE) == (0, 2)


def test_the_structural_chunker_never_loses_a_header_and_fixed_windows_do() -> None:
    doc = "# Prices\n\n| size | price |\n|---|---|\n" + "".join(
        f"| item {i} | {i * 3} dollars |\n" for i in range(40)
    )
    structural = chunk(doc, "structural", 200, 0)
    fixed = chunk(doc, "fixed", 200, 0)
    assert counts(doc, structural, TABLE)[0] == 0 and counts(doc, structural, TABLE)[1] > 1
    assert counts(doc, fixed, TABLE)[0] > 0


def test_the_total_sums_every_kind() -> None:
    v = violations("doc", at(TABLE_DOC, "| large"), elements(TABLE_DOC))
    assert (v.total.violations, v.total.out_of) == (
        sum(c.violations for c in v.counts.values()),
        sum(c.out_of for c in v.counts.values()),
    )
    assert v.total.violations == 1


def test_a_chunk_of_anchors_and_link_definitions_is_only_markup() -> None:
    text = (
        'Some words first.\n\n<!-- old name -->\n<a id="old"></a>\n\n'
        "[rust]: https://www.rust-lang.org/\n"
    )
    chunks = cut(text, text.index("<!--"))
    assert counts(text, chunks, MARKUP) == (1, 2)
    assert violations("doc", chunks, elements(text)).by_chunk[("doc", 1)] == (MARKUP,)


def test_a_chunk_over_the_limit_is_counted_only_when_a_limit_is_given() -> None:
    chunks = cut(HEADING_DOC, HEADING_DOC.index("## Setup"))
    assert violations("doc", chunks, elements(HEADING_DOC), 25).counts[OVERSIZE].violations == 1
    assert violations("doc", chunks, elements(HEADING_DOC)).counts[OVERSIZE].violations == 0


def test_the_quality_report_names_each_chunk_its_checks_and_first_line() -> None:
    chunks = cut(HEADING_DOC, HEADING_DOC.index("Install"))
    broken = violations("doc", chunks, elements(HEADING_DOC), 30)
    (only,) = findings("doc", chunks, broken)
    assert (only.index, only.first_line) == (0, "Intro paragraph here.")
    assert only.checks == (PASSES_SIZE, ENDS_WITH_TITLE)
    assert findings("doc", chunks, violations("doc", chunks, elements(HEADING_DOC))) != []
    # a comment alone before the text it annotates: markup, and it leaves that text
    text = "<!-- a -->\n\nWords.\n"
    cs = cut(text, text.index("Words"))
    assert [f.checks for f in findings("d", cs, violations("d", cs, elements(text)))] == [
        (ENDS_WITH_TITLE, ONLY_MARKUP)
    ]
