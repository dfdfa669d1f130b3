"""Lab 8, compare two configurations: the diff's figures on the current document."""

import json

from tests.app.app_harness import (
    PRICING,
    all_text,
    click,
    dataframes,
    open_app,
    open_lab,
    set_widget,
    upload,
)


def figures(at) -> dict[str, list[dict]]:
    """Each figure's table, by the subheader above it."""
    titles = [s.value for s in at.subheader][: len(dataframes(at))]
    return {t: d.to_dict("records") for t, d in zip(titles, dataframes(at), strict=True)}


def test_the_page_renders_a_sample_document_against_b() -> None:
    at = open_lab("compare", **PRICING)
    assert at.title[0].value == "8. Compare two configurations"
    assert "**A** (the sidebar): `structural:chars:600:100`" in all_text(at)
    # B starts as A with the other strategy family
    assert at.selectbox(key="lab8_strategy").value == "fixed"
    assert at.number_input(key="lab8_size").value == 600
    [verdict] = [e.value for e in at.error]
    assert verdict.startswith("B is worse than A: intact share fell from 100.0% to 75.0%")
    figs = figures(at)
    assert list(figs) == [
        "Chunk sizes",
        "Atomic-element violations",
        "Gold set (ranks within k=10, by bm25 (lucene))",
        # fixed windows send more than a tenth more text at k: compared at A's cost too
        "At equal cost (4,242 chars a question: the cheaper side's context at k)",
        "Chunks per document",
    ]
    tables = {r["element"]: (r["A"], r["B"]) for r in figs["Atomic-element violations"]}
    assert tables["table without header"] == ("0 of 4 (0.0%)", "4 of 4 (100.0%)")
    # a cut at a boundary and a sentence whole in no chunk are two rows
    assert list(tables).index("sentence cut: whole in no chunk") == (
        list(tables).index("sentence cut") + 1
    )
    assert figs["Chunks per document"] == [
        {"document": "compute_pricing.md", "A": 17, "B": 14, "change": "-3"}
    ]
    # the changed chunks, side by side, as written
    subheaders = [s.value for s in at.subheader]
    assert subheaders[-1].startswith("The ") and subheaders[-1].endswith("most-changed chunks")
    text = open("sample_docs/compute_pricing.md", encoding="utf-8").read()
    # (line by line: a table fragment begins with a copy of its header)
    # (the page's own: the sidebar's code is the settings copied as code)
    assert len(at.main.code) >= 2
    assert all(line in text for c in at.main.code for line in c.value.splitlines())


def test_changing_b_changes_the_figures() -> None:
    at = open_lab("compare", **PRICING)
    before = figures(at)
    set_widget(at, "selectbox", "lab8_strategy", "structural")
    same = figures(at)
    assert same != before
    assert [e.value for e in at.error] == []
    assert [s.value for s in at.success] == [
        "B is not worse than A on any atomic element nor on intact share"
    ]
    assert same["Chunks per document"][0]["change"] == "0"
    set_widget(at, "number_input", "lab8_size", 300)
    smaller = figures(at)
    assert smaller["Chunks per document"][0]["B"] > smaller["Chunks per document"][0]["A"]
    assert smaller["Chunk sizes"] != same["Chunk sizes"]


def test_the_lab_opens_by_its_number_and_a_document_without_gold_has_no_gold_table() -> None:
    at = open_app(lab="8", doc="api_reference")
    assert at.title[0].value == "8. Compare two configurations"
    at = open_lab("compare")
    upload(at, "notes.md", "# Notes\n\nOne sentence here. Another one there.\n")
    assert not [s.value for s in at.subheader if s.value.startswith("Gold set")]
    assert "Chunk sizes" in [s.value for s in at.subheader]


def test_pin_and_export(downloads) -> None:
    at = open_lab("compare", **PRICING)
    click(at, "pin_compare")
    [pin] = at.session_state["pins"]
    assert pin.lab == "compare" and pin.verdict.startswith("B is worse than A")
    assert pin.numbers["B"] == "fixed:chars:600:100"
    md = downloads.of(at, "Export the diff (Markdown)").decode("utf-8")
    assert md.startswith("# Chunk-population diff\n")
    data = json.loads(downloads.of(at, "Export the diff (JSON)"))
    assert data["b"]["config"] == "fixed:chars:600:100" and data["worse"] is True


def test_a_hostile_document_is_shown_as_text() -> None:
    doc = (
        "# Notes <script>alert(1)</script>\n\n"
        "A [link](javascript:alert(2)) and **bold** and <img src=x onerror=alert(3)>.\n"
    )
    at = upload(open_lab("compare"), "<b>x</b>.md", doc)
    shown = all_text(at)
    assert "<script>" not in shown and "<img" not in shown and "<b>x</b>" not in shown
    assert figures(at)["Chunks per document"][0]["document"] == "<b>x</b>.md"
    assert any("<script>alert(1)</script>" in c.value for c in at.code)


def test_the_same_questions_top_score_under_a_and_b_and_why_they_differ() -> None:
    from chunkers import chunk_with
    from chunkers.options import ChunkOptions
    from lab.retrieval.bm25_variants import chunk_scores

    at = open_lab("compare", **PRICING)
    text = all_text(at)
    assert "The same question, scored under A and under B" in text
    assert "These two numbers cannot be compared" in text
    assert "the IDF is computed over the chunks" in text and "recall@k and MRR" in text
    [rows] = [t.value for t in at.table if "IDF" in " ".join(map(str, t.value.iloc[:, 0]))]
    table = {r[""]: (r["A"], r["B"]) for r in rows.to_dict("records")}
    # B's top score, worked out here over B's own chunks (fixed, 600 chars, overlap 100)
    doc = open("sample_docs/compute_pricing.md", encoding="utf-8").read()
    gold = open("sample_docs/compute_pricing.gold.jsonl", encoding="utf-8").readline()
    question = json.loads(gold)["question"]
    chunks = chunk_with(doc, "fixed", ChunkOptions(size=600, overlap=100, unit="chars"))
    best = max(s.score for s in chunk_scores(chunks, question))
    assert table["top score"][1] == f"{best:.3f}"
    assert table["chunks"] == ("17", "14")
    idf = [k for k in table if k.startswith("IDF of")]
    assert idf and any(table[k][0] != table[k][1] for k in idf)  # the weights moved
    set_widget(at, "radio", "bm25", "okapi")
    okapi = {
        r[""]: r["B"]
        for r in next(
            t.value for t in at.table if "IDF" in " ".join(map(str, t.value.iloc[:, 0]))
        ).to_dict("records")
    }
    assert okapi["top score"] != table["top score"][1]


def test_a_higher_top_score_is_not_a_better_chunking() -> None:
    # the Mumbai question: fixed windows score higher and rank the answer lower
    at = open_lab(
        "compare", doc="regional_revenue", strategy="structural", unit="chars", size="1800",
        overlap="150",
    )  # fmt: skip
    [rows] = [t.value for t in at.table if "IDF" in " ".join(map(str, t.value.iloc[:, 0]))]
    table = {r[""]: (r["A"], r["B"]) for r in rows.to_dict("records")}
    assert float(table["top score"][1]) > float(table["top score"][0])
    assert table["the answer's chunk: rank"] == ("#1", "#2")
    a, b = (float(v) for v in table["top score"])
    assert f"“what was Mumbai's FY24 revenue?”: top score **{a:.3f}** under A, **{b:.3f}**" in (
        all_text(at)
    )
