"""Boilerplate: what is found (and what is not), what it costs, stripping it, and what
stripping changes for the gold set."""

from __future__ import annotations

import pytest

from chunkers import ChunkOptions, chunk_with
from lab.inputs.gold import GoldQuestion, load_gold
from lab.measure.boilerplate import (
    MOSTLY,
    BoilerplateError,
    find_boilerplate,
    line_key,
    shares,
    strip,
    strip_all,
)
from lab.measure.integrity import GoldRun
from lab.measure.strip_effect import map_gold, strip_effect
from tests.support import SAMPLES

MANUAL = (SAMPLES / "warehouse_manual.md").read_text(encoding="utf-8")
HEADER = "Northwind Logistics · Warehouse Operations Manual · WOM-2 Revision 4"
FOOTER = "Confidential. This manual is for the internal use of Northwind Logistics"


def test_the_converted_manuals_running_header_and_footer_are_found_on_every_page() -> None:
    r = find_boilerplate({"m.md": MANUAL}, options=ChunkOptions(size=600, overlap=0))
    assert MANUAL.count("\n## Page ") == 12
    texts = [f.text for f in r.findings]
    assert len(texts) == 2
    assert texts[0].startswith(FOOTER) and texts[0].endswith("Page 1 of 12")  # two lines, one
    assert texts[1].startswith(HEADER)
    for f in r.findings:
        assert (f.units, f.out_of, f.scope, len(f.occurrences)) == (12, 12, "pages", 12)
        assert f.chars == sum(len(MANUAL[o.start : o.end]) for o in f.occurrences)
    assert r.findings[0].chunks_mostly > 0 and r.chunks_mostly >= r.findings[0].chunks_mostly
    # the table header repeated on the next page and the "Before you start" heading
    # that recurs on three pages are not boilerplate
    flagged = "".join(MANUAL[o.start : o.end] for f in r.findings for o in f.occurrences)
    assert "| Zone |" not in flagged and "Before you start" not in flagged


def _paged(pages: list[str]) -> str:
    return "\n".join(f"## Page {n}\n\n{body}\n" for n, body in enumerate(pages, start=1))


def test_a_recurring_heading_and_a_repeated_table_header_are_not_boilerplate() -> None:
    topics = ("invoices", "customers", "refunds", "webhooks", "payouts", "disputes")
    pages = [
        f"### Parameters\n\nThis endpoint lists {topic} and filters them.\n\n"
        f"| Name | Type | Required |\n|---|---|---|\n| {topic}_id | string | yes |\n\n"
        f"Acme Corp. All rights reserved. Page {n}"
        for n, topic in enumerate(topics, start=1)
    ]
    pages[1] += "\n\nSee the changelog for older versions of this endpoint."
    pages[3] += "\n\nSee the changelog for older versions of this endpoint."
    r = find_boilerplate({"api.md": _paged(pages)})
    assert [f.text for f in r.findings] == ["Acme Corp. All rights reserved. Page 1"]
    # a line on 2 of 6 pages is under half the pages: content, not boilerplate
    assert r.findings[0].units == 6


def test_lines_compare_case_space_and_digit_blind() -> None:
    assert line_key("  Page 3   of 12 ") == line_key("page 11 of 12") == "page # of #"


def test_a_folder_finds_lines_repeated_across_documents() -> None:
    nav = "Home · Products · Support · Contact us"
    docs = {
        f"doc{n}.md": f"{nav}\n\n# {topic}\n\nWhat we say about {topic} and nothing else.\n"
        for n, topic in enumerate(("pricing", "security", "careers", "history"))
    }
    docs["doc3.md"] = "# Topic 3\n\nOnly content here, no navigation at all.\n"
    r = find_boilerplate(docs)
    [f] = r.findings
    assert (f.text, f.units, f.out_of, f.scope) == (nav, 3, 4, "documents")


@pytest.mark.parametrize(
    "text,message",
    [
        ("# Notes\n\nNo pages at all.\n", "n.md has no '## Page N' sections: per-page detection"),
        ("## Page 1\n\nA.\n\n## Page 2\n\nB.\n", "n.md has only 2 page(s): per-page detection"),
    ],
)
def test_a_document_without_pages_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(BoilerplateError) as e:
        find_boilerplate({"n.md": text})
    assert str(e.value).startswith(message) and str(e.value).endswith(
        "run it on a folder to compare documents instead"
    )
    with pytest.raises(BoilerplateError, match="no documents to compare"):
        find_boilerplate({})


def test_stripping_removes_every_occurrence_and_maps_offsets_back() -> None:
    r = find_boilerplate({"m.md": MANUAL})
    s = strip_all({"m.md": MANUAL}, r)["m.md"]
    assert HEADER not in s.text and FOOTER not in s.text and "Page 7 of 12" not in s.text
    assert "## Page 7" in s.text and "### 6. Forklift operation" in s.text  # structure stays
    assert "\n\n\n" not in s.text  # no runs of blank lines left behind
    assert s.original == MANUAL
    i = MANUAL.index("The speed limit inside the building")
    j = s.to_stripped(i)
    assert s.text[j : j + 30] == MANUAL[i : i + 30]
    assert len(MANUAL) - len(s.text) == s.inside_removed(0, len(MANUAL))
    assert strip("abc", []).text == "abc"


def test_shares_measure_each_chunks_boilerplate() -> None:
    r = find_boilerplate({"m.md": MANUAL})
    chunks = chunk_with(MANUAL, "structural", ChunkOptions(size=400, overlap=0))
    got = shares(chunks, r.spans()["m.md"])
    assert all(0 <= x <= 1 for x in got) and sum(x >= MOSTLY for x in got) > 0


def _pairs() -> list[GoldQuestion]:
    gold = load_gold(SAMPLES / "warehouse_manual.gold.jsonl")
    return [GoldQuestion(g.question, g.answer, "m.md") for g in gold.questions]


def test_a_gold_answer_inside_stripped_text_is_set_aside_and_named() -> None:
    r = find_boilerplate({"m.md": MANUAL})
    stripped = strip_all({"m.md": MANUAL}, r)
    footer = GoldQuestion(
        "who may read the manual?", "for the internal use of Northwind Logistics", "m.md"
    )
    kept, aside = map_gold(stripped, [*_pairs(), footer])
    assert len(kept) == len(_pairs())
    [a] = aside
    assert (a.question, a.reason) == (
        footer.question,
        "its answer lies in text stripped as boilerplate",
    )


def test_stripping_takes_boilerplate_chunks_out_of_the_ranking() -> None:
    opts = ChunkOptions(size=500, overlap=0, unit="chars")
    e = strip_effect(GoldRun({"m.md": MANUAL}, _pairs(), k=3), "sentence", opts)
    assert e.intercepts  # boilerplate-heavy chunks rank for questions they do not answer
    assert all(i.share >= MOSTLY and i.rank <= 3 for i in e.intercepts)
    assert e.chunks_after < e.chunks_before and e.removed_chars > 3000
    assert len(e.before.results) == len(e.after.results) == len(_pairs()) and not e.set_aside
    # on this document and retriever, stripping lifts the gold set's ranks
    assert e.after.mrr > e.before.mrr and e.after.recall_at(3) > e.before.recall_at(3)
    assert len(e.spread_before) == len(e.spread_after) == len(_pairs())
