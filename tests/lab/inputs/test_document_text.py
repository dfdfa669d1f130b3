"""What a converted document's text holds besides its words: a picture as a short
placeholder (never its data), no permalink pilcrows in headings, and a note for
glyphs of a symbol font that mean nothing as text."""

from __future__ import annotations

from pathlib import Path

from lab.inputs.documents import read_document
from tests.support import ROOT
from tests.support import run_cli as run

DATA = ROOT / "tests" / "data" / "documents"


def test_a_real_word_files_picture_is_a_placeholder_not_base64() -> None:
    # markitdown's test file: a picture that was 97 % of the converted text as base64
    text = read_document(DATA / "markitdown_test.docx").text
    assert "base64" not in text and "data:image" not in text
    assert text.count("](image)") == 1
    assert "AutoGen: Enabling Next-Gen LLM Applications" in text
    assert len(text) < 10_000


def test_a_pictures_alt_text_is_kept_in_word_and_html() -> None:
    import io

    import docx as python_docx
    from PIL import Image  # Streamlit's dependency: any small PNG will do

    picture = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(picture, format="PNG")
    document = python_docx.Document()
    document.add_paragraph("Before the chart.")
    document.add_picture(io.BytesIO(picture.getvalue()))
    document.inline_shapes[0]._inline.docPr.set("descr", "Sales by [region]")
    out = io.BytesIO()
    document.save(out)
    text = read_document(out.getvalue(), name="chart.docx").text
    assert "![Sales by \\[region\\]](image)" in text and "base64" not in text
    page = b'<p>A chart: <img alt="Sales" src="data:image/png;base64,iVBORw0KGgo="></p>'
    text = read_document(page, name="chart.html").text
    assert text == "A chart: ![Sales](image)\n"


def test_sphinx_permalink_pilcrows_are_not_part_of_the_heading() -> None:
    page = (
        b'<h1>Install<a class="headerlink" href="#install" title="Link to this heading">'
        b"\xc2\xb6</a></h1><p>Run pip.</p>"
        b'<h2>Upgrade<a href="#upgrade">\xc2\xb6</a></h2><p>Run pip again.</p>'
    )
    text = read_document(page, name="install.html").text
    assert text == "# Install\n\nRun pip.\n\n## Upgrade\n\nRun pip again.\n"


def test_private_use_glyphs_are_kept_and_reported_in_one_line(tmp_path: Path, capsys) -> None:
    page = "<p>\uf0fc Valve closed</p><p>\uf0fc Casing full</p>".encode()
    doc = read_document(page, name="checks.html")
    assert "\uf0fc Valve closed" in doc.text
    assert doc.notes == (
        "checks.html: 2 character(s) are private-use glyphs of a symbol font (U+F0FC); "
        "they carry no meaning as text",
    )
    (tmp_path / "checks.html").write_bytes(page)
    code, out, err = run(capsys, "chunk", str(tmp_path / "checks.html"))
    assert code == 0 and err == f"note: {doc.notes[0]}\n"
