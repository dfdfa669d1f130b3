"""Lab 3, structure beats arithmetic: four strategies, overlaid curves, gold-set rates."""

from lab.measure.drag import drag_frames
from lab.measure.survival import survival_curve
from tests.app.app_harness import (
    all_text,
    click,
    drag_sliders,
    open_lab,
    plotly_specs,
    set_widget,
    vega_charts,
    verdicts,
)
from tests.support import AUDIT, SAMPLES


def test_four_strategies_side_by_side_on_lottery_article():
    at = open_lab("structure")
    v = verdicts(at)
    # four strategy verdicts, then the chunk view's for the sidebar strategy (fixed)
    assert len(v) == 5
    assert v[0].startswith("✓") and v[1].startswith("✓")  # structural, sentence
    assert v[3].startswith("✗ answer split across chunks 4 and 5") and v[4] == v[3]
    curves = next(
        s
        for s in plotly_specs(at)
        if s["layout"]["title"]["text"] == "Survival curves, all strategies"
    )
    assert [t["name"] for t in curves["data"]] == [
        "Structural",
        "Sentence",
        "LangChain recursive",
        "Fixed size",
    ]
    assert len({t["line"]["color"] for t in curves["data"]}) == 4
    flips = at.dataframe[0].value
    # one flip: below the answer's own 13 words no chunk can hold it (the sentence
    # strategy respects its size, so it cuts the sentence); from 13 words on it keeps it
    assert dict(zip(flips["strategy"], flips["verdict flips"], strict=True))["Sentence"] == 1


def test_support_kb_refund_window_at_50_words():
    at = open_lab("structure")
    click(at, "preset_structure")
    v = verdicts(at)
    assert v[3] == "✗ answer split across chunks 6 and 7: unretrievable at any k"
    assert all(x.startswith("✓") for x in v[:3])
    assert "Gold set: answers intact at size 50 words, overlap 0 (8 questions)" in all_text(at)
    [gold] = vega_charts(at)
    rates = {r["strategy"]: r["label"] for r in gold["datasets"]["bars"]}
    assert rates == {
        "Structural": "100%",
        "Sentence": "100%",
        "LangChain recursive": "75%",
        "Fixed size": "38%",
    }


def test_overlap_and_question_switch():
    at = open_lab("structure")
    set_widget(at, "slider", "overlap", 12)
    assert verdicts(at)[3].startswith("✓")
    set_widget(at, "selectbox", "question", 2)
    assert len(verdicts(at)) == 5
    set_widget(at, "selectbox", "strategy", "structural")
    assert at.subheader[0].value == "Chunk view: Structural"


def test_the_drag_slider_gives_every_strategys_verdict_at_each_size():
    at = open_lab("structure")
    [payload] = drag_sliders(at)
    text = (SAMPLES / "platform_data.md").read_text(encoding="utf-8")
    sizes = [f["size"] for f in payload["frames"]]
    # the sidebar's strategy (fixed) is drawn; the others are named under its verdict
    assert payload["others"] == ["Structural", "Sentence", "LangChain recursive"]
    want = drag_frames(text, AUDIT, "fixed", sizes, unit="words")
    assert [f["verdict"] for f in payload["frames"]] == [f.verdict for f in want]
    for j, name in enumerate(["structural", "sentence", "recursive"]):
        curve = survival_curve(text, AUDIT, name, sizes, unit="words")
        assert [f["others"][j] for f in payload["frames"]] == curve.intact, name
