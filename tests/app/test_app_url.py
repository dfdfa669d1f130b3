"""The URL holds the state: a teacher's link opens exactly that view; bad values fall back."""

from tests.app.app_harness import (
    all_text,
    chunk_count,
    click,
    open_app,
    set_widget,
    upload,
    verdicts,
)
from ui.present.plotly_charts import BASE_FONT_PX


def test_a_link_opens_exactly_that_view():
    link = {
        "lab": "overlap",
        "doc": "support_kb",
        "q": "0",
        "strategy": "fixed",
        "unit": "words",
        "size": "50",
        "overlap": "25",
    }
    at = open_app(**link)
    assert at.title[0].value == "2. Overlap as insurance"
    assert at.selectbox(key="doc").value == "support_kb"
    assert (at.slider(key="size").value, at.slider(key="overlap").value) == (50, 25)
    assert "refund window" in at.selectbox(key="question").format_func(
        at.selectbox(key="question").value
    )
    assert verdicts(at)[0].startswith("✓")
    assert not at.warning
    assert dict(at.query_params) == link  # the view writes back the very link it opened


def test_lab_by_number_then_a_new_lab_opens_on_its_example_and_settings_carry_back():
    at = open_app(lab="4", size="30")
    assert at.title[0].value == "4. Runts and BM25"
    assert at.slider(key="size").value == 30  # the link's settings, not the lab's example
    at.switch_page("lab_pages/lab2_overlap.py")
    at.run()
    assert at.title[0].value == "2. Overlap as insurance"
    # first visit: Lab 2's own example (the platform document, 24 words, overlap 12)
    assert (at.slider(key="size").value, at.slider(key="overlap").value) == (24, 12)
    assert at.query_params["lab"] == "overlap" and at.query_params["doc"] == "platform_data"
    set_widget(at, "slider", "size", 40)
    at.switch_page("lab_pages/lab4_runts.py")
    at.run()
    # a lab opened before keeps what the user set since: settings carry from lab to lab
    assert at.slider(key="size").value == 40 and at.query_params["lab"] == "runts"


def test_a_first_visit_keeps_an_uploaded_document():
    at = upload(open_app(), "notes.md", b"# Notes\n\nBackups run nightly at two.\n")
    set_widget(at, "slider", "size", 30)
    at.switch_page("lab_pages/lab10_boilerplate.py")
    at.run()
    assert at.selectbox(key="doc").value == "__upload__"
    assert at.slider(key="size").value == 30


def test_bad_values_fall_back_to_defaults_with_a_notice():
    at = open_app(
        lab="99",
        doc="../../etc/passwd",
        q="x",
        strategy="magic",
        size="-5",
        overlap="999",
        junk="<b>x</b>",
    )
    assert at.title[0].value == "1. Boundary lottery"
    notes = [w.value for w in at.warning]
    assert len(notes) == 7
    assert notes[0].startswith("Link value lab='99' ignored")
    assert any(
        n.startswith("Link value doc='../../etc/passwd' ignored (no such sample document)")
        for n in notes
    )
    assert notes[-1] == "Link parameter(s) junk not understood and ignored."
    assert at.selectbox(key="doc").value == "platform_data" and at.slider(key="size").value == 24
    assert verdicts(at) == ["✗ answer split across chunks 4 and 5: unretrievable at any k"]
    assert chunk_count(at) == 8
    assert "junk" not in at.query_params and at.query_params["size"] == "24"
    click(at, "dismiss_notices")
    assert not at.warning


def test_question_index_out_of_range_for_the_document():
    at = open_app(doc="platform_data", q="12")
    assert [w.value for w in at.warning] == [
        "Link value q='12' ignored (platform_data has questions 0-5); using 0."
    ]
    assert at.selectbox(key="question").value == 0


def test_presenter_mode_hides_explanations_and_enlarges_chart_text():
    at = open_app()
    assert "Drag the chunk size slowly upward" in all_text(at)
    import json

    def tick_px() -> float:
        layout = json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]
        return layout.get("xaxis", {}).get("tickfont", {}).get("size", BASE_FONT_PX)

    ordinary = tick_px()
    set_widget(at, "toggle", "presenter", True)
    assert "Drag the chunk size slowly upward" not in all_text(at)
    assert not [b for b in at.button if b.key == "preset_boundary"]
    assert tick_px() >= 1.5 * ordinary  # the chart's text is for the back row
    assert verdicts(at)  # the verdict stays: it is the result, not an explanation
