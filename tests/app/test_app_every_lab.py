"""The same walk through every lab that shows chunks: sliders, document, strategy,
question, an upload, a bad upload and a bad link, reading what the user reads."""

import pytest

from tests.app.app_harness import chunk_count, open_app, rerun, set_widget, upload, verdicts

LABS = ["boundary", "overlap", "structure", "runts", "tables", "integrity"]
UPLOAD = (
    b"# Notes\n\nThe warranty covers parts and labour for two years from the date of purchase. "
    b"Batteries are covered for one year. Claims need the original receipt.\n"
)


def last_verdict(at):
    """The chunk view's verdict (the last banner: lab 3 shows one per strategy first)."""
    return verdicts(at)[-1]


@pytest.mark.parametrize("lab", LABS)
def test_walk_through(lab):
    at = open_app(lab=lab)
    assert last_verdict(at) == "✗ answer split across chunks 4 and 5: unretrievable at any k"
    assert chunk_count(at) == 8

    set_widget(at, "slider", "size", 22)
    assert last_verdict(at).startswith("✓ answer intact in chunk")
    assert chunk_count(at) == 9

    set_widget(at, "slider", "size", 24)
    set_widget(at, "slider", "overlap", 12)
    assert last_verdict(at).startswith("✓") and chunk_count(at) == 15

    set_widget(at, "selectbox", "strategy", "sentence")
    assert last_verdict(at).startswith("✓")

    set_widget(at, "selectbox", "question", 2)
    assert at.query_params["q"] == "2"
    assert last_verdict(at).startswith(("✓", "✗"))

    set_widget(at, "selectbox", "doc", "api_reference")
    assert at.query_params["doc"] == "api_reference" and at.selectbox(key="question").value == 0
    assert chunk_count(at) > 20

    upload(at, "notes.md", UPLOAD)
    assert chunk_count(at) == 2  # 27 words in sentences of at most 24 words
    set_widget(at, "radio", "answer_mode", "paste it")
    at.text_area(key="answer_paste").input("Batteries are covered for one year.")
    rerun(at)
    assert last_verdict(at).startswith("✓ answer intact in chunk ")

    at.file_uploader(key="upload").set_value(("bad.md", b"\x00\x01\x02" * 100, "text/markdown"))
    rerun(at)
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].startswith("bad.md looks like a binary file, not text")


@pytest.mark.parametrize("lab", LABS)
def test_bad_link(lab):
    at = open_app(lab=lab, size="twelve", strategy="none")
    assert [w.value for w in at.warning][:2] == [
        "Link value strategy='none' ignored (strategies are structural, fixed, sentence, "
        "recursive, chonkie-recursive, chonkie-token, semchunk, routed, faq, api, transcript, "
        "contract); using fixed.",
        "Link value size='twelve' ignored (size in words must be a whole number from 4 to 400); "
        "using 24.",
    ]
    assert last_verdict(at) == "✗ answer split across chunks 4 and 5: unretrievable at any k"
