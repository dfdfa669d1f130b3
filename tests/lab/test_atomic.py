"""Atomic-element violations: each rule with an example that breaks it and one that does not."""

from __future__ import annotations

from itertools import pairwise

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


TABLE_DOC = "# Prices\n\n| size | price |\n|---|---|\n| small | 4 |\n| large | 9 |\n\nThe end.\n"
HEADER = "| size | price |\n|---|---|\n"


def test_a_table_fragment_without_its_header_is_a_violation() -> None:
    second_row = TABLE_DOC.index("| large")
    assert counts(TABLE_DOC, cut(TABLE_DOC, second_row), TABLE) == (1, 2)
    v = violations("doc", cut(TABLE_DOC, second_row), elements(TABLE_DOC))
    assert v.by_chunk == {("doc", 1): (TABLE,)}


def test_a_whole_table_or_a_fragment_that_repeats_its_header_is_not() -> None:
    assert counts(TABLE_DOC, cut(TABLE_DOC), TABLE) == (0, 1)
    second_row = TABLE_DOC.index("| large")
    assert counts(TABLE_DOC, cut(TABLE_DOC, second_row, header=HEADER), TABLE) == (0, 2)


def test_a_fragment_holding_only_half_the_header_is_a_violation() -> None:
    separator = TABLE_DOC.index("|---")
    assert counts(TABLE_DOC, cut(TABLE_DOC, separator), TABLE) == (1, 1)


def test_the_structural_chunker_never_loses_a_header_and_fixed_windows_do() -> None:
    doc = "# Prices\n\n| size | price |\n|---|---|\n" + "".join(
        f"| item {i} | {i * 3} dollars |\n" for i in range(40)
    )
    structural = chunk(doc, "structural", 200, 0)
    fixed = chunk(doc, "fixed", 200, 0)
    assert counts(doc, structural, TABLE)[0] == 0 and counts(doc, structural, TABLE)[1] > 1
    assert counts(doc, fixed, TABLE)[0] > 0


CODE_DOC = "Run this:\n\n```python\nx = 1\n\ny = 2\n```\n\nThen stop.\n"


def test_a_boundary_inside_a_code_block_splits_it() -> None:
    inside = CODE_DOC.index("y = 2")
    assert counts(CODE_DOC, cut(CODE_DOC, inside), CODE) == (1, 1)
    # the blank line inside the fence is still inside the block
    assert counts(CODE_DOC, cut(CODE_DOC, CODE_DOC.index("\n\ny")), CODE) == (1, 1)


def test_boundaries_around_a_code_block_do_not() -> None:
    fence = CODE_DOC.index("```python")
    after = CODE_DOC.index("\n\nThen")
    assert counts(CODE_DOC, cut(CODE_DOC, fence, after), CODE) == (0, 1)


HEADING_DOC = "Intro paragraph here.\n\n## Setup\n\nInstall the tool first.\n"


def test_a_chunk_that_ends_with_a_heading_strands_it() -> None:
    body = HEADING_DOC.index("Install")
    assert counts(HEADING_DOC, cut(HEADING_DOC, body), HEADING) == (1, 1)
    # a boundary inside the heading line strands it too
    assert counts(HEADING_DOC, cut(HEADING_DOC, HEADING_DOC.index("up")), HEADING) == (1, 1)


def test_a_heading_that_opens_its_chunk_with_text_after_it_is_not_stranded() -> None:
    heading = HEADING_DOC.index("## Setup")
    assert counts(HEADING_DOC, cut(HEADING_DOC, heading), HEADING) == (0, 1)


def test_a_heading_at_the_very_end_has_nothing_to_be_cut_from() -> None:
    doc = "Intro paragraph here.\n\n## Appendix\n"
    assert counts(doc, cut(doc), HEADING) == (0, 0)


SENTENCE_DOC = "The first sentence is here. The second one follows it.\n\n- one item\n- two items\n"


def test_a_boundary_inside_a_sentence_cuts_it() -> None:
    mid = SENTENCE_DOC.index("sentence is")
    assert counts(SENTENCE_DOC, cut(SENTENCE_DOC, mid), SENTENCE) == (1, 4)
    in_item = SENTENCE_DOC.index("item")
    assert counts(SENTENCE_DOC, cut(SENTENCE_DOC, in_item), SENTENCE) == (1, 4)


def test_boundaries_between_sentences_or_list_lines_cut_none() -> None:
    between = SENTENCE_DOC.index(" The second")
    next_item = SENTENCE_DOC.index("- two")
    assert counts(SENTENCE_DOC, cut(SENTENCE_DOC, between, next_item), SENTENCE) == (0, 4)


def test_a_list_may_be_cut_between_items_not_inside_a_wrapped_one() -> None:
    doc = "- a long item that wraps\n  onto the next line\n- a second item\n"
    assert counts(doc, cut(doc, doc.index("- a second")), SENTENCE) == (0, 2)
    assert counts(doc, cut(doc, doc.index("onto")), SENTENCE) == (1, 2)


def test_offsets_are_those_of_the_text_as_given_crlf_included() -> None:
    doc = HEADING_DOC.replace("\n", "\r\n")
    assert counts(doc, cut(doc, doc.index("Install")), HEADING) == (1, 1)
    assert counts(doc, cut(doc, doc.index("## Setup")), HEADING) == (0, 1)
    prose = "Line one.\r\n\r\nLine two.\r\n\r\nFirst one is here. Second one is here.\r\n"
    assert counts(prose, cut(prose, prose.index(" Second")), SENTENCE) == (0, 4)
    assert counts(prose, cut(prose, prose.index("one is here.")), SENTENCE) == (1, 4)
    crlf_table = TABLE_DOC.replace("\n", "\r\n")
    assert counts(crlf_table, cut(crlf_table, crlf_table.index("| large")), TABLE) == (1, 2)


def test_the_total_sums_every_kind() -> None:
    v = violations("doc", cut(TABLE_DOC, TABLE_DOC.index("| large")), elements(TABLE_DOC))
    assert (v.total.violations, v.total.out_of) == (
        sum(c.violations for c in v.counts.values()),
        sum(c.out_of for c in v.counts.values()),
    )
    assert v.total.violations == 1


LEAD_DOC = "Intro paragraph here.\n\nRun the server with:\n\n```\nuvicorn main:app\n```\n"


def test_a_chunk_that_ends_with_a_lead_in_strands_it() -> None:
    fence = LEAD_DOC.index("```")
    assert counts(LEAD_DOC, cut(LEAD_DOC, fence), LEADIN) == (1, 1)
    assert counts(LEAD_DOC, cut(LEAD_DOC, LEAD_DOC.index("Run")), LEADIN) == (0, 1)


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
