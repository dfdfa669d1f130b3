"""The diff report as people and machines read it: JSON, Markdown, HTML."""

from __future__ import annotations

import dataclasses
import html
import json
from html.parser import HTMLParser

from lab.inputs.gold import GoldQuestion, load_gold
from lab.measure.diff import build_diff, parse_config
from lab.report.diff_render import figures, to_html, to_json, to_markdown
from tests.support import SAMPLES

HOSTILE = (
    "# Notes <script>alert(1)</script>\n\n"
    "Intro with **bold** and a [link](javascript:alert(2)) & an <img src=x onerror=alert(3)>.\n\n"
    "| name | value |\n|---|---|\n"
    + "".join(f"| row {i} <b>{i}</b> | {i * 7} |\n" for i in range(30))
    + "\n```\ncode <tag> & stuff\n\nmore code\n```\n\nThe end of the notes is here.\n"
)
DOCS = {"notes|<b>.md": HOSTILE}
A = parse_config("structural:chars:300:0")
B = parse_config("fixed:chars:300:50")


def report():
    return build_diff(DOCS, A, B, limit=3)


def test_json_holds_every_figure_and_the_chunks_as_written() -> None:
    r = report()
    data = json.loads(json.dumps(to_json(r)))
    assert data["a"]["config"] == "structural:chars:300:0" and data["worse"] is True
    assert data["a"]["sizes"]["count"] == r.a.sizes.count
    assert data["b"]["violations"]["table without header"]["violations"] > 0
    assert data["regressions"] == r.regressions
    assert data["documents"] == [
        {"doc": "notes|<b>.md", "a": r.a.sizes.count, "b": r.b.sizes.count}
    ]
    assert len(data["changed"]) == 3
    first = data["changed"][0]
    for side in ("a", "b"):
        c = first[side]
        if c is not None:
            assert HOSTILE[c["start"] : c["end"]] in c["body"]


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def test_html_escapes_the_documents_and_shows_chunks_whole() -> None:
    page = to_html(report())
    parser = _Text()
    parser.feed(page)
    assert "script" not in parser.tags and "img" not in parser.tags and "b" not in parser.tags
    assert "<script>" not in page and "notes|&lt;b&gt;.md" in page
    shown = "".join(parser.text)
    first = report().changed[0]
    assert (first.a or first.b).body in shown  # a chunk's text, exactly as written
    assert "B is worse than A" in shown and "Atomic-element violations" in shown


def test_markdown_has_the_tables_and_side_by_side_chunks_without_live_markup() -> None:
    md = to_markdown(report())
    assert md.startswith("# Chunk-population diff\n")
    assert "A: `structural:chars:300:0` · B: `fixed:chars:300:50`" in md
    for fig in figures(report()):
        assert f"## {fig.title}" in md
    assert "| notes\\|&lt;b&gt;.md |" in md  # the file name is a cell, not markup
    assert "<script>" not in md and "<img" not in md and "<b>" not in md
    # each pair is one line of HTML (a blank line would end it inside Markdown)
    pairs = [line for line in md.splitlines() if line.startswith("<table>")]
    assert len(pairs) == 3
    first = report().changed[0]
    body = (first.a or first.b).body
    assert html.escape(body).replace("\n", "&#10;") in pairs[0]


def test_a_hostile_file_name_in_the_markdown_report_stays_text() -> None:
    bad = [("1. _a_ [l](u) <b>|x|.md", "not UTF-8")]
    md = to_markdown(dataclasses.replace(report(), unreadable=bad))
    assert "Not read: 1. \\_a\\_ \\[l\\](u) &lt;b&gt;\\|x\\|.md: not UTF-8" in md


def test_a_report_without_gold_has_no_gold_table_and_with_gold_has_one() -> None:
    assert [f.title for f in figures(report())] == [
        "Chunk sizes",
        "Atomic-element violations",
        "Chunks per document",
    ]
    text = (SAMPLES / "support_kb.md").read_text(encoding="utf-8")
    pairs = [
        GoldQuestion(p.question, p.answer, "kb")
        for p in load_gold(SAMPLES / "support_kb.gold.jsonl").questions
    ]
    with_gold = build_diff({"kb": text}, A, parse_config("fixed:words:50:0"), gold=pairs, k=3)
    [gold] = [f for f in figures(with_gold) if f.title.startswith("Gold set")]
    assert gold.title == "Gold set (ranks within k=3, by bm25 (lucene))"
    assert gold.rows[0] == ("intact share", "8 of 8 (100.0%)", "3 of 8 (37.5%)", "✗ worse")
    assert [r[0] for r in gold.rows] == [
        "intact share",
        "recall@1",
        "recall@3",
        "recall@5",
        "recall@10",
        "MRR",
        "token precision@3",
        "token IoU@3",
        "precision if recall were perfect",
        "context a question costs@3",
    ]


def test_the_advice_names_each_judge_when_the_judges_disagree() -> None:
    text = (SAMPLES / "api_reference.md").read_text()
    gold = load_gold(SAMPLES / "api_reference.gold.jsonl")
    r = build_diff(
        {"api_reference.md": text},
        parse_config("structural:chars:300:0"),
        parse_config("fixed:chars:1500:300"),
        gold=[dataclasses.replace(q, doc="api_reference.md") for q in gold.questions],
    )
    # -- a second judge that ranks the other way round (B's MRR given to A, A's to B)
    (ga,), (gb,) = r.a.judged, r.b.judged
    other_a = dataclasses.replace(ga, retriever="judge two", mrr=gb.mrr, ranks=gb.ranks)
    other_b = dataclasses.replace(gb, retriever="judge two", mrr=ga.mrr, ranks=ga.ranks)
    r = dataclasses.replace(
        r,
        a=dataclasses.replace(r.a, judged=(ga, other_a)),
        b=dataclasses.replace(r.b, judged=(gb, other_b)),
    )
    said = to_json(r)["advice"]
    # -- eight questions cannot tell either judge's difference from chance
    assert "By bm25 (lucene), the 8 questions cannot tell A and B apart: MRR 0.734 vs 0.875" in said
    assert "by judge two, the 8 questions cannot tell A and B apart: MRR 0.875 vs 0.734" in said
    assert "Next: take A: B wins on neither wholeness nor ranking." in said
    # -- and which comparison it leans on: B sends more text at k
    assert said.endswith("recall 1.000 vs 0.875.") and "leans on the comparison at equal" in said
