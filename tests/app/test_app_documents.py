"""Uploading a PDF, an HTML page or a Word file: chunks with their pages and headings,
and every refusal as one line in the sidebar."""

import html
import re

import pytest

from tests import doc_builders as build
from tests.app.app_harness import (
    all_text,
    chunk_count,
    chunk_view_html,
    open_app,
    open_lab,
    set_widget,
    upload,
    verdicts,
)
from ui.sidebar import MAX_UPLOAD_BYTES


def test_an_uploaded_pdf_is_chunked_with_its_pages_and_headings():
    at = upload(open_app(), "manual.pdf", build.three_page_pdf(), "application/pdf")
    assert not at.error and not at.exception
    set_widget(at, "slider", "size", 40)
    assert not at.error
    _, cards = chunk_view_html(at)
    for page in (1, 2, 3):
        assert f"page {page}" in cards
    assert "2. Section 2" in cards and "Impeller bolt" in cards
    assert chunk_count(at) > 3


@pytest.mark.parametrize(
    "name,data",
    [("guide.html", build.HTML.encode()), ("guide.docx", build.docx())],
    ids=["html", "docx"],
)
def test_an_uploaded_page_or_word_file_keeps_its_headings(name, data):
    at = upload(open_app(), name, data, "application/octet-stream")
    assert not at.error and not at.exception
    _, cards = chunk_view_html(at)
    assert "Pump guide" in cards and "Torques" in cards and "Impeller bolt" in cards
    assert "Acme site header" not in cards


@pytest.mark.parametrize(
    "name,data,message",
    [
        ("scan.pdf", build.scanned_pdf(), "scan.pdf has no text layer (a scanned PDF?)"),
        ("locked.pdf", build.encrypted_pdf(), "locked.pdf is encrypted (password-protected)"),
        ("cut.pdf", b"%PDF-1.7\n1 0 obj <<", "cut.pdf is not a readable PDF"),
        ("old.docx", b"PK\x03\x04 not a zip", "old.docx could not be read as a Word"),
        (
            "huge.pdf",
            b"%PDF-1.7\n" + b"0" * MAX_UPLOAD_BYTES,
            "huge.pdf is 5.0 MB, over the 5 MB limit",
        ),
    ],
    ids=["scanned", "encrypted", "broken", "broken-docx", "over-the-limit"],
)
def test_bad_documents_are_one_line_errors(name, data, message):
    at = upload(open_app(), name, data, "application/pdf")
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].startswith(message) and "\n" not in errors[0]
    assert not at.exception and not verdicts(at)
    assert "Upload a .md or .txt document in the sidebar" in all_text(at)


def test_lab_10_shows_what_conversion_did_to_the_manual():
    at = open_lab("boilerplate", doc="warehouse_manual")
    assert "What conversion did: the warehouse manual as markdown, PDF and plain text" in [
        s.value for s in at.subheader
    ]
    [rows] = [t.value.to_dict("records") for t in at.table if "tables" in t.value.columns]
    source, converted, plain = rows
    assert [r["version"] for r in rows] == [
        "markdown (the source)",
        "PDF, converted",
        "PDF, plain text",
    ]
    total = source["headings kept"].split(" of ")[1]
    assert plain["headings kept"] == f"0 of {total}" and int(plain["tables"]) == 0
    assert int(converted["tables"]) == int(source["tables"]) > 0
    assert int(plain["repeated on the pages"]) == 0 < int(converted["repeated on the pages"])
    assert int(plain["answers no longer as written"]) > 0
    assert converted["answers intact"] == source["answers intact"] != plain["answers intact"]


def test_lab_10_shows_a_two_column_page_read_in_order_and_across():
    at = open_lab("boilerplate", doc="warehouse_manual")
    [rows] = [t.value.to_dict("records") for t in at.table if "sentences whole" in t.value.columns]
    assert rows == [
        {"version": "PDF, converted", "sentences whole": "12 of 12", "headings kept": "4 of 4"},
        {"version": "PDF, plain text", "sentences whole": "2 of 12", "headings kept": "0 of 4"},
    ]
    codes = [c.value for c in at.code]
    assert any(c.startswith("## Page 1\n\n### Night shift notes\n\n#### Dock doors") for c in codes)
    # the plain text splices the two columns: a heading of one inside a sentence of the other
    assert any(c.startswith("Night shift notes\n") and "Dock doors degrees." in c for c in codes)


def test_an_upload_whose_pages_pdfium_cannot_read_says_so_in_one_line():
    from tests.support import ROOT

    data = (ROOT / "tests" / "data" / "documents" / "pr136_chinese_page1.pdf").read_bytes()
    at = upload(open_app(), "letter.pdf", data, "application/pdf")
    assert not at.exception and not at.error
    assert [i.value for i in at.sidebar.info if "pdfminer" in i.value] == [
        "letter.pdf: page 1 read with pdfminer: PDFium has no Unicode for the glyphs of their font"
    ]


def test_an_upload_with_a_page_no_reader_can_read_names_it_and_keeps_the_others():
    from tests.support import ROOT

    path = ROOT / "tests" / "data" / "documents" / "unreadable_glyphs_page2.pdf"
    at = upload(open_app(), "agenda.pdf", path.read_bytes(), "application/pdf")
    assert not at.exception and not at.error and chunk_count(at) >= 1
    assert [i.value for i in at.sidebar.info if "cannot be read" in i.value] == [
        "agenda.pdf: page 2 cannot be read: neither PDFium nor pdfminer has Unicode for many "
        "of the glyphs; only what they read as text is kept"
    ]
    doc, _ = chunk_view_html(at)
    shown = html.unescape(re.sub(r"<[^>]+>", "", doc))  # the document as the view shows it
    first, second = shown.split("## Page 2")
    assert "CUPERTINO UNION SCHOOL DISTRICT" in first and second.strip() == ""
