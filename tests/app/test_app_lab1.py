"""Lab 1, the boundary lottery: the published document at 24 words, sliders, the curve click."""

from tests.app.app_harness import (
    captions,
    chunk_count,
    chunk_view_html,
    curve_key,
    drag_sliders,
    html_bodies,
    open_app,
    plotly_specs,
    rerun,
    set_widget,
    upload,
    verdicts,
)
from tests.support import AUDIT, SAMPLES

SPLIT_24 = "✗ answer split across chunks 4 and 5: unretrievable at any k"


def test_default_view_is_lottery_article_at_24_words():
    at = open_app()
    assert at.title[0].value == "1. Boundary lottery"
    assert verdicts(at) == [SPLIT_24]
    assert "chunks: 8 from 192 words" in captions(at)
    assert at.slider(key="size").value == 24 and at.slider(key="overlap").value == 0
    assert at.slider(key="overlap").max == 23  # the overlap slider cannot reach the size
    doc, cards = chunk_view_html(at)
    assert "Audit logs are retained" in doc and cards.count('class="chunk-card"') == 8
    assert "rank #1" in cards and "24 words" in cards
    spec = plotly_specs(at)[0]
    assert "click a point" in spec["layout"]["title"]["text"]
    [pointer] = [h for h in html_bodies(at) if 'class="size-pointer"' in h]
    assert "24 words: ✗ split" in pointer  # under the curve, at the current size
    # the table of sizes says what the published lottery table says: 22 works, 24 does not
    table = at.table[0].value
    rows = dict(zip(table["Chunk size"], table["Answer intact?"], strict=True))
    assert rows["21-22"] == "✓" and rows["23-25"] == "✗"


def test_moving_the_size_flips_the_verdict():
    at = open_app()
    set_widget(at, "slider", "size", 22)
    assert verdicts(at)[0].startswith("✓ answer intact in chunk ")
    set_widget(at, "slider", "size", 30)
    assert verdicts(at)[0].startswith("✗ answer split across chunks")
    set_widget(at, "slider", "size", 26)
    assert verdicts(at)[0].startswith("✓")
    assert at.query_params["size"] == "26"


def test_overlap_half_the_size_rescues_the_answer_and_costs_chunks():
    at = open_app()
    set_widget(at, "slider", "overlap", 12)
    assert verdicts(at)[0].startswith("✓ answer intact in chunk ")
    assert chunk_count(at) == 15
    # shrinking the size below the overlap pulls the overlap down with it
    set_widget(at, "slider", "size", 10)
    assert at.slider(key="overlap").value == 9 and at.slider(key="overlap").max == 9


def test_clicking_a_point_on_the_curve_moves_the_size_slider():
    at = open_app()
    at.session_state[curve_key(at, "lab1_curve")] = {"selection": {"points": [{"x": 22, "y": 1}]}}
    rerun(at)
    assert at.slider(key="size").value == 22
    assert verdicts(at)[0].startswith("✓")
    # the same selection again does not pin the slider: it can move on
    set_widget(at, "slider", "size", 24)
    assert at.slider(key="size").value == 24 and verdicts(at) == [SPLIT_24]


def test_switching_strategy_question_and_document():
    at = open_app()
    set_widget(at, "selectbox", "strategy", "sentence")
    assert verdicts(at)[0].startswith("✓"), "sentence boundaries never split the sentence"
    set_widget(at, "selectbox", "strategy", "fixed")
    set_widget(at, "selectbox", "question", 1)
    assert "Backups of the primary database" in " ".join(captions(at))
    assert verdicts(at)[0] == "✗ answer split across chunks 2 and 3: unretrievable at any k"
    set_widget(at, "selectbox", "doc", "regional_revenue")
    assert at.selectbox(key="question").value == 0  # a new document starts at its first question
    assert "Mumbai" in " ".join(captions(at))
    assert chunk_count(at) > 8
    assert at.query_params["doc"] == "regional_revenue"


def test_unit_switch_takes_the_units_classic_setting():
    at = open_app()
    set_widget(at, "radio", "unit", "chars")
    assert at.slider(key="size").value == 1800 and at.slider(key="overlap").value == 150
    assert any(c.endswith("chars") and c.startswith("chunks: ") for c in captions(at))


def test_the_drag_slider_gets_every_size_of_the_curve_and_starts_at_the_apps_size():
    at = open_app()
    [payload] = drag_sliders(at)
    assert payload["value"] == 24 and payload["label"] == "Chunk size (words)"
    by_size = {f["size"]: f for f in payload["frames"]}
    assert "✗ " + by_size[24]["verdict"] == SPLIT_24
    assert by_size[22]["intact"] and not by_size[30]["intact"]
    assert payload["note"] == ""  # the whole short sample is sent
    start, end = payload["answer"]
    assert payload["text"][start:end].startswith("Audit logs are retained")


def test_no_drag_slider_without_an_answer_in_the_document():
    at = upload(open_app(), "one.md", b"Hello")  # one word: no answer to pick
    assert not drag_sliders(at)
    assert verdicts(at) == ["no answer picked: choose the answer text to see whether it survives"]
    at = open_app()
    set_widget(at, "selectbox", "question", -1)
    set_widget(at, "radio", "answer_mode", "paste it")
    at.text_area(key="answer_paste").input("not a sentence of this document")
    rerun(at)
    assert not drag_sliders(at)
    assert [w.value for w in at.warning][0].endswith(
        ": pick an answer that appears in the document."
    )


def test_a_long_document_drags_in_fixed_sizes_and_says_why_not_in_another_strategy():
    sample = (SAMPLES / "platform_data.md").read_text(encoding="utf-8")
    text = (sample + "\n\n") * 60  # over 60,000 characters
    at = upload(open_app(), "long.md", text)
    set_widget(at, "selectbox", "question", -1)
    set_widget(at, "radio", "answer_mode", "paste it")
    at.text_area(key="answer_paste").input(AUDIT)
    rerun(at)
    [payload] = drag_sliders(at)  # fixed sizes are worked out, not chunked: any length
    assert (
        payload["note"].startswith("showing characters 1–")
        and f"of {len(text):,}" in (payload["note"])
    )
    set_widget(at, "selectbox", "strategy", "recursive")
    assert verdicts(at) and not drag_sliders(at)
    assert (
        "No drag slider for a document of 60,000 characters or more with this strategy: "
        "every size would be chunked up front (fixed-size chunks drag at any length). "
        "The sidebar's slider still works." in captions(at)
    )
