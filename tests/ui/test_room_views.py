"""What the room needs from the view-models: presenter mode in a link, the chunk view's
scroll target, and chart text that grows for a projector."""

from dataclasses import replace

import plotly.graph_objects as go

from chunkers import ChunkOptions, chunk
from lab.measure.survival import check_survival
from tests.support import AUDIT, PLATFORM
from ui.present.chunkview import (
    SCROLL_TARGET,
    cards_html,
    chunk_cards,
    document_html,
    scroll_script,
)
from ui.present.plotly_charts import BASE_FONT_PX, scale_text, survival_step
from ui.present.urlstate import DEFAULTS, parse_params, to_params

DOCS = ["platform_data"]


def test_a_link_opens_presenter_mode_and_says_so_only_when_on():
    s, notes = parse_params({"presenter": "1"}, DOCS)
    assert s.presenter and notes == []
    assert parse_params({"presenter": "off"}, DOCS)[0].presenter is False
    assert to_params(s)["presenter"] == "1"
    assert "presenter" not in to_params(DEFAULTS)
    back, _ = parse_params(to_params(replace(DEFAULTS, presenter=True)), DOCS)
    assert back.presenter


def test_a_bad_presenter_value_is_a_notice():
    s, notes = parse_params({"presenter": "maybe"}, DOCS)
    assert not s.presenter
    assert notes == ["Link value presenter='maybe' ignored (presenter is 1 or 0); using 0."]


def _view(size: int):
    chunks = chunk(PLATFORM, "fixed", size, unit="words")
    surv = check_survival(chunks, PLATFORM, AUDIT)
    cards = chunk_cards(chunks, None, ChunkOptions(size=size, overlap=0, unit="words"), surv)
    return document_html(PLATFORM, chunks, surv.span), cards_html(cards), surv


def test_the_document_opens_at_the_answer_and_the_cards_at_its_chunk():
    doc, cards, surv = _view(22)  # intact in chunk 5
    assert doc.count(SCROLL_TARGET) == 1
    after = doc.split(f"{SCROLL_TARGET}>", 1)[1]
    assert after.startswith("Audit logs are retained")
    [card] = [c for c in cards.split('<div class="chunk-card"') if SCROLL_TARGET in c[:40]]
    assert f"chunk {surv.chunk_index + 1} " in card


def test_a_split_answer_opens_at_its_first_piece():
    doc, cards, surv = _view(24)  # split across chunks 4 and 5
    assert not surv.intact and doc.count(SCROLL_TARGET) == 1
    [card] = [c for c in cards.split('<div class="chunk-card"') if SCROLL_TARGET in c[:40]]
    assert f"chunk {min(surv.pieces) + 1} " in card


def test_no_answer_no_target():
    chunks = chunk(PLATFORM, "fixed", 24, unit="words")
    assert SCROLL_TARGET not in document_html(PLATFORM, chunks, None)


def test_the_scroll_script_carries_no_document_text_and_changes_with_the_view():
    doc, cards, _ = _view(22)
    script = scroll_script(doc + cards)
    assert "Audit" not in script and script.startswith("<script>")
    assert script != scroll_script(_view(24)[0] + _view(24)[1])


def test_presenter_charts_grow_every_text():
    curve_fig = go.Figure(go.Bar(x=[1], y=[1], text=["1"]))
    curve_fig.add_annotation(text="note", font=dict(size=13))
    scale_text(curve_fig, 1.5)
    size = round(BASE_FONT_PX * 1.5)
    assert curve_fig.layout.xaxis.tickfont.size == size == curve_fig.layout.yaxis.tickfont.size
    assert curve_fig.layout.legend.font.size == size
    assert curve_fig.layout.annotations[0].font.size == round(13 * 1.5)
    assert curve_fig.data[0].textfont.size == size


def test_survival_chart_scales_without_losing_its_data():
    from lab.measure.survival import survival_curve

    c = survival_curve(PLATFORM, AUDIT, "fixed", [22, 24], unit="words")
    fig = scale_text(survival_step(c, "words", "fixed", 440), 1.5)
    assert list(fig.data[0].x) == [22, 24] and fig.layout.height == 440
