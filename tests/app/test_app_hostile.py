"""Markup injection: a document (and a file name, a note, a gold question) written
to break the page is shown as text in the chunk view and cards (escaped HTML),
in every Markdown element (escaped Markdown), in the tables (the raw text as
data), in the exports (the raw text, byte for byte) and in the pins (escaped on
screen, and in the notebook's Markdown export). tests/browser checks the live page."""

import json

import pytest
from markdown_it import MarkdownIt

from lab.inputs.exports import from_csv, from_jsonl
from lab.report.markup import md_escape
from tests.app.app_harness import (
    all_text,
    chunk_count,
    click,
    dataframes,
    html_bodies,
    open_lab,
    rerun,
    set_widget,
    upload,
    verdicts,
)
from ui.present.notebook import from_json

NAME = "<img src=x onerror=alert('name')>.md"
DOC = """# Release notes <b>bold?</b> :red[heading]

Before: <script>window.__pwned = "script"</script> and <img src=x onerror="window.__pwned='img'">.

An iframe: <iframe src="javascript:window.__pwned='iframe'"></iframe> and a
[harmless-looking link](javascript:window.__pwned='link') in markdown.

Streamlit-looking markup: :red[danger] **not bold** $x^2$ <div style="color:red">div</div>
&amp; &lt;b&gt;

| <b>col</b> | :red[c2] |
|---|---|
| <script>alert(1)</script> | **cell** |

Audit logs are retained for four hundred days to satisfy the compliance requirement.
"""
ANSWER = "Audit logs are retained for four hundred days to satisfy the compliance requirement."
RAW = [
    "<script",
    "<img",
    "<iframe",
    "<b>",
    "<div style",
    "](javascript:",
    ":red[",
    "**not bold**",
    "$x^2$",
]
ESCAPED = [
    "&lt;script&gt;window.__pwned",
    "&lt;img src=x onerror=",
    "&lt;iframe src=",
    "&lt;b&gt;bold?&lt;/b&gt;",
    "&lt;div style=",
    "[harmless-looking link](javascript:",
    ":red[danger] **not bold** $x^2$",
    "&amp;amp; &amp;lt;b&amp;gt;",
]
LABS = ["boundary", "overlap", "structure", "runts", "tables", "integrity"]


def _hostile(lab: str, strategy: str = "fixed"):
    at = open_lab(lab)
    upload(at, NAME, DOC)
    at.text_input(key="own_question").input("<script>alert('q')</script> audit logs?")
    set_widget(at, "radio", "answer_mode", "paste it")
    at.text_area(key="answer_paste").input(ANSWER)
    set_widget(at, "selectbox", "strategy", strategy)
    return at


def _no_raw_markup(at) -> None:
    shown = all_text(at) + "\n".join(b.proto.label for b in at.button)
    for raw in RAW:
        assert raw not in shown, raw
    for element in at.get("html"):
        body = element.proto.body
        if element.proto.unsafe_allow_javascript:  # only the app's own scroll script runs
            assert body.startswith("<script>/* view ") and "pwned" not in body, body
            continue
        for raw in RAW[:4] + ['<div style="color:red">']:
            assert raw not in body, raw
        assert "href" not in body and 'onerror="' not in body


@pytest.mark.parametrize("lab", LABS)
def test_every_lab_shows_the_document_as_text(lab):
    at = _hostile(lab)
    assert verdicts(at)[-1].startswith(("✓ answer intact in chunk", "✗ answer split across chunks"))
    _no_raw_markup(at)
    view = "".join(html_bodies(at))
    for escaped in ESCAPED:
        assert escaped in view, escaped  # the chunk view and the cards show it as written
    assert not at.exception


def test_tables_show_the_raw_text_as_data():
    at = _hostile("tables", strategy="structural")
    # the table's chunk as written: a Markdown cell, escaped to read as the document has it
    [first_line] = list(at.table[0].value["first line"])
    assert first_line in [md_escape(line) for line in DOC.splitlines() if "<" in line]
    paths = set(dataframes(at)[-1]["heading path"])
    # a heading path is the heading as a reader sees it (no HTML tags), shown as text:
    # the Markdown colour directive stays literal, not red
    assert "Release notes bold? :red[heading]" in paths
    _no_raw_markup(at)


def test_a_gold_question_is_shown_as_written():
    at = _hostile("integrity")
    gold = json.dumps(
        {"question": "<img src=x onerror=alert(9)> **how long**?", "answer": ANSWER}
    ).encode()
    at.file_uploader(key="lab6_gold").upload("<b>gold</b>.jsonl", gold, "application/jsonl")
    rerun(at)
    questions = list(at.table[1].value["question"])  # Markdown cells, escaped to read as typed
    assert md_escape("<img src=x onerror=alert(9)> **how long**?") in questions
    _no_raw_markup(at)


def test_a_hostile_file_name_in_an_error_is_text():
    at = open_lab("boundary")
    upload(at, "**<img src=x onerror=alert(1)>**.md", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    assert [e.value for e in at.error] == [
        "\\*\\*&lt;img src=x onerror=alert(1)&gt;\\*\\*.md looks like a binary file, not text; "
        "pick a plain-text file (export documents as .md or .txt first)"
    ]


def test_exports_hold_the_raw_text_and_read_back(downloads):
    at = _hostile("boundary")
    jsonl = downloads.of(at, "Export chunks (JSONL)").decode("utf-8")
    cfg, chunks = from_jsonl(jsonl)
    assert cfg["document"] == NAME and len(chunks) == chunk_count(at) > 1
    assert all(c.body == DOC[c.start : c.end] for c in chunks)
    assert " ".join(c.body for c in chunks).split() == DOC.split()  # every word, as written
    assert from_csv(downloads.of(at, "Export chunks (CSV)").decode("utf-8")) == (cfg, chunks)


def test_pins_are_text_on_screen_and_in_both_notebook_exports(downloads):
    at = _hostile("boundary")
    note = "<script>alert('note')</script> :red[x] **b** $x$\n# not a heading\n| a | b |\n|---|---|"
    at.text_input(key="pin_note_boundary").input(note)
    click(at, "pin_boundary")
    at.switch_page("lab_pages/lab7_notebook.py")
    rerun(at)
    shown = "\n".join(m.value for m in at.markdown) + "\n".join(c.value for c in at.caption)
    assert "&lt;script&gt;alert('note')&lt;/script&gt; :red\\[x\\] \\*\\*b\\*\\* \\$x\\$" in shown
    assert (
        "> \\# not a heading" in shown and "doc=&lt;img src=x onerror=alert('name')&gt;.md" in shown
    )
    _no_raw_markup(at)

    pins = from_json(downloads.of(at, "Export notebook (JSON)").decode("utf-8"))
    assert pins == at.session_state["pins"] and pins[0].note == note
    html = (
        MarkdownIt("commonmark")
        .enable("table")
        .render(downloads.of(at, "Export notebook (Markdown)").decode())
    )
    for tag in ("<script", "<img", "<h1>Release", "<em>", "<strong>b"):
        assert tag not in html, tag
    assert html.count("<table>") == 1  # the numbers; the note's table stayed text
    assert "&lt;script&gt;alert('note')&lt;/script&gt; :red[x] **b** $x$" in html
