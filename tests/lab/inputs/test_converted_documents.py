"""PDF, HTML and Word documents, made here: their pages, heading paths, tables,
running footers, and every refusal as one line (library and command line)."""

from __future__ import annotations

import builtins
import io
import json
from pathlib import Path

import pytest

from chunkers import ChunkOptions, chunk_with
from lab.inputs.documents import DocumentError, read_document, read_folder
from lab.inputs.exports import chunking_config, from_csv, from_jsonl, to_csv, to_jsonl
from lab.measure.boilerplate import find_boilerplate
from tests import doc_builders as build
from tests.support import run_cli as run

OPTIONS = ChunkOptions(size=120, overlap=0)  # a section's table or list is a chunk of its own


@pytest.fixture(scope="module")
def pdf() -> bytes:
    return build.three_page_pdf()


def _chunk(text: str) -> list:
    return chunk_with(text, "structural", OPTIONS)


def _table_chunks(chunks: list) -> list:
    return [c for c in chunks if "Impeller bolt" in c.body or "Flange bolt" in c.body]


def test_a_pdfs_pages_become_page_sections_and_every_chunk_knows_its_page(
    tmp_path: Path, pdf: bytes
) -> None:
    path = tmp_path / "manual.pdf"
    path.write_bytes(pdf)
    doc = read_document(path)
    assert doc.name == "manual.pdf"
    assert [n for n, _, _ in doc.pages] == [1, 2, 3]
    for number, start, end in doc.pages:
        assert doc.text[start:end].startswith(f"## Page {number}\n")
        assert f"The pump on page {number} must be primed" in doc.text[start:end]
    for c in _chunk(doc.text):
        on_page = next(n for n, s, e in doc.pages if s <= c.start < e)
        assert c.page == on_page
        assert c.heading_path[:2] == (f"Page {on_page}", f"{on_page}. Section {on_page}")


def test_the_pdfs_table_stays_one_table_chunk(pdf: bytes) -> None:
    doc = read_document(pdf, name="manual.pdf")
    assert "| Part | Torque (Nm) |\n| --- | --- |\n| Impeller bolt | 45 |" in doc.text
    tables = _table_chunks(_chunk(doc.text))
    assert len(tables) == 1 and tables[0].kind == "table" and tables[0].page == 2
    assert "Impeller bolt | 45" in tables[0].body and "Flange bolt | 30" in tables[0].body


def test_the_pdfs_running_footer_is_found_as_boilerplate_on_every_page(pdf: bytes) -> None:
    doc = read_document(pdf, name="manual.pdf")
    report = find_boilerplate({doc.name: doc.text}, options=OPTIONS)
    footers = [f for f in report.findings if build.FOOTER in f.text]
    assert len(footers) == 1 and footers[0].units == 3 and footers[0].out_of == 3
    assert [o.unit for o in footers[0].occurrences] == ["page 1", "page 2", "page 3"]


def test_html_keeps_headings_lists_tables_pre_and_links_and_drops_the_site_chrome() -> None:
    doc = read_document(build.HTML.encode(), name="guide.html")
    text = doc.text
    assert doc.pages == ()
    assert "[safety notes](https://example.com/safety)" in text
    assert "- Close the discharge valve.\n- Fill the casing with water." in text
    assert "```\npump --prime --valve closed\n```" in text
    for chrome in ("Acme site header", "Home", "site footer", "tracking", "color: red"):
        assert chrome not in text
    chunks = _chunk(text)
    tables = _table_chunks(chunks)
    assert len(tables) == 1 and tables[0].kind == "table"
    assert tables[0].heading_path == ("Pump guide", "Torques")
    priming = next(c for c in chunks if "discharge valve" in c.body)
    assert priming.heading_path == ("Pump guide", "Priming")


def test_a_word_files_headings_lists_and_table_survive() -> None:
    text = read_document(build.docx(), name="guide.docx").text
    assert text.startswith("# Pump guide\n")
    assert "- Close the discharge valve.\n- Fill the casing with water." in text
    assert "| Part | Torque (Nm) |\n| --- | --- |\n| Impeller bolt | 45 |" in text
    tables = _table_chunks(_chunk(text))
    assert len(tables) == 1 and tables[0].kind == "table"
    assert tables[0].heading_path == ("Pump guide", "Torques")


REFUSALS = [
    ("scan.pdf", build.scanned_pdf, "scan.pdf has no text layer (a scanned PDF?); run OCR"),
    ("locked.pdf", build.encrypted_pdf, "locked.pdf is encrypted (password-protected)"),
    ("cut.pdf", lambda: b"%PDF-1.7\n1 0 obj <<", "cut.pdf is not a readable PDF"),
    ("old.docx", lambda: b"PK\x03\x04 not a zip", "old.docx could not be read as a Word"),
    ("empty.pdf", lambda: b"", "empty.pdf is empty: nothing to chunk"),
    ("blank.html", lambda: b"<nav>menu</nav><script>x()</script>", "blank.html has no text"),
]


@pytest.mark.parametrize(("name", "make", "message"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_every_refusal_is_one_line(tmp_path: Path, capsys, name, make, message) -> None:
    data = make()
    with pytest.raises(DocumentError) as refused:
        read_document(data, name=name)
    assert str(refused.value).startswith(message) and "\n" not in str(refused.value)
    (tmp_path / name).write_bytes(data)
    code, out, err = run(capsys, "chunk", str(tmp_path / name))
    assert code == 2 and out == "" and message in err and err.count("\n") == 1
    assert "Traceback" not in err


PDF_NEEDS = "reading PDF files needs pypdfium2 and pdfplumber"
HTML_NEEDS = "reading HTML files needs markdownify, beautifulsoup4 and trafilatura"
MISSING = [
    ("pypdfium2", "manual.pdf", PDF_NEEDS),
    ("pdfplumber", "manual.pdf", PDF_NEEDS),
    ("bs4", "guide.html", HTML_NEEDS),
    ("markdownify", "guide.html", HTML_NEEDS),
    ("trafilatura", "guide.html", HTML_NEEDS),
    ("mammoth", "guide.docx", "reading Word files needs mammoth"),
]


@pytest.mark.parametrize(("package", "name", "needs"), MISSING, ids=[m[0] for m in MISSING])
def test_a_missing_converter_names_the_pip_install(
    tmp_path: Path, capsys, monkeypatch, pdf: bytes, package, name, needs
) -> None:
    data = {".pdf": pdf, "html": build.HTML.encode(), "docx": build.docx()}[name[-4:]]
    real_import = builtins.__import__

    def without(module, *args, **kwargs):
        if module == package or module.startswith(package + "."):
            raise ImportError(module)
        return real_import(module, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without)
    with pytest.raises(DocumentError) as refused:
        read_document(data, name=name)
    assert str(refused.value) == f"{needs}: pip install 'chunk-lab[documents]'"
    (tmp_path / name).write_bytes(data)
    code, out, err = run(capsys, "chunk", str(tmp_path / name))
    assert code == 2 and out == "" and needs in err and err.count("\n") == 1


def test_uploads_keep_the_size_limit_before_converting(pdf: bytes) -> None:
    with pytest.raises(DocumentError, match=r"^manual.pdf is 0.0 MB, over the .* MB limit; split"):
        read_document(pdf, name="manual.pdf", max_bytes=len(pdf) - 1)


def test_a_folder_may_mix_formats_and_the_cli_reads_them_all(
    tmp_path: Path, capsys, pdf: bytes
) -> None:
    (tmp_path / "manual.pdf").write_bytes(pdf)
    (tmp_path / "guide.html").write_text(build.HTML, encoding="utf-8")
    (tmp_path / "guide.docx").write_bytes(build.docx())
    (tmp_path / "notes.md").write_text("# Notes\n\nPrime the pump first.\n", encoding="utf-8")
    docs, problems = read_folder(tmp_path)
    assert problems == []
    assert [d.name for d in docs] == ["guide.docx", "guide.html", "manual.pdf", "notes.md"]
    code, out, err = run(capsys, "chunk", str(tmp_path / "manual.pdf"), "--size", "120", "--json")
    assert code == 0, err
    table = next(c for c in json.loads(out) if "Impeller bolt" in c["body"])
    assert table["page"] == 2 and table["kind"] == "table"
    code, out, err = run(capsys, "stats", str(tmp_path), "--json")
    assert code == 0, err
    assert json.loads(out)["documents"] == 4 and json.loads(out)["unreadable"] == []


def test_an_export_keeps_each_chunks_source_file_and_page(pdf: bytes) -> None:
    doc = read_document(pdf, name="manual.pdf")
    chunks = _chunk(doc.text)
    config = chunking_config(doc.name, doc.text, "structural", OPTIONS)
    for export, back in ((to_jsonl, from_jsonl), (to_csv, from_csv)):
        read_config, read_chunks = back(export(chunks, config))
        assert read_config["document"] == "manual.pdf"
        assert [c.page for c in read_chunks] == [c.page for c in chunks]
        assert {c.page for c in read_chunks} == {1, 2, 3}


def test_letters_beyond_u_ffff_do_not_shift_the_headings_after_them() -> None:
    # each such letter is two UTF-16 units to pdfium and one character to Python
    text = read_document(build.astral_pdf(), name="math.pdf").text
    line = "Text 𝐀𝐁𝐂𝐃𝐀𝐁𝐂𝐃 and 𝐀𝐁𝐂𝐃."
    assert text == "## Page 1\n\n" + f"{line}\n\n### H\n\n" * 2 + f"{line}\n\n### H\n"


def test_a_turned_page_reads_top_to_bottom_as_shown() -> None:
    text = read_document(build.turned_pdf(), name="turned.pdf").text
    assert text == (
        "## Page 1\n\n### Turned heading\n\n"
        "The first line of the body on a turned page,\n"
        "and the second line of the same paragraph.\n\n"
        "A new paragraph after a wider gap,\nand its second line.\n"
    )


def test_a_page_whose_corner_is_not_at_zero_keeps_its_table_and_lines_apart(pdf: bytes) -> None:
    import pypdfium2

    moved = pypdfium2.PdfDocument(pdf)
    for page in moved:
        left, bottom, right, top = page.get_bbox()
        page.set_mediabox(left - 20, bottom + 40, right - 20, top + 40)
        page.set_cropbox(left - 15, bottom + 45, right - 25, top + 35)
    out = io.BytesIO()
    moved.save(out)
    moved.close()
    as_printed = read_document(pdf, name="manual.pdf").text
    assert read_document(out.getvalue(), name="moved.pdf").text == as_printed


def test_a_word_hyphenated_at_a_line_end_is_joined_and_its_lines_and_paragraph_kept() -> None:
    # pdfium joins such a line to the next and marks the hyphen with U+FFFE
    text = read_document(build.hyphenated_pdf(), name="hyphen.pdf").text
    assert text == (
        "## Page 1\n\nA word broken over two lines: manipulation,\nthen\na third line.\n\n"
        "A second paragraph.\n"
    )


def test_a_real_hyphen_at_a_line_end_is_kept_when_the_text_writes_the_word_whole() -> None:
    text = read_document(
        build.hyphenated_pdf(
            "A well-known pump. The well-\nknown pump and the con-\nfirming test."
        ),
        name="hyphen.pdf",
    ).text
    assert "The well-known\npump and the confirming\ntest." in text
    assert "con-" not in text and "well-\n" not in text


@pytest.mark.parametrize("pitch", [5.6, 6.8], ids=["one paragraph", "a paragraph a line"])
def test_a_line_in_another_font_starts_a_paragraph_only_as_one_in_the_same_font(pitch) -> None:
    # fonts rise above and sink below the line by different amounts: the gap
    # between lines is measured as if every line were as tall as its type
    same = read_document(build.three_lines_pdf("Helvetica", pitch), name="same.pdf").text
    mixed = read_document(build.three_lines_pdf("Courier", pitch), name="mixed.pdf").text
    assert mixed == same
    assert same.count("\n\n") == (1 if pitch < 6 else 3)


def test_a_table_drawn_as_lines_is_a_table_and_a_cells_two_lines_one_cell() -> None:
    text = read_document(build.grid_pdf(), name="grid.pdf").text
    assert text == (
        "## Page 1\n\nThe torques, bolt by bolt:\n\n"
        "| Part | Torque (Nm) |\n| --- | --- |\n| Impeller bolt | 45 |\n"
        "| Flange bolt | 30, then 35 |\n\nTighten them crosswise.\n"
    )
