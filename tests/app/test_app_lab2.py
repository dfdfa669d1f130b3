"""Lab 2, overlap as insurance: lottery map, vectors stored, the storage bill."""

from lab.measure.drag import drag_frames
from tests.app.app_harness import (
    all_text,
    chunk_count,
    click,
    drag_sliders,
    open_lab,
    plotly_specs,
    set_widget,
    verdicts,
)
from tests.support import AUDIT, SAMPLES


def test_default_view_has_map_bill_and_curve():
    at = open_lab("overlap")
    assert at.title[0].value == "2. Overlap as insurance"
    assert verdicts(at)[0].startswith("✗ answer split across chunks 4 and 5")
    text = all_text(at)
    assert "vectors stored: 8 — no overlap cost" in text
    assert [m.value for m in at.metric][:2] == ["49.2 KB", "73.7 KB"]  # 8 x 6,144 bytes, +50% HNSW
    titles = [s["layout"]["title"]["text"] for s in plotly_specs(at)]
    assert any(t.startswith("Lottery map") for t in titles)
    heat = next(
        s for s in plotly_specs(at) if s["layout"]["title"]["text"].startswith("Lottery map")
    )
    assert heat["data"][0]["type"] == "heatmap"
    shares = at.dataframe[0].value
    assert (
        list(shares["overlap"])[0] == "0% of size" and list(shares["overlap"])[-1] == "50% of size"
    )


def test_preset_sets_half_overlap_and_the_bill_grows():
    at = open_lab("overlap")
    click(at, "preset_overlap")
    assert at.slider(key="overlap").value == 12
    assert verdicts(at)[0].startswith("✓ answer intact")
    assert chunk_count(at) == 15
    assert "vectors stored: 15 — 1.88× the 8 without overlap" in all_text(at)
    corpus = at.dataframe[1].value
    assert dict(zip(corpus[""], corpus["value"], strict=True))["Chunks"] == "1,666,667"


def test_size_and_document_changes_reach_the_bill():
    at = open_lab("overlap")
    set_widget(at, "slider", "size", 48)
    assert "vectors stored: 4 — no overlap cost" in all_text(at)
    set_widget(at, "selectbox", "doc", "support_kb")
    assert chunk_count(at) == 19
    set_widget(at, "radio", "unit", "chars")
    assert "For a corpus of" not in all_text(at)  # the corpus bill is in words


def test_the_drag_slider_draws_each_size_with_the_chosen_overlap():
    at = open_lab("overlap", overlap="12")
    [payload] = drag_sliders(at)
    text = (SAMPLES / "platform_data.md").read_text(encoding="utf-8")
    sizes = [f["size"] for f in payload["frames"]]
    want = drag_frames(text, AUDIT, "fixed", sizes, unit="words", overlap=12)
    assert [f["verdict"] for f in payload["frames"]] == [f.verdict for f in want]
    # every chunk after the first carries the 12 words before it: hatched in the page
    for f in payload["frames"]:
        bounds = f["bounds"]
        assert all(bounds[k + 2] < bounds[k] for k in range(3, len(bounds), 3)), f["size"]
    assert payload["value"] == 24
