"""Lab 9 (small to big), Lab 10 (boilerplate) and Lab 6's histogram over a saved
baseline: what a user sees, reads and can pin (Streamlit AppTest)."""

from __future__ import annotations

import json

from lab.measure import drift
from tests.app.app_harness import (
    S2B,
    all_text,
    click,
    open_app,
    open_lab,
    rerun,
    set_widget,
    vega_chart,
)
from tests.support import SAMPLES

BP = dict(doc="warehouse_manual", q="0", strategy="sentence", unit="chars", size="500", overlap="0")


def _tables(at) -> list[list[dict]]:
    return [t.value.to_dict("records") for t in at.table]


# --------------------------------------------------------------------------- lab 9


def test_small_to_big_shows_children_parents_dedupe_and_the_budget() -> None:
    at = open_lab("small-to-big", **S2B)
    assert at.title[0].value == "9. Small to big"
    [line] = [i.value for i in at.info if i.value.startswith("The top 5 children")]
    assert line.startswith("The top 5 children resolve to 4 parent(s): the dedupe left out 1")
    hits = _tables(at)[0]
    assert [int(h["rank"]) for h in hits] == [1, 2, 3, 4, 5]
    assert sum(h["sent"] == "duplicate, left out" for h in hits) == 1
    chart = vega_chart(at, "Context sent for this question")
    bars = {r["delivered"]: r["context"] for r in chart["datasets"]["bars"]}
    assert bars["parents, every copy"] > bars["parents, deduplicated"]
    assert bars["plain chunks within the parents' budget"] <= bars["parents, deduplicated"]
    assert "Context sent: 3,669 chars (4,380 without the dedupe" in line
    # the gold sets: this document's, and every sample's
    subheaders = [s.value for s in at.subheader]
    assert subheaders[:2] == [
        "api_reference.md's gold set, k = 5",
        "Every sample's gold set (98 questions), k = 5",
    ]
    doc_gold = _tables(at)[1]
    assert [r["delivered"] for r in doc_gold] == [
        "plain chunks, top k",
        "children alone",
        "parents, deduplicated",
        "plain chunks within the parents' budget",
    ]
    recall = {r["delivered"]: float(r["recall@5"]) for r in doc_gold}
    assert recall["parents, deduplicated"] == 1.0
    assert recall["plain chunks within the parents' budget"] < 1.0


def test_small_to_big_shows_each_childs_headings() -> None:
    # a child of 200 characters rarely names its section: the table shows its path
    at = open_lab("small-to-big", **S2B)
    set_widget(at, "number_input", "lab9_child", 200)
    hits = _tables(at)[0]
    assert hits and all(h["child's headings"] for h in hits)
    # each under the document's title, as its first line names it, and some deeper
    title = (SAMPLES / "api_reference.md").read_text(encoding="utf-8").splitlines()[0]
    title = title.lstrip("# ")
    assert all(h["child's headings"].startswith(title) for h in hits)
    assert any(len(h["child's headings"]) > len(title) for h in hits)


def test_the_child_and_parent_sizes_and_k_change_the_figures() -> None:
    at = open_lab("small-to-big", **S2B)
    before = _tables(at)
    set_widget(at, "number_input", "lab9_child", 100)
    assert _tables(at) != before
    set_widget(at, "select_slider", "lab9_k", 3)
    assert [s.value for s in at.subheader][0] == "api_reference.md's gold set, k = 3"
    assert len(_tables(at)[0]) == 3


def test_small_to_big_pins_its_controls_and_restores_them() -> None:
    at = open_lab("small-to-big", **S2B)
    set_widget(at, "number_input", "lab9_child", 150)
    click(at, "pin_small-to-big")
    [pin] = at.session_state["pins"]
    assert pin.lab == "small-to-big" and pin.config["child_size"] == 150
    assert pin.config["parent_size"] == 1800 and pin.config["k"] == 5
    assert pin.numbers["duplicates removed"] >= 0 and "context (chars)" in pin.numbers


def test_small_to_big_opens_by_number_and_has_its_example_button() -> None:
    at = open_app(lab="9")
    assert at.title[0].value == "9. Small to big"
    click(at, "preset_small-to-big")
    assert at.query_params["doc"] == "api_reference" and at.query_params["size"] == "400"


def test_small_to_big_ranks_with_the_retriever_chosen(no_network) -> None:
    at = open_lab("small-to-big", **S2B)
    bm25_hits = _tables(at)[0]
    assert "Ranked by bm25 (lucene)." in all_text(at)
    set_widget(at, "radio", "lab9_retriever", "dense")
    assert not at.error and "Ranked by dense (wordllama)." in all_text(at)
    assert _tables(at)[0] != bm25_hits  # the children are the dense judge's top 5
    click(at, "pin_small-to-big")  # a pin keeps the choice
    [pin] = at.session_state["pins"]
    assert pin.config["retriever"] == "dense"


# --------------------------------------------------------------------------- lab 10


def test_boilerplate_finds_the_running_header_and_footer_and_measures_the_strip() -> None:
    at = open_lab("boilerplate", **BP)
    assert at.title[0].value == "10. Boilerplate"
    [found] = [w.value for w in at.warning if "repeated block(s)" in w.value]
    assert found.startswith("2 repeated block(s): 3,555 of 9,291 characters (38%)")
    tables = _tables(at)
    findings = tables[0]
    assert [f["carried by"] for f in findings] == ["12 of 12 pages"] * 2
    assert findings[0]["text"].startswith("Confidential. This manual is for the internal use")
    # a count over a thousand reads as the sentence above writes it
    assert sum(int(f["characters"].replace(",", "")) for f in findings) == 3555
    assert any("," in f["characters"] for f in findings)
    intercepts = tables[1]
    assert intercepts and all(int(r["rank"]) <= 3 for r in intercepts)
    before_after = tables[2]
    assert [r["text"] for r in before_after] == ["as given", "stripped"]
    assert float(before_after[1]["MRR"]) > float(before_after[0]["MRR"])
    assert int(before_after[1]["chunks"]) < int(before_after[0]["chunks"])
    spread = vega_chart(at, "How alike the scores are")
    assert {r["text"] for r in spread["datasets"]["bars"]} == {"as given", "stripped"}
    assert len(spread["datasets"]["bars"]) == 20  # ten questions, as given and stripped


def test_a_document_without_pages_is_one_line_and_the_chunk_view_stays() -> None:
    at = open_lab("boilerplate", doc="support_kb")
    [w] = [w.value for w in at.warning]
    assert w.startswith("support_kb.md has no '## Page N' sections: per-page detection needs")
    assert w.endswith("(or pick warehouse_manual.md, a converted PDF).")
    assert not at.exception and any(c.startswith("chunks: ") for c in (x.value for x in at.caption))


def test_boilerplate_k_is_pinned() -> None:
    at = open_lab("boilerplate", **BP)
    set_widget(at, "select_slider", "lab10_k", 5)
    assert "top 5 of questions" in all_text(at)
    click(at, "pin_boilerplate")
    [pin] = at.session_state["pins"]
    assert pin.config["k"] == 5 and pin.numbers["chunks mostly boilerplate"] > 0


def test_boilerplate_measures_the_strip_with_the_retriever_chosen(no_network) -> None:
    at = open_lab("boilerplate", **BP)
    bm25_before_after = _tables(at)[2]
    set_widget(at, "radio", "lab10_retriever", "dense")
    assert not at.error
    assert "An embedding sees boilerplate as text like any other" in all_text(at)
    before_after = _tables(at)[2]
    assert [r["text"] for r in before_after] == ["as given", "stripped"]
    assert before_after != bm25_before_after  # the gold set's ranks are the dense judge's


# --------------------------------------------------------------------------- lab 6 overlay


def _baseline(tmp_path, **config) -> bytes:
    from chunkers import ChunkOptions, chunk_with
    from lab.inputs.documents import read_folder

    docs = {d.name: d.text for d in read_folder(SAMPLES)[0]}
    opts = ChunkOptions(**config)
    chunked = {n: chunk_with(t, "fixed", opts) for n, t in docs.items()}
    path = tmp_path / "baseline.json"
    drift.save_baseline(drift.snapshot(docs, chunked, "fixed", opts), path)
    return path.read_bytes()


def test_lab6_histogram_overlays_an_uploaded_baseline(tmp_path) -> None:
    at = open_lab("integrity")  # the example: fixed, 50 words
    assert vega_chart(at, "Chunk lengths")["title"] == "Chunk lengths"
    raw = _baseline(tmp_path, size=50, overlap=0, unit="words")
    at.file_uploader(key="lab6_baseline").upload("baseline.json", raw, "application/json")
    rerun(at)
    chart = vega_chart(at, "Chunk lengths against the baseline")
    now, base = chart["datasets"]["now"], chart["datasets"]["baseline"]
    assert len(now) == len(base) == 21
    assert abs(sum(r["share"] for r in base) - 1) < 1e-9
    assert sum(r["chunks"] for r in now) == int(
        next(c for c in (x.value for x in at.caption) if c.startswith("chunks: ")).split()[1]
    )
    assert at.selectbox(key="lab6_baseline_source").options[0] == drift.ALL


def test_lab6_refuses_a_baseline_it_cannot_read_in_one_line(tmp_path) -> None:
    at = open_lab("integrity")
    old = json.loads(_baseline(tmp_path, size=50, overlap=0, unit="words"))
    old["version"] = 0
    at.file_uploader(key="lab6_baseline").upload(
        "old.json", json.dumps(old).encode(), "application/json"
    )
    rerun(at)
    refusal = (
        "old.json was saved by another version of chunk-lab (baseline format 0, this one reads "
        "2); save a new baseline with --save-baseline"
    )
    assert [e.value for e in at.error if not e.value.startswith("✗")] == [refusal]
    assert vega_chart(at, "Chunk lengths")["title"] == "Chunk lengths"  # the plain histogram
    at.file_uploader(key="lab6_baseline").upload(
        "chars.json", _baseline(tmp_path, size=1800, overlap=0, unit="chars"), "application/json"
    )
    rerun(at)
    assert any(
        w.value == "chars.json counts chars; set the unit to chars to overlay it."
        for w in at.warning
    )


def test_a_restored_pin_puts_the_sizes_back() -> None:
    at = open_lab("small-to-big", **S2B)
    set_widget(at, "number_input", "lab9_child", 150)
    click(at, "pin_small-to-big")
    set_widget(at, "number_input", "lab9_child", 300)
    at.switch_page("lab_pages/lab7_notebook.py")
    rerun(at)
    [restore] = [b for b in at.button if b.key and b.key.startswith("restore")]
    restore.click()
    rerun(at)
    assert at.title[0].value == "9. Small to big"
    assert at.number_input(key="lab9_child").value == 150 and not at.exception
