"""Each document type's chunker keeps its type's grain, and routing sends each
document to the right one.

The fixtures are written for the rule they test: a meeting whose turns fit (and
one that does not), a contract with numbered clauses and lettered sub-clauses,
an FAQ with grouped questions, an API reference with a long endpoint.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkers import ChunkOptions, chunk, chunk_with
from chunkers.doctype import QUESTION_HEADING, SPEAKER_LINE, classify
from chunkers.routing import ROUTES, route_for
from tests.chunkers.invariants import over_max_breaks, runt_breaks
from tests.chunkers.test_properties import documents
from tests.support import SAMPLES, assert_spans_true, corpus_files, lost_characters

TYPED = ("faq", "api", "transcript", "contract", "routed")

TURNS = [
    ("Chair", "Welcome, everyone. The first item is the budget, and I will ask Ruth to begin."),
    (
        "Ruth",
        "Thank you. Spending is at seventy percent of the year's budget. The roads "
        "budget is under by a small amount because the winter was mild. Social care is "
        "over, by a larger amount, because placements cost more.",
    ),
    ("Tom", "How large is the reserve after that?"),
    ("Ruth", "It stands at two million, above the minimum the committee set."),
    (
        "Chair",
        "Thank you. Are members content to note the report? They are. The report is "
        "noted, and we move to the second item, the pool roof.",
    ),
    ("Tom", "The roof leaks in eleven places and two beams have corroded."),
]
LONG_TURN = " ".join(f"Sentence number {i} of the long answer goes on a while." for i in range(40))


def _meeting(turns: list[tuple[str, str]]) -> str:
    body = "\n\n".join(f"{name}: {words}" for name, words in turns)
    return f"# Committee meeting\n\n## Item 1\n\n{body}\n"


def _turn_spans(text: str) -> list[tuple[int, int, str]]:
    spans = []
    for m in re.finditer(r"^(\w+): .*$", text, re.M):
        spans.append((m.start(), m.end(), m[1]))
    return spans


@pytest.mark.parametrize("size", [60, 90, 150, 400])
def test_a_turn_that_fits_is_never_split(size: int) -> None:
    text = _meeting(TURNS)
    opts = ChunkOptions(size=size, overlap=0)
    chunks = chunk_with(text, "transcript", opts)
    for s, e, _ in _turn_spans(text):
        if e - s <= opts.size:
            assert any(c.start <= s and e <= c.end for c in chunks), (size, text[s:e])


def test_every_transcript_chunk_starts_at_a_turn_and_names_its_speakers() -> None:
    text = _meeting(TURNS)
    chunks = chunk(text, "transcript", 250, 0)  # every turn fits
    assert len(chunks) > 2
    for c in chunks[1:]:  # the first holds the title and the item's heading
        first = next(ln for ln in c.body.split("\n") if ln.strip() and not ln.startswith("#"))
        speaker = SPEAKER_LINE.match(first)
        assert speaker is not None, c.body[:60]
        speakers = {m[1] for m in re.finditer(r"^(\w+): ", c.body, re.M)}
        assert speakers <= set(c.heading_path[-1].split(", ")), (c.heading_path, speakers)


def test_a_long_turn_is_cut_with_its_speaker_on_every_part() -> None:
    text = _meeting([TURNS[0], ("Ruth", LONG_TURN), TURNS[2]])
    chunks = chunk(text, "transcript", 300, 0)
    ruth = [c for c in chunks if "long answer" in c.body]
    assert len(ruth) > 2
    assert all(c.heading_path[-1] == "Ruth" for c in ruth), [c.heading_path for c in ruth]
    # cut between sentences, never inside one
    assert all(c.body.rstrip().endswith(".") for c in ruth)


CONTRACT = """# Service agreement

The parties agree as follows. Each party shall act in good faith.

1. Definitions. In this agreement the following words have these meanings.

"Service" means the hosting service described in the order form.

"Customer" means the person who signs the order form.

2. Payment. The Customer shall pay each invoice within thirty days.

(a) Invoices are issued monthly in arrears and list every charge for the month.

(b) Late payments carry interest at two percent above the base rate, from the due date.

(c) The Customer shall not withhold payment because of a dispute over another invoice.

3. Termination. Either party may end this agreement on ninety days' notice.

3.1 The Provider may end it at once if the Customer does not pay for sixty days.

3.2 On termination the Customer's data is returned, and then deleted.
"""


@pytest.mark.parametrize("size", [80, 150, 300, 1800])
def test_every_contract_chunk_carries_its_clause_path(size: int) -> None:
    chunks = chunk(CONTRACT, "contract", size, 0)
    first_clause = CONTRACT.index("1. Definitions")
    clause = re.compile(r"^(?:\d+(?:\.\d+)*\.?(?: |$)|\()")
    for c in chunks:
        if c.end <= first_clause:
            continue
        assert c.heading_path and clause.match(c.heading_path[-1].split("\u2013")[0]), (
            size,
            c.heading_path,
            c.body[:40],
        )
        # a chunk starts at a clause or a sub-clause (or inside one too big for a chunk)
    starts = {c.start for c in chunks}
    assert CONTRACT.index("2. Payment") in starts


def test_a_sub_clause_is_named_under_its_clause() -> None:
    chunks = chunk(CONTRACT, "contract", 100, 0)
    paths = [" > ".join(c.heading_path) for c in chunks]
    assert "Service agreement > 2. Payment > (b)" in paths
    assert "Service agreement > 3. Termination > 3.1" in paths
    # a defined term stays whole
    assert any('"Service" means the hosting service' in c.body for c in chunks)


def test_clauses_that_share_a_chunk_are_named_as_a_range() -> None:
    chunks = chunk(CONTRACT, "contract", 1800, 0)
    paths = [" > ".join(c.heading_path) for c in chunks]
    assert any(p.endswith("2. Payment") or "(a)\u2013(c)" in p for p in paths), paths


FAQ = """# Help

## Accounts

### How do I reset my password?

Use the link on the sign-in page. The link works for an hour.

### Can I change my email address?

Yes, from your profile page. We send a code to the new address first.

## Billing

### When am I charged?

On the first day of each month, for the month ahead.

Q: Do you offer refunds?
A: Within thirty days of a purchase, in full.

Q: Can I pay by invoice?
A: On the business plan only.
"""


@pytest.mark.parametrize("size", [40, 100, 400, 1800])
def test_one_question_per_faq_chunk(size: int) -> None:
    chunks = chunk(FAQ, "faq", size, 0)
    for c in chunks:
        asked = len(re.findall(r"^(?:#+ .*\?|Q: )", c.body, re.M))
        assert asked <= 1, c.body
    # the question leads every part of its answer, in the heading path
    reset = [c for c in chunks if "sign-in page" in c.body or "works for an hour" in c.body]
    assert all(c.heading_path[-1] == "How do I reset my password?" for c in reset)
    assert any(c.heading_path == ("Help", "Billing", "Do you offer refunds?") for c in chunks)
    assert QUESTION_HEADING.match("### When am I charged?")


API = (
    """# Widgets API

## Overview

The API speaks JSON over HTTPS.

## Widgets

### Create a widget

`POST /v1/widgets` makes a widget. It takes these parameters:

- `name` (string, required): what the widget is called.
- `colour` (string, optional): one of red, green or blue.

"""
    + "\n\n".join(
        f"Paragraph {i} says more about widgets and how they are made, at length."
        for i in range(12)
    )
    + """

```json
{"id": "w_1", "name": "sprocket"}
```

### Delete a widget

`DELETE /v1/widgets/{id}` removes a widget for good.
"""
)


@pytest.mark.parametrize("size", [60, 200, 1800])
def test_the_endpoint_line_is_in_every_api_chunk_path(size: int) -> None:
    chunks = chunk(API, "api", size, 0)
    create = API.index("## Widgets")  # (its section's title travels with its first endpoint)
    delete = API.index("### Delete a widget")
    made = [c for c in chunks if create <= c.start < delete]
    assert made
    assert all("POST /v1/widgets" in c.heading_path for c in made), [c.heading_path for c in made]
    gone = [c for c in chunks if c.start >= delete]
    assert all("DELETE /v1/widgets/{id}" in c.heading_path for c in gone)


def test_an_endpoint_fits_with_its_parameters_and_first_example() -> None:
    short = API.split("Paragraph 0")[0] + "```json\n{}\n```\n"
    chunks = chunk(short, "api", 1800, 0)
    (unit,) = [c for c in chunks if "POST /v1/widgets" in c.heading_path]
    assert "`colour`" in unit.body and "```json" in unit.body


# -- the properties every chunker keeps ---------------------------------------------------
FIXTURES = [CONTRACT, FAQ, API, _meeting(TURNS), _meeting([TURNS[0], ("Ruth", LONG_TURN)])]


@pytest.mark.parametrize("strategy", TYPED)
@pytest.mark.parametrize(
    "size,unit", [(30, "chars"), (120, "chars"), (600, "chars"), (12, "words")]
)
def test_nothing_lost_and_no_chunk_past_the_effective_maximum(
    strategy: str, size: int, unit: str
) -> None:
    opts = ChunkOptions(size=size, overlap=0, unit=unit)
    for text in FIXTURES:
        chunks = chunk_with(text, strategy, opts)
        assert lost_characters(text, chunks) == []
        assert_spans_true(text, chunks)
        assert over_max_breaks(chunks, opts) == []
        assert runt_breaks(chunks, opts) == []  # a short unit says why it stands alone


MARKED = st.sampled_from(
    [
        "### How do I pay?",
        "Q: Can I cancel?",
        "`POST /v1/things` makes a thing.",
        "```\nGET /v1/things\n```",
        "Chair: We begin.",
        "Ms Okafor: Thank you, Chair. The figures are in.",
        "4. Payment. The Customer shall pay.",
        "(b) Late payments carry interest.",
        "JOHN SMITH",
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.one_of(documents(), MARKED), min_size=1, max_size=12),
    st.sampled_from(TYPED),
    st.sampled_from(["chars", "words"]),
    st.integers(1, 300),
)
def test_every_type_chunker_keeps_every_character(
    parts: list[str], strategy: str, unit: str, size: int
) -> None:
    text = "\n\n".join(parts)
    opts = ChunkOptions(size=size if unit == "chars" else max(1, size // 6), overlap=0, unit=unit)
    chunks = chunk_with(text, strategy, opts)
    assert lost_characters(text, chunks) == []
    assert_spans_true(text, chunks)
    if "\r" not in text:  # (the check counts on the text as given)
        assert over_max_breaks(chunks, opts) == []


@pytest.mark.parametrize("strategy", TYPED)
def test_crlf_text_chunks_as_lf_does(strategy: str) -> None:
    for text in FIXTURES:
        lf = chunk(text, strategy, 120, 0)
        crlf = chunk(text.replace("\n", "\r\n"), strategy, 120, 0)
        assert [c.heading_path for c in crlf] == [c.heading_path for c in lf]
        assert [c.body.replace("\r\n", "\n") for c in crlf] == [c.body for c in lf]


@pytest.mark.corpus
@pytest.mark.parametrize("strategy", TYPED)
def test_every_type_chunker_keeps_the_properties_on_the_corpus(strategy: str) -> None:
    files = corpus_files()
    assert files
    opts = ChunkOptions()
    for path in files:
        text = path.read_text(encoding="utf-8")
        chunks = chunk_with(text, strategy, opts)
        assert lost_characters(text, chunks) == [], path
        assert over_max_breaks(chunks, opts) == [], path


# -- the classifier and the routes ---------------------------------------------------------
@pytest.mark.parametrize(
    "sample,doc_type",
    [
        ("library_faq", "faq"),
        ("api_reference", "api"),
        ("council_transcript", "transcript"),
        ("software_licence", "contract"),
        ("support_kb", "prose"),
        ("warehouse_manual", "prose"),
    ],
)
def test_the_classifier_names_clear_cases(sample: str, doc_type: str) -> None:
    found = classify((SAMPLES / f"{sample}.md").read_text(encoding="utf-8"))
    assert found.doc_type == doc_type
    assert not found.uncertain
    assert found.evidence


def test_the_classifier_on_the_fixtures() -> None:
    assert classify(FAQ).doc_type == "faq"
    assert classify(API).doc_type == "api"
    assert classify(_meeting(TURNS)).doc_type == "transcript"
    assert classify(CONTRACT).doc_type == "contract"


def test_few_marks_fall_back_to_prose_and_say_uncertain() -> None:
    text = "# Notes\n\n## Why would I use this?\n\nBecause it is quick.\n\nMore text here.\n"
    found = classify(text)
    assert (found.doc_type, found.uncertain) == ("prose", True)
    assert "uncertain" in found.evidence and "faq" in found.evidence
    both = FAQ + "\n" + _meeting(TURNS).replace("# Committee meeting", "")
    mixed = classify(both)
    assert (mixed.doc_type, mixed.uncertain) == ("prose", True)
    assert "faq" in mixed.evidence and "transcript" in mixed.evidence
    assert classify("Plain words only.").evidence == "no type's marks"


def test_labels_are_not_speakers() -> None:
    text = "\n\n".join(["Note: read this first."] * 4 + ["Warning: and this."] * 4)
    assert classify(text).doc_type == "prose"


def test_routed_is_each_type_chunker_and_structural_for_prose() -> None:
    for sample in ("library_faq", "council_transcript", "software_licence", "support_kb"):
        text = (SAMPLES / f"{sample}.md").read_text(encoding="utf-8")
        strategy = ROUTES[classify(text).doc_type]
        assert chunk(text, "routed") == chunk(text, strategy)
    assert route_for("prose") == "structural"
    assert route_for("faq", {"faq": "sentence"}) == "sentence"
    with pytest.raises(ValueError, match="document type must be one of"):
        route_for("slides")


def test_an_endpoint_in_code_counts_and_a_quoted_request_in_a_comment_does_not() -> None:
    fenced = "\n\n".join(
        f"## {what}\n\n```\n{method} /api/{what}\n```\n\nIt does {what}."
        for method, what in (("POST", "generate"), ("POST", "chat"), ("GET", "tags"))
    )
    assert classify(fenced).doc_type == "api"
    chunks = chunk(fenced, "api", 1800, 0)
    assert [c.heading_path for c in chunks] == [
        ("generate", "POST /api/generate"),
        ("chat", "POST /api/chat"),
        ("tags", "GET /api/tags"),
    ]
    quoted = "# Paths\n\n```python\n# GET /a%5Eb HTTP/1.1\nx = 1\n# GET /a^b HTTP/1.1\n```\n"
    assert classify(quoted).evidence == "no type's marks"


@pytest.mark.parametrize("strategy", TYPED)
def test_no_chunk_ends_with_a_heading_while_text_follows(strategy: str) -> None:
    samples = [
        (SAMPLES / f"{n}.md").read_text(encoding="utf-8")
        for n in ("library_faq", "api_reference", "council_transcript", "software_licence")
    ]
    for text in [*FIXTURES, *samples]:
        for size in (200, 600, 1800):
            chunks = chunk(text, strategy, size, 0)
            for c in chunks[:-1]:
                last = [ln for ln in c.body.split("\n") if ln.strip()][-1]
                assert not last.startswith("#"), (strategy, size, c.index, last)
