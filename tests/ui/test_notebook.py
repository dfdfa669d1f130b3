from datetime import UTC, datetime
from html import escape

import pytest
from markdown_it import MarkdownIt

from ui.present.notebook import NotebookError, from_json, make_pin, to_json, to_markdown

NOW = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)


def pin(**kw):
    base = dict(
        lab="boundary",
        title="Boundary lottery",
        config={"doc": "platform_data", "size": 24, "overlap": 0},
        verdict="✗ answer split across chunks 4 and 5: unretrievable at any k",
        numbers={"chunks": 8, "flips": 6},
        note="  first | try  ",
        now=NOW,
    )
    base.update(kw)
    return make_pin(**base)


def test_json_round_trip():
    pins = [pin(), pin(lab="runts", title="Runts and BM25", note="", numbers={"k1": 1.2})]
    assert from_json(to_json(pins)) == pins
    assert pins[0].note == "first | try" and pins[0].created == "2025-01-02T03:04:05+00:00"


def test_markdown_lists_config_verdict_numbers_and_note():
    md = to_markdown([pin()])
    assert "## 1. Boundary lottery" in md
    assert "Configuration: doc=platform_data, size=24, overlap=0" in md
    assert "**Verdict:** ✗ answer split" in md
    assert "| chunks | 8 |" in md
    # the note reads as typed once rendered: its "|" is not a table cell border
    assert "<blockquote>\n<p>first | try</p>\n</blockquote>" in render(md)
    assert to_markdown([]).strip().endswith("_No pins yet._")


def render(md: str) -> str:
    """What a reader of the exported Markdown sees: CommonMark with GitHub tables."""
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(md)


HOSTILE = (
    "<script>alert(1)</script> <img src=x onerror=alert(2)> <iframe src=x></iframe> "
    "[click](javascript:alert(3)) ![i](x) :red[x] **b** _i_ $x$ ~~s~~ `c` <div>d</div> &amp;"
)


def test_markdown_export_shows_every_field_as_written():
    note = "\n".join(
        [
            HOSTILE,
            "# not a heading",
            "- not a list",
            "1. not a list",
            "| a | b |",
            "| --- | --- |",
            "",
            "    not code",
            "```",
            "---",
            "## 2. A fake pin",
            "> quote",
        ]
    )
    hostile = pin(
        title=HOSTILE,
        verdict=HOSTILE,
        note=note,
        config={"doc": "<img src=x onerror=alert(4)>.md", "size": 24},
        numbers={HOSTILE: HOSTILE, "line\nbreak": "a | b"},
    )
    html = render(to_markdown([hostile, pin()]))
    # nothing a pin carries became an element: no script, image, frame, link, code,
    # emphasis, extra heading, list, extra table or rule; two pins, two sections
    for tag in (
        "<script",
        "<img",
        "<iframe",
        "<a ",
        "<code",
        "<em>",
        "<del>",
        "<h3",
        "<ul>",
        "<ol>",
        "<hr",
        "<pre",
        "<div",
    ):
        assert tag not in html, tag
    assert html.count("<h1>") == 1 and html.count("<h2>") == 2
    assert html.count("<table>") == 2 and html.count("<blockquote>") == 2
    assert html.count("<strong>") == html.count("<strong>Verdict:</strong>") == 2
    # and the text is all there, as written (HTML-escaped by the renderer)
    shown = escape(HOSTILE, quote=False)
    assert html.count(shown) == 5  # title, verdict, note, measure, value
    for line in (
        "# not a heading",
        "- not a list",
        "1. not a list",
        "## 2. A fake pin",
        "&gt; quote",
    ):
        assert line in html, line
    assert "doc=&lt;img src=x onerror=alert(4)&gt;.md" in html and "line break" in html


@pytest.mark.parametrize(
    "text,msg",
    [
        ("not json", "invalid JSON"),
        ("[]", "expected"),
        ('{"format": "x"}', "expected"),
        ('{"format": "chunk-lab-notebook", "pins": 3}', "not a list"),
        ('{"format": "chunk-lab-notebook", "pins": [{"lab": "x"}]}', "pin 1 has no"),
        (
            '{"format": "chunk-lab-notebook", "pins": [{"lab": "x", "title": "t", "config": []}]}',
            "config",
        ),
    ],
)
def test_bad_notebooks_are_one_line_errors(text, msg):
    with pytest.raises(NotebookError) as e:
        from_json(text)
    assert msg in str(e.value) and "\n" not in str(e.value)
