"""The packer's rules about headings, trust, pages and whole blocks: one example each.

Every example runs at the default size (1,800 characters with 150 overlap) on
text shaped like what users upload: converted PDFs with page anchors and
transcribed charts, release notes, manuals.
"""

from __future__ import annotations

import re

from chunkers import ChunkOptions, chunk
from chunkers.model import OVERLAP_APPLIED, OVERLAP_TABLE, OVERLAP_TRANSCRIBED
from chunkers.structural.blocks import is_lead
from tests.chunkers.invariants import heading_context_breaks, page_breaks, trust_breaks

PROSE = "The audit store keeps access logs for four hundred days before archiving them. "
OCR = "Q3 revenue 4,2l8 crores (illegible) margin 1B.4% approx per chart legend.\n"
_HEADING_LINE = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")


def chunks(text: str):
    return chunk(text, "structural", 1800, 150)


def last_line(body: str) -> str:
    return body.rstrip().rsplit("\n", 1)[-1]


def ends_with_heading(body: str) -> bool:
    return _HEADING_LINE.match(last_line(body)) is not None


# -- a chunk never ends with a heading: a heading travels with what follows it ---------
def test_page_anchor_travels_with_its_transcribed_child() -> None:
    text = (
        "## Page 11\n\n" + PROSE * 60 + "\n\n## Page 12\n\n### Chart (transcribed)\n\n" + OCR * 40
    )
    out = chunks(text)
    assert not any(ends_with_heading(c.body) for c in out), [last_line(c.body) for c in out]
    chart = next(c for c in out if "### Chart (transcribed)" in c.body)
    assert chart.body.startswith("## Page 12\n\n### Chart") and chart.page == 12
    assert chart.transcribed  # a trusted heading may join transcribed text, not the reverse


def test_empty_heading_travels_with_the_next_heading_of_its_level() -> None:
    text = PROSE * 20 + "\n\n## 1.0\n\n## Features\n\n" + PROSE * 30
    out = chunks(text)
    assert not any(ends_with_heading(c.body) for c in out), [last_line(c.body) for c in out]
    features = next(c for c in out if "## Features" in c.body)
    assert features.body.startswith("## 1.0\n\n## Features")
    assert features.heading_path == ("Features",)


# -- heading context: every heading above a chunk's first character is named --------------
def release_notes() -> str:
    return "\n\n".join(
        [
            "# Release Notes",
            "## 0.100.0",
            "### Features",
            PROSE * 22,
            "### Internal",
            "\n".join(f"- Bump dependency number {i} to its latest release." for i in range(14)),
            "## 0.99.1",
            "### Fixes",
            "- Fix a typo.",
            "## 0.99.0",
            PROSE * 22,
        ]
    )


def test_runt_merge_keeps_the_version_above_the_first_character() -> None:
    text = release_notes()
    out = chunks(text)
    internal = next(c for c in out if c.body.startswith("### Internal"))
    assert "## 0.99.1" in internal.body  # the runt after it merged into it
    assert internal.heading_path == ("Release Notes", "0.100.0")
    assert heading_context_breaks(text, out) == []


def test_merge_of_sibling_sections_still_names_only_what_they_share() -> None:
    # both headings are in the merged body: the path need not repeat them
    text = "## C\n\n" + PROSE * 4 + "\n\n## D\n\n" + PROSE * 2
    (only,) = chunk(text, "structural", 1800, 0)
    assert only.heading_path == ()
    assert heading_context_breaks(text, [only]) == []


# -- trust: text under a transcribed heading stays transcribed, whatever the demotion did --
def test_heading_under_a_demoted_transcribed_heading_stays_transcribed() -> None:
    text = "## Page 12\n\n## Chart (transcribed)\n\n" + OCR * 100 + "\n\n### Chart details\n\n"
    text += OCR * 60
    out = chunks(text)
    details = [c for c in out if c.heading_path[-1:] == ("Chart details",)]
    assert details and all(c.transcribed for c in details)
    assert all(c.overlap_prefix == "" for c in out)
    assert trust_breaks(text, out) == []


def test_overlap_outcome_records_why_overlap_was_refused() -> None:
    table = "| Region | Revenue |\n|---|---|\n" + "| Mumbai | 18,412 |\n" * 30
    text = PROSE * 30 + "\n\n" + table + "\n" + PROSE * 30 + "\n\n### Scan (transcribed)\n\n"
    text += OCR * 30
    out = chunks(text)
    outcomes = [c.overlap_outcome for c in out]
    assert outcomes[0] == ""  # nothing before the first chunk
    assert (
        OVERLAP_TABLE in outcomes
        and OVERLAP_TRANSCRIBED in outcomes
        and OVERLAP_APPLIED in outcomes
    )
    assert all((c.overlap_outcome == OVERLAP_APPLIED) == bool(c.overlap_prefix) for c in out)


# -- pages: a chunk's page is its first character's; a chunk that spans pages says its last -
def test_fact_on_a_page_of_its_own_is_cited_with_its_page() -> None:
    fact = "Mumbai FY24 revenue was 18,412 crores."
    text = (
        "## Page 3\n\n" + PROSE * 50 + "\n\n## Page 4\n\n" + fact + "\n\n## Page 5\n\n" + PROSE * 55
    )
    out = chunks(text)
    (holder,) = [c for c in out if fact in c.body]
    assert holder.page <= 4 <= holder.last_page
    assert (holder.page, holder.last_page) == (3, 4)
    assert holder.heading_path == ("Page 3",)  # where its first character sits
    assert [(c.page, c.last_page) for c in out if c is not holder] == [(3, 3)] * 2 + [(5, 5)] * 3
    assert page_breaks(text, out) == []
    assert holder.to_dict()["last_page"] == 4


# -- a block that fits a fresh chunk is never split -------------------------------------------
def test_paragraph_that_fits_with_its_heading_is_not_split() -> None:
    heading = "## Retention and archiving rules"  # 32 characters
    first = "Access logs " + "are kept in the audit store for four hundred days " * 17 + "first."
    second = "They are " + "archived to cold storage and never deleted in place " * 17 + "after it."
    paragraph = first + " " + second
    assert (len(heading), len(paragraph)) == (32, 1771)
    text = PROSE * 30 + "\n\n" + heading + "\n\n" + paragraph + "\n\n## Next\n\n" + PROSE * 20
    out = chunks(text)
    (holder,) = [c for c in out if first in c.body]
    assert second in holder.body and holder.body.startswith(heading)
    assert holder.length <= ChunkOptions().effective_max


def test_front_matter_and_title_travel_with_the_first_paragraph() -> None:
    description = "A page about widgets: what they are, how they render, how to update them."
    front = f"---\ntitle: Widgets\ndescription: {description} It is long.\n---"
    paragraph = ("Widgets are small components that render one value each and update. " * 5)[:279]
    text = f"{front}\n\n# Title\n\n{paragraph}\n"
    out = chunk(text, "structural", 400, 40)
    assert not any(ends_with_heading(c.body) for c in out), [last_line(c.body) for c in out]
    assert out[0].body.startswith("---") and paragraph in out[0].body
    assert out[0].heading_path == () and out[0].kind == "prose"  # front matter: no heading


def test_anchors_and_comments_travel_with_the_heading_below() -> None:
    box = ("Box stores data on the heap rather than the stack, and the pointer stays. " * 5)[:330]
    deref = "Implementing the Deref trait lets you customise the dereference operator. " * 3
    anchor = '<a id="treating-smart-pointers-like-regular-references"></a>'
    text = (
        f"## Using Box\n\n{box}\n\n<!-- Old headings. Do not remove or links may break. -->\n\n"
        f"{anchor}\n\n## Treating Smart Pointers Like Regular References\n\n{deref}\n"
    )
    out = chunk(text, "structural", 400, 40)
    assert [c.heading_path[-1] for c in out] == [
        "Using Box",
        "Treating Smart Pointers Like Regular References",
    ]
    assert out[1].body.startswith("<!-- Old headings") and deref.strip() in out[1].body
    assert out[1].overlap_outcome == "new section" and out[1].overlap_prefix == ""


def test_overlap_copies_no_code_from_inside_a_list() -> None:
    # the block before the boundary is a list, but what its tail holds is a fence
    item = (
        "- Set the option on the model class itself, as the example below shows in full.\n\n"
        "    ```python\n    class User(BaseModel):\n"
        "        model_config = ConfigDict(strict=True)\n    ```\n\n"
    )
    text = "## Config\n\n" + item * 6
    out = chunk(text, "structural", 400, 40)
    assert len(out) > 2
    for c in out[1:]:
        assert "```" not in c.overlap_prefix and "model_config" not in c.overlap_prefix
        assert c.overlap_outcome == "not prose", c.overlap_prefix


def test_a_lead_in_travels_with_what_it_introduces() -> None:
    intro = PROSE * 4
    lead = "Run the server from the project root with the command below:"
    fence = "```console\n$ uvicorn main:app --reload --port 8000\n```"
    listing = '<Listing number="1-1" file-name="main.rs" caption="Hello">'
    code = '```rust\nfn main() {\n    println!("Hello, world!");\n}\n```'
    text = f"## Run\n\n{intro}\n\n{lead}\n\n{fence}\n\n"
    text += f"{intro}\n\n{listing}\n\n{code}\n\n</Listing>\n"
    for size in (400, 450):
        out = chunk(text, "structural", size, 40)
        assert not any(c.body.rstrip().endswith((lead, listing)) for c in out), [
            c.body[-70:] for c in out
        ]
        assert any(lead in c.body and "uvicorn" in c.body for c in out)
        assert any(listing in c.body and "fn main" in c.body for c in out)


def test_a_listing_tag_without_a_caption_travels_with_its_code() -> None:
    # the rule knows any lone opening tag, not only one with a caption
    code = '```rust\nfn main() {\n    println!("Hello, world!");\n}\n```'
    for listing in ('<Listing file-name="src/main.rs">', "<Listing>"):
        for k in (1, 2, 3):
            text = f"## Run\n\n{PROSE * k}\n\n{listing}\n\n{code}\n\n</Listing>\n\nDone.\n"
            for size in range(150, 460, 10):
                out = chunk(text, "structural", size, 0)
                assert not any(c.body.rstrip().endswith(listing) for c in out[:-1]), (size, k)
                assert any(listing in c.body and "fn main" in c.body for c in out), (size, k)


def test_a_heading_inside_a_list_item_leads_the_text_below_it() -> None:
    # a heading written inside an item is no section of its own: it is a part of
    # the item, and travels with the part after it as a top-level heading would
    body = " ".join(f"Step {i} of the design is explained in this sentence." for i in range(12))
    item = "* An item that says what the design is for.\n\n  ### Implementation"
    text = f"# Design\n\n{item}\n\n  {body}\n\n* Next.\n"
    for size in range(120, 260, 10):
        out = chunk(text, "structural", size, 0)
        assert not any(c.body.rstrip().endswith("### Implementation") for c in out), size
        assert any("### Implementation" in c.body and "Step 0" in c.body for c in out), size


def test_a_comment_line_in_code_is_no_heading() -> None:
    # in a fence "#" opens a comment: a cut may follow it as any code line
    code = "\n".join(f"# step {i}\nx{i} = compute_value({i}) + other_thing({i})" for i in range(10))
    out = chunk(f"Intro.\n\n```python\n{code}\n```\n", "structural", 200, 0)
    assert any(c.body.rstrip().endswith(("# step 3", "# step 7")) for c in out)


def test_a_listing_tag_under_its_text_travels_with_the_listing() -> None:
    # with no blank line above it, a lone opening tag is the paragraph's last line
    # (HTML of this kind cannot interrupt a paragraph): no caption, no block of its own
    intro = PROSE * 4
    listing = '<Listing file-name="src/main.rs">'
    code = '```rust\nfn main() {\n    println!("Hello, world!");\n}\n```'
    text = f"## Run\n\n{intro}\n{listing}\n\n{code}\n\n</Listing>\n\n{PROSE}\n"
    for size in (400, 450):
        out = chunk(text, "structural", size, 40)
        assert not any(c.body.rstrip().endswith(listing) for c in out), [c.body[-70:] for c in out]
        assert any(listing in c.body and "fn main" in c.body for c in out)


def test_a_long_lead_in_keeps_its_last_sentence_with_what_it_introduces() -> None:
    lead = PROSE * 8 + "To circumvent this, the rebuild method can be used:"
    lines = "".join(f"print('line {i} of the example')\n" for i in range(20))
    fence = f"```python\n{lines}```"
    text = f"## Rebuild\n\n{lead}\n\n{fence}\n"
    # the lead-in is cut at its sentences; its last piece opens the fence's chunk
    out = chunk(text, "structural", 500, 40)
    assert not any(c.body.rstrip().endswith("can be used:") for c in out), [
        c.body[-40:] for c in out
    ]
    assert any(c.body.startswith("The audit") and "```python" in c.body for c in out)


# -- at small sizes a title or lead-in leads the first piece of a block cut to fit ------------
SMALL = range(120, 260, 10)
STEPS = " ".join(f"Step {i} of the restart is written down in this sentence." for i in range(3))


def _stranded(out, *titles: str) -> list[str]:
    """The chunks but the last that end with one of ``titles``."""
    return [c.body[-60:] for c in out[:-1] if c.body.rstrip().endswith(titles)]


def test_a_long_heading_leads_the_first_sentences_of_its_paragraph() -> None:
    # the heading leaves less than a floor's worth of room at the smaller sizes: the
    # paragraph's first piece fills what it leaves of the effective maximum
    heading = "## Restarting the feed pump after an unplanned trip of the boiler plant, by night"
    heading += " and by day"
    text = f"{PROSE}\n\n{heading}\n\n{STEPS}\n\n{PROSE}\n"
    for size in SMALL:
        out = chunk(text, "structural", size, 0)
        assert not _stranded(out, heading), size
        (holder,) = [c for c in out if heading in c.body]
        assert "Step 0" in holder.body and holder.length <= ChunkOptions(size, 0).effective_max


def test_a_lead_in_opens_the_list_it_introduces_cut_at_its_items() -> None:
    lead = "Before the pump is restarted, check each of the following:"
    items = "\n".join(f"- Valve {i} is closed and tagged by the shift engineer." for i in range(4))
    text = f"## Restart\n\n{PROSE * 2}\n\n{lead}\n\n{items}\n\n{PROSE}\n"
    for size in SMALL:
        out = chunk(text, "structural", size, 0)
        assert not _stranded(out, lead), size
        assert any(lead in c.body and "- Valve 0" in c.body for c in out), size


def test_a_tab_title_and_its_lead_in_lead_the_first_lines_of_its_code() -> None:
    # the code fits a chunk of its own, but not beside the two: it is cut at its lines
    lead = "Restart the pump from the shell of the host it runs on, as below:"
    code = "\n".join(f"    sudo systemctl restart pump-{i}" for i in range(4))
    text = (
        f'## Install\n\n{PROSE}\n\n{lead}\n\n=== "Linux"\n\n    ```sh\n{code}\n    ```\n\nDone.\n'
    )
    for size in SMALL:
        out = chunk(text, "structural", size, 0)
        assert not _stranded(out, '=== "Linux"', lead), size
        assert any(c.body.startswith(lead) and "```sh" in c.body for c in out), size


def test_an_admonition_title_and_its_lead_in_lead_its_body_cut_at_its_sentences() -> None:
    lead = "Before anyone opens the casing of the pump, read the warning below:"
    body = "    " + STEPS
    text = f'## Safety\n\n{PROSE}\n\n{lead}\n\n!!! warning "Isolate the pump"\n\n{body}\n\nDone.\n'
    for size in SMALL:
        out = chunk(text, "structural", size, 0)
        assert not _stranded(out, '"Isolate the pump"', lead), size
        assert any("Isolate the pump" in c.body and "Step 0" in c.body for c in out), size


def test_anchors_lead_the_paragraph_they_annotate() -> None:
    comment = "<!-- The restart steps below are linked from the control room's wall chart. -->"
    anchor = '<a id="feed-pump-restart"></a>'
    text = f"## Restart\n\n{PROSE * 2}\n\n{comment}\n{anchor}\n\n{STEPS}\n\n{PROSE}\n"
    for size in SMALL:
        out = chunk(text, "structural", size, 0)
        assert not _stranded(out, anchor), size
        assert any(anchor in c.body and "Step 0" in c.body for c in out), size


def test_a_lead_in_inside_a_list_item_leads_the_item_after_it() -> None:
    item = "- Email notifications sent after performing an action:\n"
    sub = "    - " + STEPS
    text = f"## Tasks\n\n{PROSE}\n\n{item}{sub}\n- Processing data.\n"
    for size in SMALL:
        out = chunk(text, "structural", size, 0)
        assert not _stranded(out, "an action:"), size


def test_a_word_too_long_to_fit_beside_a_heading_leaves_it_behind() -> None:
    # the one exception: what follows has no seam within reach (one unit)
    heading = "## " + "Restarting the feed pump " * 7
    url = "https://example.com/" + "x" * 200
    text = f"{PROSE}\n\n{heading.strip()}\n\n{url} is the procedure.\n"
    out = chunk(text, "structural", 200, 0)
    assert out[1].body == heading.strip()
    assert out[2].body.startswith("https://")


def test_a_colon_inside_a_sentence_or_a_bracket_leads_nothing() -> None:
    # "(default:" ends a line of a paragraph only where the paragraph wraps: no lead-in
    assert not is_lead("an option (default:\n`true`) to allow it", 0, 19)
    assert not is_lead("see [Query Parameters and String Validations:", 0, 45)
    assert not is_lead("* `openapi_url`: the URL of the schema", 0, 16)
    assert is_lead("* `openapi_url`:\n  the URL of the schema", 0, 16)
    # nor does an element with no content
    assert not is_lead('<input class="md-input" placeholder="Search icon" />', 0, 52)
    assert not is_lead("<img src='logo.png'>", 0, 20)
    assert is_lead('<div class="result" markdown>', 0, 29)


def test_a_tab_title_is_never_cut_to_fit_beside_a_lead_in() -> None:
    # a title is one unit, as a heading is: when it does not fit beside the lead-in,
    # the lead-in stays behind and the title opens the next chunk whole
    lead = "Pick the tab of the system the pump controller runs on and follow the steps it lists:"
    tab = '=== "Linux with the systemd service manager"'
    code = "    sudo systemctl restart pump"
    text = f"## Install\n\nSome words first.\n\n{lead}\n\n{tab}\n\n{code}\n"
    for size in range(90, 130, 10):
        out = chunk(text, "structural", size, 0)
        assert any(tab in c.body for c in out), [c.body for c in out]
