"""Uploads: a good file with your own question and answer, and every kind of bad file."""

import pytest

from tests.app.app_harness import (
    APP,
    all_text,
    captions,
    chunk_count,
    chunk_view_html,
    click,
    open_app,
    rerun,
    set_widget,
    upload,
    verdicts,
)
from tests.support import BIG_ANSWER, big_document
from ui.caching import PROGRESS_CHARS
from ui.sidebar import MAX_UPLOAD_BYTES

DOC = (
    "# Retention\n\nThe platform keeps several kinds of data in several places for a long time. "
    "Audit logs are retained for four hundred days to satisfy the "
    "compliance requirement, after which they are deleted. <script>alert('x')</script> Backups "
    "run nightly.\n"
)


def test_good_upload_with_own_question_and_picked_answer():
    at = upload(open_app(), "notes.md", DOC.encode())
    assert at.selectbox(key="question").value == -1  # an upload has no gold set: your own question
    assert "upload" not in at.query_params.get("doc", "")  # an upload cannot travel in a link
    assert verdicts(at) == ["no answer picked: choose the answer text to see whether it survives"]
    assert chunk_count(at) == 2  # 38 words at 24 words a chunk
    at.text_input(key="own_question").input("how long are audit logs kept?")
    set_widget(
        at,
        "selectbox",
        "answer_pick",
        "Audit logs are retained for four hundred days to satisfy the compliance requirement, "
        "after which they are deleted.",
    )
    assert verdicts(at)[0].startswith("✗ answer split across chunks 1 and 2")
    set_widget(at, "slider", "size", 40)
    assert verdicts(at)[0] == "✓ answer intact in chunk 1"
    # the document's markup is shown as text, never run
    # (the only script is the app's own, which scrolls the chunk view and holds no text)
    bodies = "".join(h.proto.body for h in at.get("html") if not h.proto.unsafe_allow_javascript)
    assert "<script>" not in bodies and "&lt;script&gt;" in bodies


def test_pasted_answer_that_is_not_in_the_document_is_one_warning():
    at = upload(open_app(), "notes.txt", DOC.encode())
    at.text_input(key="own_question").input("when?")
    set_widget(at, "radio", "answer_mode", "paste it")
    at.text_area(key="answer_paste").input("this sentence is nowhere")
    rerun(at)
    assert [w.value for w in at.warning] == [
        "answer not found in the document: 'this sentence is nowhere': pick an answer that "
        "appears in "
        "the document."
    ]


def test_a_long_documents_cards_open_at_the_answer_and_page_and_find():
    at = upload(open_app(), "ledger.md", big_document().encode())
    set_widget(at, "radio", "answer_mode", "paste it")
    at.text_area(key="answer_paste").input(BIG_ANSWER)
    rerun(at)
    total = chunk_count(at)
    assert total > 2000
    [verdict] = verdicts(at)
    pieces = [int(n) for n in verdict.split(":")[0].replace("and", " ").split() if n.isdigit()]
    first = pieces[0]
    [line] = [c for c in captions(at) if c.startswith("Cards ")]
    assert line.endswith(f"of {total:,}, around the answer (chunk {first:,}).")
    cards = chunk_view_html(at)[1]
    for n in pieces:  # every piece of the answer has its card, flagged
        assert f"chunk {n} · " in cards
    assert "holds part of the answer" in cards or "holds the answer" in cards
    # the box holds a window of cards, not the document's thousands
    assert cards.count('class="chunk-card"') == 100
    # page to the end
    [pager] = [n for n in at.number_input if n.label == "Cards from chunk"]
    pager.set_value(total).run()
    cards = chunk_view_html(at)[1]
    assert f"chunk {total} · " in cards and f"chunk {first} · " not in cards
    # find a phrase: the chunks that hold it, wherever they are
    at.text_input(key="_find_in_chunks").input("crate 20993 left").run()
    assert "1 chunk with “crate 20993 left”." in captions(at)
    assert "crate 20993 left" in " ".join(chunk_view_html(at)[1].split())


@pytest.mark.parametrize(
    "name,data,message",
    [
        (
            "pic.md",
            b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4,
            "pic.md looks like a binary file, not text",
        ),
        ("empty.md", b"", "empty.md is empty: nothing to chunk"),
        ("blank.txt", b"   \n\n  ", "blank.txt is empty (only whitespace)"),
        (
            "latin.txt",
            "Caf\u00e9 cr\u00e8me, d\u00e9j\u00e0 vu.".encode("cp1252"),
            "latin.txt is not UTF-8",
        ),
        (
            "huge.md",
            b"word " * (MAX_UPLOAD_BYTES // 5 + 1),
            "huge.md is 5.0 MB, over the 5 MB limit",
        ),
    ],
    ids=["binary", "empty", "blank", "not-utf8", "over-the-limit"],
)
def test_bad_uploads_are_one_line_errors(name, data, message):
    at = upload(open_app(), name, data)
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].startswith(message) and "\n" not in errors[0]
    assert "Upload a .md or .txt document in the sidebar" in all_text(at)
    assert not verdicts(at)


def test_not_utf8_can_be_read_as_the_guessed_encoding():
    at = upload(
        open_app(),
        "latin.txt",
        "Caf\u00e9 cr\u00e8me, d\u00e9j\u00e0 vu. Audit logs stay.".encode("cp1252"),
    )
    click(at, "read_as_button")
    assert not at.error
    assert "Café crème" in at.get("html")[1].proto.body
    assert chunk_count(at) == 1


@pytest.mark.slow
def test_large_upload_sweeps_every_strategy_in_lab_3():
    from tests.app.app_harness import open_lab, plotly_specs

    sample = (APP.parent / "sample_docs" / "platform_data.md").read_bytes() + b"\n\n"
    # -- just long enough that the curves sweep sizes one at a time, behind a progress bar
    copies = PROGRESS_CHARS // len(sample) + 1
    at = upload(open_lab("structure"), "big.md", sample * copies)
    at.text_input(key="own_question").input("how long are audit logs kept?")
    set_widget(at, "radio", "answer_mode", "paste it")
    at.text_area(key="answer_paste").input(
        "Audit logs are retained for four hundred days to satisfy the compliance requirement"
    )
    rerun(at)
    v = verdicts(at)
    assert v[0].startswith("✓") and v[3].startswith("✗ answer split across chunks 4 and 5")
    curves = next(
        s
        for s in plotly_specs(at)
        if s["layout"]["title"]["text"] == "Survival curves, all strategies"
    )
    # a long document's curves over chunking strategies sweep fewer sizes, the current
    # one among them; fixed-size windows are arithmetic and keep every size
    from ui import survival_curves as swept

    points = {t["name"]: t["x"] for t in curves["data"]}
    assert len(points.pop("Fixed size")) > 100
    for x in points.values():
        assert swept.MIN_SWEEP_POINTS <= len(x) <= swept.LONG_SWEEP_POINTS + 1 and 24 in x


def test_a_script_whose_sentences_are_not_found_says_so_once():
    # -- Thai writes no space between words and its sentence ends are not known here:
    # -- the chunk view says, in one line, that it is cut below the sentence
    thai = "# ภาษาไทย\n\n" + "ภาษาไทยเป็นภาษาที่มีระบบเสียงวรรณยุกต์และเขียนโดยไม่เว้นวรรคระหว่างคำ " * 30
    at = upload(open_app(), "thai.md", thai.encode())
    said = [c for c in captions(at) if "cut below the sentence" in c]
    assert said == [
        "Thai text: its sentence ends are not known here, so it is cut below the sentence "
        "(at lines, stops, clause marks and spaces)"
    ]
    assert not at.exception
