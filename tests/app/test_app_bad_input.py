"""Bad input at the app's doors, beyond test_app_uploads: an encoding offered by
name, a gold file with bad lines, a question with no words, an imported notebook,
a link with values out of range and a lab's control set to what it cannot measure.
Every time: one line, no exception element, and the lab stays usable."""

import pytest

from tests.app.app_harness import (
    APP,
    PRICING,
    S2B,
    all_text,
    chunk_count,
    click,
    open_app,
    open_lab,
    rerun,
    set_widget,
    upload,
    verdicts,
    widget,
)
from ui.present.notebook import make_pin, to_json

LABS = ["boundary", "overlap", "structure", "runts", "tables", "integrity"]
TEXT = "Caf\u00e9 cr\u00e8me. Audit logs are retained for four hundred days. D\u00e9j\u00e0 vu.\n"


def _one_line_errors(at):
    errors = [e.value for e in at.error]
    assert all("\n" not in e for e in errors) and not at.exception
    return errors


@pytest.mark.parametrize(
    "encoding,label", [("cp1252", "Windows-1252"), ("utf-16", "UTF-16"), ("utf-16-le", "UTF-16")]
)
def test_not_utf8_says_which_encoding_and_offers_to_read_it_as_that(encoding, label):
    at = upload(open_app(), "notes.txt", TEXT.encode(encoding))
    [error] = _one_line_errors(at)
    assert error.startswith("notes.txt is not UTF-8") and f"it looks like {label}" in error
    assert at.button(key="read_as_button").label == f"Read it as {label}"
    click(at, "read_as_button")
    assert not at.error and chunk_count(at) == 1
    assert (
        "Café crème" in at.get("html")[1].proto.body and "Déjà vu." in at.get("html")[1].proto.body
    )


def test_a_gold_file_with_bad_lines_reports_their_numbers_and_uses_the_good_ones():
    at = open_lab("integrity")
    data = (APP.parent / "sample_docs" / "platform_data.md").read_bytes()
    upload(at, "notes.md", data)
    gold = "\n".join(
        [
            '{"question": "how long are audit logs kept?", "answer": "Audit logs are retained '
            'for four hundred days"}',
            "not json",
            '{"question": "?!", "answer": "Audit logs are retained"}',
            '["a list"]',
            '{"question": "what is stored?", "answer": "The platform stores three categories of '
            'data."}',
            '{"question": "no answer"}',
        ]
    ).encode()
    at.file_uploader(key="lab6_gold").upload("gold.jsonl", gold, "application/jsonl")
    rerun(at)
    [warning] = [w.value for w in at.warning]
    assert warning == (
        "gold.jsonl line 2: not valid JSON (Expecting value at column 1); "
        "also skipped: line(s) 3, 4, 6; 2 good line(s) used"
    )
    assert list(at.table[1].value["question"]) == [
        "how long are audit logs kept?",
        "what is stored?",
    ]
    assert not _one_line_errors(at)


def test_a_gold_file_that_is_not_text_is_one_line_and_the_lab_goes_on():
    at = open_lab("integrity")
    upload(at, "notes.md", TEXT.encode())
    at.file_uploader(key="lab6_gold").upload(
        "gold.jsonl", '{"question": "café"}'.encode("utf-16"), "application/jsonl"
    )
    rerun(at)
    assert _one_line_errors(at) == [
        "gold.jsonl is not UTF-8 (it looks like UTF-16); save it as UTF-8 or read it as UTF-16"
    ]
    assert "No gold set" in all_text(at) and chunk_count(at) == 1


# -- a lab's own control set to what it cannot measure: (the lab and its link, the
# -- control and the value, the one line in place of the figures)
BAD_SETTINGS = {
    "Lab 8, B's overlap as large as its size": (
        ("compare", PRICING),
        ("number_input", "lab8_overlap", 600),
        "B is not a configuration: config 'fixed:chars:600:600': overlap '600' must be a "
        "whole number from 0 to 599, below the size",
    ),
    "Lab 9, children larger than their parents": (
        ("small-to-big", S2B),
        ("number_input", "lab9_child", 2000),
        "children (structural:chars:2000:0) are not smaller than their parents "
        "(structural:chars:1800:0): give the children the smaller size, e.g. 450:2000",
    ),
}


@pytest.mark.parametrize(
    ("where", "control", "message"), BAD_SETTINGS.values(), ids=list(BAD_SETTINGS)
)
def test_a_setting_the_lab_cannot_measure_is_one_line_and_undoing_it_restores_the_lab(
    where, control, message
):
    (lab, link), (kind, key, bad) = where, control
    at = open_lab(lab, **link)
    old, page = widget(at, kind, key).value, all_text(at)
    set_widget(at, kind, key, bad)
    assert _one_line_errors(at) == [message]
    assert not at.dataframe and at.caption  # no figure of it; the chunk view is still there
    set_widget(at, kind, key, old)
    assert all_text(at) == page  # the figures, verdicts and words it had


@pytest.mark.parametrize("lab", LABS)
def test_a_question_with_no_words_is_one_warning_and_the_lab_works(lab):
    at = open_lab(lab)
    set_widget(at, "selectbox", "question", -1)
    at.text_input(key="own_question").input("?! … —")
    set_widget(at, "radio", "answer_mode", "paste it")
    at.text_area(key="answer_paste").input(
        "Audit logs are retained for four hundred days to satisfy the compliance requirement"
    )
    rerun(at)
    assert [w.value for w in at.warning] == [
        "This question has no searchable words (only punctuation, symbols or spaces); "
        "type a word to rank the chunks."
    ]
    assert not [e for e in _one_line_errors(at) if e.startswith("Something went wrong")]
    assert verdicts(at)[-1].startswith("✗ answer split across chunks 4 and 5")


def test_link_values_out_of_range_are_one_line_notices_shown_as_text():
    at = open_app(
        unit="chars",
        size="5",
        overlap="-1",
        q="99999999999999999999",
        lab="0",
        strategy="**bold** <img src=x onerror=alert(1)>",
        **{"[x](javascript:alert(1))": "1"},
    )
    notes = [w.value for w in at.warning]
    assert len(notes) == 6 and all("\n" not in n for n in notes)
    assert (
        "Link value strategy='\\*\\*bold\\*\\* &lt;img src=x onerror=alert(1)&gt;' ignored"
        in notes[2]
    )
    assert notes[-1] == "Link parameter(s) \\[x\\](javascript:alert(1)) not understood and ignored."
    assert at.slider(key="size").value == 1800 and at.slider(key="overlap").value == 0
    assert verdicts(at) == ["✓ answer intact in chunk 1"]


def test_an_imported_notebook_with_bad_values_restores_with_notices():
    at = open_lab("notebook")
    bad = make_pin(
        "nowhere",
        "Imported",
        {
            "doc": "platform_data",
            "q": 99,
            "strategy": "magic",
            "unit": "furlongs",
            "size": "huge",
            "overlap": -5,
        },
    )
    at.file_uploader(key="nb_import").upload("nb.json", to_json([bad]).encode(), "application/json")
    rerun(at)
    click(at, "nb_add")
    click(at, "restore_0")
    notes = [w.value for w in at.warning]
    assert notes[0] == "Pin value q='99' ignored (platform_data has questions 0-5); using 0."
    assert len(notes) == 5 and all(n.startswith("Pin value ") for n in notes)
    assert (at.selectbox(key="strategy").value, at.radio(key="unit").value) == ("fixed", "words")
    assert at.title[0].value == "7. Notebook"  # no such lab: stay here
    at.switch_page("lab_pages/lab1_boundary.py")
    rerun(at)
    assert verdicts(at) == ["✗ answer split across chunks 4 and 5: unretrievable at any k"]
