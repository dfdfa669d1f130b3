"""Lab 11, two judges: ranks side by side, the muddy vector, two topics in one chunk;
the BM25 switch and the embedder in the link, pins and exports. The network is off."""

from __future__ import annotations

import json

import pytest

from chunkers import chunk, indexed_text
from lab.measure.judges import muddy_vector
from lab.retrieval.bm25_variants import Bm25Retriever
from tests.app.app_harness import (
    all_text,
    click,
    dataframes,
    open_app,
    open_lab,
    rerun,
    set_widget,
    upload,
    vega_chart,
)
from tests.support import ROOT, SAMPLES

pytestmark = pytest.mark.usefixtures("no_network")

HANDBOOK = ROOT / "tests" / "data" / "staff_handbook.txt"
VACATION = "how many days of paid vacation do new employees get"
VACATION_ANSWER = "New employees get 15 days of paid vacation in their first year"


def example():
    at = open_lab("judges")
    return click(at, "preset_judges")


def side_by_side(at):
    [table] = [d for d in dataframes(at) if "hybrid rank" in d.columns]
    return table


def test_the_lab_has_its_name_number_and_example():
    at = open_app(lab="11")
    assert at.title[0].value == "11. Two judges"
    assert at.query_params["lab"] == "judges"
    at = example()
    assert at.selectbox(key="doc").value == "support_kb"
    assert "BM25 shown: lucene, the default" in all_text(at)
    assert "wordllama is a static model" in all_text(at)


def test_every_chunk_ranked_three_ways_with_the_answer_marked():
    at = example()
    table = side_by_side(at)
    assert list(table["chunk"]) == list(range(1, 9))
    assert list(table["holds the answer"]) == ["", "", "★", "", "", "", "", ""]
    for judge in ("BM25", "dense", "hybrid"):
        assert sorted(table[f"{judge} rank"]) == list(range(1, 9))
    # the BM25 column is the lab's BM25 over the same indexed texts
    text = (SAMPLES / "support_kb.md").read_text(encoding="utf-8")
    question = json.loads((SAMPLES / "support_kb.gold.jsonl").read_text().splitlines()[0])[
        "question"
    ]
    texts = [indexed_text(c) for c in chunk(text, "structural", 1000, 100)]
    want = Bm25Retriever().score(texts, question)
    assert list(table["BM25 rank"]) == list(want.ranks)
    # BM25 puts it third, the vectors first; the fusion ties it with BM25's first
    # (1/61 + 1/63 each) and the tie goes to the earlier chunk
    line = (
        "The answer's chunk 3 ranks #3 by BM25, #1 by the dense judge and #2 by the hybrid: "
        "the judges disagree."
    )
    assert line in all_text(at)
    assert table["RRF"][0] == table["RRF"][2]


def test_the_muddy_vector_draws_both_curves_on_one_axis_of_sizes():
    at = example()
    chart = vega_chart(at, "The answer's chunk, judged at each size")
    curves = chart["datasets"]["curves"]
    names = {p["curve"] for p in curves}
    assert names == {"cosine with the question (dense)", "BM25 score"}
    sizes = {c: [p["size"] for p in curves if p["curve"] == c] for c in names}
    assert sizes["BM25 score"] == sizes["cosine with the question (dense)"]
    assert sizes["BM25 score"][0] == 200 and sizes["BM25 score"][-1] == 4000
    assert all(0 <= p["value"] <= 1 for p in curves)
    # the figures are the library's: the same measurement made here
    text = (SAMPLES / "support_kb.md").read_text(encoding="utf-8")
    pair = json.loads((SAMPLES / "support_kb.gold.jsonl").read_text().splitlines()[0])
    mv = muddy_vector(text, pair["question"], pair["answer"], range(200, 4001, 200))
    assert [p["raw"] for p in curves if p["curve"] == "BM25 score"] == pytest.approx(
        [p.bm25 for p in mv.points]
    )
    crossings = chart["datasets"]["crossings"]
    assert [c["size"] for c in crossings] == pytest.approx(list(mv.crossings))
    assert "The two curves cross at about 1,200 chars" in all_text(at)
    assert mv.points[-1].cosine < mv.points[0].cosine  # the big chunk drifts from the question


def test_two_topics_fall_toward_their_midpoint():
    at = example()
    chart = vega_chart(at, "Two topics in one chunk")
    points = chart["datasets"]["cosines"]
    questions = list(dict.fromkeys(p["question"] for p in points))
    assert len(questions) == 2
    first = [p["cosine"] for p in points if p["question"] == questions[0]]
    assert first[-1] < first[0]  # the first topic's cosine falls as the second comes in
    assert [m["question"] for m in chart["datasets"]["midpoints"]] == questions
    assert "a chunk that holds both lands between the topics" in all_text(at)
    # another second topic: another chart
    before = points
    options = at.selectbox(key="lab11_partner").options
    set_widget(at, "selectbox", "lab11_partner", int(options[-1].split(".")[0]) - 1)
    assert vega_chart(at, "Two topics in one chunk")["datasets"]["cosines"] != before


def test_the_handbook_default_ranks_the_answer_first_and_okapi_last():
    at = open_lab("judges", unit="chars", strategy="structural", size="1800", overlap="150")
    upload(at, "handbook.txt", HANDBOOK.read_bytes(), "text/plain")
    at.text_input(key="own_question").input(VACATION)
    set_widget(at, "radio", "answer_mode", "paste it")
    at.text_area(key="answer_paste").input(VACATION_ANSWER)
    rerun(at)
    table = side_by_side(at)
    assert list(table["holds the answer"]) == ["", "★"]
    assert list(table["BM25 rank"]) == [2, 1] and (table["BM25"] >= 0).all()
    set_widget(at, "radio", "bm25", "okapi")
    table = side_by_side(at)
    assert list(table["BM25 rank"]) == [1, 2] and (table["BM25"] < 0).all()
    assert "BM25 shown: okapi" in all_text(at)


def test_the_link_carries_the_judges_and_refuses_what_the_app_does_not_offer():
    at = open_app(lab="judges", bm25="okapi")
    assert at.radio(key="bm25").value == "okapi" and at.query_params["bm25"] == "okapi"
    at = open_app(lab="judges", bm25="bm42", embedder="os:system")
    notes = [w.value for w in at.warning]
    assert (
        "Link value bm25='bm42' ignored (BM25 variants are lucene, okapi, fts5); using lucene."
        in notes
    )
    assert (
        "Link value embedder='os:system' ignored (this app offers the embedder(s) wordllama); "
        "using wordllama."
    ) in notes
    assert "bm25" not in at.query_params and "embedder" not in at.query_params


def test_the_bm25_variant_follows_the_user_from_lab_to_lab():
    at = open_app(lab="judges")
    set_widget(at, "radio", "bm25", "fts5")
    at.switch_page("lab_pages/lab1_boundary.py")  # a lab without the switch
    rerun(at)
    at.switch_page("lab_pages/lab4_runts.py")
    rerun(at)
    assert at.radio(key="bm25").value == "fts5" and at.query_params["bm25"] == "fts5"


def test_a_pin_keeps_the_judges_and_restores_them():
    at = example()
    set_widget(at, "radio", "bm25", "okapi")
    click(at, "pin_judges")
    pin = at.session_state["pins"][0]
    assert (pin.config["bm25"], pin.config["embedder"]) == ("okapi", "wordllama")
    assert pin.numbers["dense rank"] == 1 and "curves cross at" in pin.numbers
    set_widget(at, "radio", "bm25", "lucene")
    at.switch_page("lab_pages/lab7_notebook.py")
    rerun(at)
    click(at, "restore_0")
    assert at.title[0].value == "11. Two judges" and at.radio(key="bm25").value == "okapi"


def test_the_judges_export_carries_the_retrievers(downloads):
    at = example()
    got = json.loads(downloads.of(at, "Export the judges' ranks (JSON)"))
    assert got["config"]["bm25"] == "lucene" and got["config"]["embedder"] == "wordllama"
    assert got["config"]["hybrid_k"] == 60 and got["config"]["size"] == 1000
    assert [r["holds the answer"] for r in got["chunks"]].index("★") == 2
    csv_text = downloads.of(at, "Export the judges' ranks (CSV)").decode()
    assert csv_text.splitlines()[0].startswith("config,chunk,holds the answer,length,BM25 rank")


def test_presenter_mode_keeps_the_figures_and_drops_the_explanations():
    at = example()
    assert "reciprocal-rank fusion" in all_text(at)
    set_widget(at, "toggle", "presenter", True)
    text = all_text(at)
    assert "reciprocal-rank fusion" not in text and "BM25 shown" not in text
    assert "The answer's chunk 3 ranks #3 by BM25" in text
    chart = vega_chart(at, "The answer's chunk, judged at each size")
    assert chart["config"]["axis"]["labelFontSize"] >= 18  # 12 px, 1.5 times


def test_without_an_answer_the_lab_says_what_it_needs():
    at = open_lab("judges")
    set_widget(at, "selectbox", "question", -1)
    assert "Pick a question in the sidebar" in all_text(at)
    at.text_input(key="own_question").input("how long are audit logs kept?")
    rerun(at)
    assert side_by_side(at) is not None
    assert "Pick an answer to follow its chunk as chunks grow." in all_text(at)
    assert not at.exception


def test_the_model_is_loaded_once_and_shared(monkeypatch):
    from lab.retrieval import embedders

    loaded = []
    real = embedders.load_wordllama
    monkeypatch.setattr(embedders, "load_wordllama", lambda: loaded.append(1) or real())
    example()
    example()  # a second session
    assert len(loaded) <= 1  # loaded before these sessions, or once by them
