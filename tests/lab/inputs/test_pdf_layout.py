"""Real PDFs as a reader reads them: columns one after the other, headings that
are headings, running headers that are boilerplate and never a heading path."""

from __future__ import annotations

import io
import re
from functools import cache

import pytest

from chunkers import ChunkOptions, chunk_with
from lab.inputs.documents import read_document
from tests.support import ROOT

DATA = ROOT / "tests" / "data" / "documents"
FEDERAL = DATA / "federal_register_pages_1-6.pdf"


def _letters(text: str) -> str:
    """Letters only: line breaks, hyphenation and spacing aside, the same words in
    the same order read the same."""
    return re.sub(r"[^a-z]", "", text.casefold())


@cache
def _trusted_sentences(path: str) -> list[str]:
    """Body sentences in a reading order we trust: pdfminer's layout analysis,
    which groups a page's lines into boxes and orders the boxes column by column."""
    from pdfminer.high_level import extract_text
    from pdfminer.layout import LAParams

    text = re.sub(r"-\n(?=[a-z])", "", extract_text(path, laparams=LAParams()))
    out = []
    for paragraph in re.split(r"\n\s*\n", text):
        flat = " ".join(paragraph.split())
        for sentence in re.split(r"(?<=[.;:?!])\s+(?=[A-Z(])", flat):
            words = [w for w in sentence.split() if len(re.sub(r"\W", "", w)) >= 3]
            if len(words) >= 8:  # a sentence of the body, not a stamp's letters
                out.append(sentence)
    return out


def test_three_columns_are_read_one_after_the_other() -> None:
    sentences = _trusted_sentences(str(FEDERAL))
    assert len(sentences) >= 100
    text = _letters(read_document(FEDERAL).text)
    whole = [s for s in sentences if _letters(s) in text]
    assert len(whole) >= 0.9 * len(sentences), len(whole) / len(sentences)


def test_a_column_broken_paragraph_reads_on_and_the_title_stays_above() -> None:
    text = read_document(FEDERAL).text
    assert (
        "ADDRESSES: You may send comments,\nusing the procedures found in 14 CFR\n"
        "11.43 and 11.45, by any of the following\nmethods:\n"
        "• Federal eRulemaking Portal: Go to\nhttps://www.regulations.gov."
    ) in text
    assert text.index("DEPARTMENT OF TRANSPORTATION") < text.index("SUMMARY: The FAA proposes")


@pytest.mark.parametrize("strategy", ["structural", "fixed"])
def test_every_chunk_of_a_real_pdf_has_a_page(strategy) -> None:
    text = read_document(FEDERAL).text
    chunks = chunk_with(text, strategy, ChunkOptions(size=200, overlap=0))
    assert all(c.page is not None for c in chunks)
    assert {c.page for c in chunks} == set(range(1, 7))


AGENDA = DATA / "cupertino_usd_agenda.pdf"
_HEADINGS = re.compile(r"^#{3,6} (.+)$", re.M)


def test_an_agendas_items_are_headings_and_its_sentences_are_not() -> None:
    text = read_document(AGENDA).text
    headings = _HEADINGS.findall(text)
    assert "1. CALL TO ORDER/FLAG SALUTE" in headings and "6. ADJOURNMENT" in headings
    assert [h for h in headings if len(h.split()) >= 10] == []
    assert not any(h.startswith("The public may address the Board") for h in headings)
    assert "The public may address the Board" in text  # kept, as text


def test_real_pdfs_have_few_long_headings_and_no_running_header_in_a_heading_path() -> None:
    federal = read_document(FEDERAL).text
    headings = _HEADINGS.findall(federal)
    assert "Airworthiness Directives; The Boeing Company Airplanes" in headings
    assert "Background" in headings
    assert [h for h in headings if len(h.split()) >= 10] == []
    chunks = chunk_with(federal, "structural", ChunkOptions(size=200, overlap=0))
    paths = {h for c in chunks for h in c.heading_path}
    assert not any("Vol. 85" in h or "VerDate" in h or "DSKJLSW7X2PROD" in h for h in paths)


def test_the_running_header_and_the_margin_stamp_are_boilerplate() -> None:
    from lab.measure.boilerplate import find_boilerplate

    doc = read_document(FEDERAL)
    report = find_boilerplate({doc.name: doc.text}, options=ChunkOptions(size=200))
    found = {f.text.split()[0]: f for f in report.findings}
    # the footer's stamp and the margin's, one block on every page: one finding
    assert found["VerDate"].units == 6 and "jbell on DSKJLSW7X2PROD" in found["VerDate"].text
    found = {word: f.units for word, f in found.items()}
    assert found.get("Federal") == 3  # the odd pages' header; the even pages' opens on page 3


def test_a_header_on_a_third_of_the_pages_at_the_same_place_is_boilerplate() -> None:
    from lab.measure.boilerplate import find_boilerplate

    header = "Plan local d'urbanisme - Orientations d'aménagement"
    pages = []
    for n in range(1, 13):
        top = f"{header}\n\n" if n % 3 == 0 else ""
        words = " ".join(["pine", "oak", "ash", "elm", "yew", "fir", "box"][n % 7 :] * 2)
        body = f"Parcel {n} lies along the {words.split()[-1]} road, {n % 4 * 'far '}out."
        pages.append(f"## Page {n}\n\n{top}{body}\n\nTrees here: {words}.\n")
    report = find_boilerplate({"plan.md": "".join(pages)}, options=ChunkOptions(size=60, overlap=0))
    assert [(f.text, f.units, f.out_of) for f in report.findings] == [(header, 4, 12)]


CHINESE = DATA / "pr136_chinese_page1.pdf"


def test_chinese_text_pdfium_cannot_read_is_read_as_pdfplumber_reads_it(tmp_path, capsys) -> None:
    import pdfplumber

    from tests.support import run_cli as run

    with pdfplumber.open(CHINESE) as pdf:
        theirs = pdf.pages[0].extract_text()

    def han(text: str) -> str:
        return "".join(c for c in text if "\u4e00" <= c <= "\u9fff")

    doc = read_document(CHINESE)
    assert len(han(theirs)) == 475 and han(doc.text) == han(theirs)
    assert "关于浙江菲达环保科技股份有限公司" in doc.text
    assert doc.notes == (
        "pr136_chinese_page1.pdf: page 1 read with pdfminer: PDFium has no Unicode for "
        "the glyphs of their font",
    )
    code, out, err = run(capsys, "chunk", str(CHINESE))
    assert code == 0 and err == f"note: {doc.notes[0]}\n"


def test_a_documents_bookmarks_make_headings_its_type_alone_would_not() -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    title = "Scope of the work on the pumps, valves and seals of the north hall"
    pdf.start_section(title, level=0)
    pdf.cell(0, 6, title, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.start_section("Valves", level=1)
    pdf.cell(0, 6, "Valves", new_x="LMARGIN", new_y="NEXT")
    pdf.multi_cell(0, 6, "Each valve is checked before the pumps start. " * 6)
    text = read_document(bytes(pdf.output()), name="outline.pdf").text
    # body size, body weight, fourteen words: a heading only because the outline says so
    assert text.startswith(f"## Page 1\n\n### {title}\n\n#### Valves\n\nEach valve is checked")


# -- a real page whose fonts map glyphs to no Unicode in either reader: PDFium gives
# -- glyph codes (control characters), pdfminer "(cid:N)"; the page before it reads
UNREADABLE = DATA / "unreadable_glyphs_page2.pdf"
UNREADABLE_NOTE = (
    "unreadable_glyphs_page2.pdf: page 2 cannot be read: neither PDFium nor pdfminer has "
    "Unicode for many of the glyphs; only what they read as text is kept"
)


def _glyph_codes(text: str) -> str:
    import unicodedata

    return "".join(c for c in text if not c.isspace() and unicodedata.category(c) in ("Cc", "Cn"))


def test_a_page_neither_reader_can_read_is_one_line_and_the_other_pages_are_kept(capsys) -> None:
    from tests.support import run_cli as run

    doc = read_document(UNREADABLE)
    first, second = doc.text.split("## Page 2")
    assert "CUPERTINO UNION SCHOOL DISTRICT" in first and "CALL TO ORDER" in first
    assert second.strip() == "" and _glyph_codes(doc.text) == ""  # no glyph codes as text
    assert doc.notes == (UNREADABLE_NOTE,)
    code, out, err = run(capsys, "chunk", str(UNREADABLE))
    assert code == 0 and err == f"note: {UNREADABLE_NOTE}\n"
    assert "CUPERTINO UNION SCHOOL DISTRICT" in out and "Traceback" not in out + err


def test_a_pdf_with_only_unreadable_glyphs_is_refused_in_one_line_naming_them(
    tmp_path, capsys
) -> None:
    import pypdfium2

    from lab.inputs.documents import DocumentError
    from tests.support import run_cli as run

    src, page = pypdfium2.PdfDocument(UNREADABLE), pypdfium2.PdfDocument.new()
    page.import_pages(src, [1])
    buffer = io.BytesIO()
    page.save(buffer)
    with pytest.raises(DocumentError) as caught:
        read_document(buffer.getvalue(), "slide.pdf")
    said = (
        "slide.pdf: page 1 cannot be read: neither PDFium nor pdfminer has Unicode for the "
        "glyphs (fonts without a Unicode map); no text to chunk"
    )
    assert str(caught.value) == said
    (tmp_path / "slide.pdf").write_bytes(buffer.getvalue())
    code, out, err = run(capsys, "chunk", str(tmp_path / "slide.pdf"))
    assert code == 2 and out == "" and err.count("\n") == 1 and said in err


def test_a_page_pdfium_reads_as_glyph_codes_is_read_by_pdfminer() -> None:
    # -- a real one-page file: PDFium gives control characters, pdfminer the words
    doc = read_document(DATA / "glyph_codes_pdfminer_reads.pdf")
    assert "pint test" in doc.text and "OpenAction = Print" in doc.text
    assert _glyph_codes(doc.text) == ""
    assert doc.notes == (
        "glyph_codes_pdfminer_reads.pdf: page 1 read with pdfminer: PDFium has no Unicode "
        "for the glyphs of their font",
    )
