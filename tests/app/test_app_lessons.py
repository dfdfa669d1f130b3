"""The lessons told right: what a user sees for each lab's fixes (Streamlit AppTest)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.app.app_harness import (
    all_text,
    captions,
    chunk_view_html,
    click,
    curve_key,
    html_bodies,
    open_app,
    open_lab,
    plotly_specs,
    rerun,
    set_widget,
    upload,
    vega_chart,
    vega_charts,
    verdicts,
)

ROOT = Path(__file__).resolve().parents[2]


def _click_curve(at, name: str, size: int) -> None:
    at.session_state[curve_key(at, name)] = {"selection": {"points": [{"x": size, "y": 1}]}}
    rerun(at)


# --------------------------------------------------------------------------- lab 1


def test_clicking_the_same_point_twice_moves_the_slider_both_times():
    at = open_app()
    _click_curve(at, "lab1_curve", 22)
    assert at.slider(key="size").value == 22
    set_widget(at, "slider", "size", 30)
    _click_curve(at, "lab1_curve", 22)  # the same point again
    assert at.slider(key="size").value == 22
    assert verdicts(at)[0].startswith("✓")


def test_the_size_table_shows_every_row_without_an_inner_scroll():
    at = open_app()
    [table] = at.table  # a static table: every row on the page
    rows = table.value
    assert list(rows["Chunk size"]) == [
        "8-16", "17", "18-20", "21-22", "23-25", "26-29",
        "30-33", "34-44", "45-50", "51-88", "89-100", "101+",
    ]  # fmt: skip
    assert not any("Chunk size" in d.value.columns for d in at.dataframe)


def test_lab1_explains_the_second_split_in_its_own_words():
    at = open_app()
    text = all_text(at)
    assert "Why the answer splits again at 89-100 words" in text
    assert "The answer occupies words 89-101 of the document" in text
    assert "every size from 89 to 100 ends the very first chunk inside it" in text
    assert "published lottery table" in text and "52+ ✓" in text
    set_widget(at, "slider", "overlap", 5)  # the first-chunk rule is about no overlap
    assert "Why the answer splits again" not in all_text(at)


def test_no_page_names_a_document_the_user_does_not_have():
    pattern = re.compile(r"\bseeds? ?\d|\bissue ?#?\d", re.IGNORECASE)
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("lab_pages", "ui")
        for path in sorted((ROOT / folder).glob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]
    assert offenders == []


# --------------------------------------------------------------------------- lab 4

MUMBAI = "| Mumbai | FY24 | 18,412 | 4.2% |"


def test_lab4_the_orphan_is_the_headerless_row_then_the_structural_fix():
    at = open_lab("runts")
    [orphan] = [e.value for e in at.error if "orphan row" in e.value]
    assert orphan.startswith(f"fixed, no overlap: the orphan row {MUMBAI} is cut off without")
    assert "(chunk 3, 34 chars" in orphan and "ranks #1" in orphan and "#3 with" in orphan
    first = at.dataframe[0].value  # the fixed-size chunks: the row's chunk has no header
    row = first[first["holds the Mumbai row"] == "✓"].iloc[0]
    assert row["length (chars)"] == 34 and row["table header"] == ""
    assert [s.value for s in at.subheader][:2] == [
        "The revenue report: a row without its header",
        "The structural fix",
    ]
    fix = [e.value for e in at.success if e.value.startswith("structural, runt merge backward")]
    assert fix and "the row sits with its table in chunk 3 (1833 chars" in fix[0]
    assert "261" not in " ".join(
        e.value for e in at.error
    )  # the header-repeating runt is not "the orphan"


def test_lab4_forward_and_backward_differ_live_on_a_shipped_document():
    at = open_lab("runts")
    [line] = [m.value for m in at.markdown if m.value.startswith("**Why backward, live:**")]
    assert "depot_reconciliation.md at 1,800 characters" in line
    assert "[1414, 1734, 358, 211]" in line
    assert "[1414, 2094, 211], and 1 runt(s) ([211]) survive" in line
    assert "[1414, 1734, 571], 0 runt(s)" in line


def test_lab4_inflation_note_sits_off_the_plot():
    at = open_lab("runts")
    click(at, "preset_runts")
    spec = vega_chart(at, "Score against length")
    [layer] = [la for la in spec["layer"] if la["data"]["name"] == "note"]
    [note] = spec["datasets"]["note"]
    assert note["line"].startswith("inflation ×") and len(note["line"].split("\n")) == 3
    # the block of lines ends above the plot area's top (y is in pixels from that top),
    # and the title stands above the block
    style = spec["config"]["style"][layer["mark"]["style"]]
    assert style["baseline"] == "top" and style["y"] + 3 * style["lineHeight"] < 0
    assert spec["config"]["title"]["offset"] > -style["y"]
    # for a projector the note goes, like every explanation; the sentence under it stays
    set_widget(at, "toggle", "presenter", True)
    spec = vega_chart(at, "Score against length")
    assert "note" not in spec["datasets"] and len(spec["layer"]) == 2
    assert spec["config"]["axis"]["labelFontSize"] >= 1.5 * 12
    assert "**inflation: the shortest chunk (478 chars) scores ×1.33" in all_text(at)


def test_lab4_at_k1_zero_length_buys_nothing():
    at = open_lab("runts")
    click(at, "preset_runts")
    set_widget(at, "radio", "lab4_runt_merge", "off")
    set_widget(at, "slider", "k1", 0.0)
    spec = vega_chart(at, "Score against length")
    assert len({round(r["score"], 9) for r in spec["datasets"]["theory"]}) == 1  # flat
    assert spec["datasets"]["note"][0]["line"].startswith("inflation ×1.00")
    # the runt and the 1,318-char chunk hold the same question words: the same score
    points = {r["length"]: r["score"] for r in spec["datasets"]["points"]}
    assert points[261] == points[1318] > points[478] == points[1799]
    assert not [i.value for i in at.info if "the ranking is a tie" in i.value]


# --------------------------------------------------------------------------- pins


def _goto(at, page: str):
    at.switch_page(page)
    return rerun(at)


def test_a_pin_restores_every_control_of_its_lab():
    at = open_lab("runts")
    click(at, "preset_runts")
    set_widget(at, "slider", "k1", 2.0)
    set_widget(at, "slider", "b", 0.3)
    set_widget(at, "radio", "lab4_runt_merge", "forward")
    click(at, "pin_runts")
    _goto(at, "lab_pages/lab5_tables.py")
    set_widget(at, "toggle", "lab5_no_heading", True)
    click(at, "pin_tables")
    _goto(at, "lab_pages/lab6_integrity.py")
    set_widget(at, "select_slider", "lab6_k", 3)
    click(at, "pin_integrity")
    pins = at.session_state["pins"]
    assert pins[0].config["k1"] == 2.0 and pins[0].config["runt_merge"] == "forward"

    # move every control away, then restore each pin
    _goto(at, "lab_pages/lab4_runts.py")
    set_widget(at, "slider", "k1", 0.5)
    set_widget(at, "radio", "lab4_runt_merge", "off")
    _goto(at, "lab_pages/lab7_notebook.py")
    click(at, "restore_0")
    assert at.title[0].value == "4. Runts and BM25"
    assert at.slider(key="k1").value == 2.0 and at.slider(key="b").value == 0.3
    assert at.radio(key="lab4_runt_merge").value == "forward"
    assert not at.warning  # restored without a widget complaining about its value
    _goto(at, "lab_pages/lab7_notebook.py")
    click(at, "restore_1")
    assert at.title[0].value.startswith("5. ") and at.toggle(key="lab5_no_heading").value is True
    _goto(at, "lab_pages/lab7_notebook.py")
    click(at, "restore_2")
    assert at.title[0].value == "6. Integrity check" and at.select_slider(key="lab6_k").value == 3


# --------------------------------------------------------------------------- a wrong answer

NOTES = (
    "# Retention\n\nAudit logs are retained for four hundred days to satisfy the compliance "
    "requirement, after which they are deleted. Backups run nightly and are kept for a month.\n"
)
MISSING = (
    "answer not found in the document: 'this sentence is nowhere': pick an answer that "
    "appears in the document."
)


def _paste(at, answer: str):
    at.text_input(key="own_question").input("how long are audit logs kept?")
    set_widget(at, "radio", "answer_mode", "paste it")
    at.text_area(key="answer_paste").input(answer)
    return rerun(at)


def test_a_wrong_answer_warns_in_place_and_keeps_the_lab():
    at = _paste(upload(open_app(), "notes.md", NOTES), "this sentence is nowhere")
    assert [w.value for w in at.warning] == [MISSING]
    assert any(c.startswith("chunks: ") for c in captions(at))  # the chunk view stays
    assert 'class="chunk-card"' in "".join(html_bodies(at))
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == ["Export chunks (JSONL)", "Export chunks (CSV)"]  # the export stays
    click(at, "pin_boundary")  # the pin stays, and keeps the warning as its verdict
    assert at.session_state["pins"][0].verdict == MISSING
    for page, chart in (
        ("lab_pages/lab4_runts.py", "BM25 score per chunk"),
        ("lab_pages/lab6_integrity.py", "Chunk lengths"),
    ):
        at.switch_page(page)
        rerun(at)
        assert [w.value for w in at.warning] == [MISSING]
        assert any(s.get("title") == chart for s in vega_charts(at))


def test_a_pasted_answer_does_not_carry_over_to_a_new_upload():
    at = _paste(upload(open_app(), "notes.md", NOTES), "Backups run nightly")
    assert verdicts(at)[0].startswith("✓")
    at.file_uploader(key="upload").upload(
        "other.md", b"# Other\n\nNothing to see.\n", "text/markdown"
    )
    rerun(at)
    assert at.text_area(key="answer_paste").value == ""
    assert not at.warning and verdicts(at)[0].startswith("no answer picked")


# --------------------------------------------------------------------------- lab 2 and the cards


def test_lab2_heatmap_has_a_colour_legend_a_percent_axis_and_honest_colour_words():
    from ui import palette

    at = open_lab("overlap")
    spec = next(s for s in plotly_specs(at) if s["layout"]["title"]["text"].startswith("Lottery"))
    title = spec["layout"]["title"]["text"]
    heat = next(t for t in spec["data"] if t["type"] == "heatmap")
    assert heat["showscale"] is True
    assert heat["colorbar"]["ticktext"] == ["✗ split", "✓ intact"]
    assert "%" in spec["layout"]["yaxis"]["title"]["text"]
    assert all(label.endswith("%") for label in heat["y"])
    # the words name the colours drawn: vermillion is not called plain "red"
    assert "red = split" not in title.replace("orange-red", "")
    assert f"{palette.COLOUR_WORDS[palette.SPLIT]} = split" in title
    drawn = {c for _, c in heat["colorscale"]}
    assert drawn == {palette.SPLIT, palette.INTACT}


def test_chunk_cards_speak_the_labs_unit_only():
    at = open_app(overlap="12")  # 24 words, 12 words of overlap
    cards = chunk_view_html(at)[1]
    assert "24 words · prose" in cards and "+12 words overlap" in cards
    assert "chars overlap" not in cards
    set_widget(at, "radio", "unit", "chars")  # 150 chars of overlap
    set_widget(at, "slider", "size", 400)
    cards = chunk_view_html(at)[1]
    assert re.search(r"\+\d[\d,]* chars overlap", cards) and "words overlap" not in cards


# --------------------------------------------------------------------------- lab 3

# One table row of 200 words: no strategy that keeps a row whole can stay within 24 words.
LONG_ROW = "the carrier keeps the pallet on the dock until the depot signs " * 16
TABLE_DOC = f"# Rates\n\n| lane | terms |\n|---|---|\n| north | {LONG_ROW.strip()} |\n"
ROW_ANSWER = "the carrier keeps the pallet on the dock until the depot signs the carrier"


def test_lab3_shows_each_strategys_largest_chunk_and_flags_passing_the_size():
    at = _paste(upload(open_app(), "rates.md", TABLE_DOC), ROW_ANSWER)
    at.switch_page("lab_pages/lab3_structure.py")
    rerun(at)
    flags = [w.value for w in at.warning if "ignored the size" in w.value]
    assert flags, "a strategy that passed the size is flagged"
    # 24 + a floor of 6, less one
    structural = [f for f in flags if "past the effective maximum of 29 words" in f]
    assert structural and all(
        f.endswith(": it survives because it ignored the size") for f in structural
    )
    kept = [c for c in captions(at) if c.startswith("largest chunk ")]
    # fixed keeps to it
    assert any(c.endswith("words, within the effective maximum (29)") for c in kept)
    within = "within the effective maximum"
    table = next(d.value for d in at.dataframe if within in d.value.columns)
    assert dict(zip(table["strategy"], table[within], strict=True))["Fixed size"] == "✓"
    assert "✗ ignored it" in set(table[within])
    assert not any("within the size" in c for c in captions(at))
    assert max(table["largest chunk (words) at 24"]) > 200


# --------------------------------------------------------------------------- small things

PLATFORM = (ROOT / "sample_docs" / "platform_data.md").read_text(encoding="utf-8")
AUDIT_Q = "how long are audit logs kept?"
AUDIT_A = "Audit logs are retained for four hundred days"
GOLD = (
    f'{{"question": "{AUDIT_Q}", "answer": "{AUDIT_A}"}}\n'
    '{"question": "how often do backups run?", "answer": "run nightly"}\n'
).encode()


def _upload_with_gold(at):
    upload(at, "notes.md", PLATFORM)
    at.switch_page("lab_pages/lab6_integrity.py")
    rerun(at)
    at.file_uploader(key="lab6_gold").upload("gold.jsonl", GOLD, "application/jsonl")
    return rerun(at)


def test_a_gold_file_loaded_on_lab6_serves_lab3_too():
    at = _upload_with_gold(open_app())
    at.switch_page("lab_pages/lab3_structure.py")
    rerun(at)
    assert "no gold set" not in all_text(at).lower()
    assert "Gold set: answers intact at size" in all_text(at)
    assert "(2 questions)" in all_text(at)
    [gold] = vega_charts(at)
    assert len(gold["datasets"]["bars"]) == 4  # a bar per strategy
    at.switch_page("lab_pages/lab6_integrity.py")  # back on lab 6 the set is still there
    rerun(at)
    assert "Gold set: 2 pair(s) from gold.jsonl, loaded earlier." in captions(at)


def test_your_own_question_is_listed_once_when_the_gold_file_holds_it():
    at = _upload_with_gold(open_app())
    at.selectbox(key="question").set_value(-1)
    rerun(at)
    at.text_input(key="own_question").input(AUDIT_Q)
    set_widget(at, "radio", "answer_mode", "paste it")
    at.text_area(key="answer_paste").input(AUDIT_A)
    rerun(at)
    questions = list(next(t.value for t in at.table if "question" in t.value.columns)["question"])
    assert questions.count(AUDIT_Q) == 1 and len(questions) == 2
    assert "Your question is already in the gold set: it is listed once." in captions(at)


def test_notebook_markdown_writes_numbers_and_the_question(downloads):
    at = open_lab("runts")
    click(at, "preset_runts")
    click(at, "pin_runts")
    at.switch_page("lab_pages/lab7_notebook.py")
    rerun(at)
    md = downloads.of(at, "Export notebook (Markdown)").decode()
    assert "| k1 | 1.2 |" in md and "\\." not in md
    assert "Question: “what was Mumbai's FY24 revenue?”" in md
    assert "q=0" not in md
