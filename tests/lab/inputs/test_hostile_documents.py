"""Files built to hurt the converter: a Word file whose zip expands a thousandfold,
a page nested thousands of elements deep, a PDF of too many pages. Each is refused
in one line, before the work (and the memory) it would have cost."""

from __future__ import annotations

import io
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from lab.inputs.convert import limits
from lab.inputs.documents import DocumentError, read_document
from tests import doc_builders as build
from tests.support import run_cli as run

_CONTENT_TYPES = (
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
    'content-types"/>'
)


def _zip_bomb(expanded: int) -> bytes:
    """A .docx-shaped zip whose document part expands to ``expanded`` bytes of
    spaces inside a paragraph: a few hundred kilobytes on disk."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", _CONTENT_TYPES)
        with z.open("word/document.xml", "w") as part:
            part.write(b"<w:document><w:body><w:p><w:r><w:t>")
            block = b" " * (1 << 20)
            for _ in range(expanded >> 20):
                part.write(block)
            part.write(b"</w:t></w:r></w:p></w:body></w:document>")
    return out.getvalue()


def _nested(depth: int) -> bytes:
    return ("<html><body>" + "<div>" * depth + "deep text" + "</div>" * depth).encode()


def test_a_zip_bomb_is_refused_from_its_directory_in_one_line(tmp_path: Path, capsys) -> None:
    bomb = _zip_bomb(4 * limits.MAX_EXPANDED_BYTES)
    assert len(bomb) < limits.MAX_EXPANDED_BYTES // 50  # small on disk: the size check passes
    tracemalloc.start()
    try:
        with pytest.raises(DocumentError) as refused:
            read_document(bomb, name="bomb.docx", max_bytes=5 * 1024 * 1024)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(refused.value)
    assert message.startswith("bomb.docx expands to 100 MB when unpacked, over the 25 MB limit")
    assert "\n" not in message
    assert peak < 10 * limits.MB  # its 100 MB were never unpacked
    (tmp_path / "bomb.docx").write_bytes(bomb)
    code, out, err = run(capsys, "chunk", str(tmp_path / "bomb.docx"))
    assert code == 2 and out == "" and "expands to 100 MB" in err and err.count("\n") == 1


def test_a_page_nested_five_thousand_deep_is_one_line_not_a_recursion_error(
    tmp_path: Path, capsys
) -> None:
    page = _nested(5000)
    with pytest.raises(DocumentError) as refused:
        read_document(page, name="deep.html")
    assert str(refused.value) == (
        f"deep.html nests its elements 5002 deep, over the {limits.MAX_DEPTH} limit; "
        "is it a generated or hostile page?"
    )
    (tmp_path / "deep.html").write_bytes(page)
    code, out, err = run(capsys, "chunk", str(tmp_path / "deep.html"))
    assert code == 2 and out == "" and "nests its elements 5002 deep" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_page_nested_to_the_limit_still_converts() -> None:
    text = read_document(_nested(limits.MAX_DEPTH - 2), name="deep.html").text
    assert text == "deep text\n"


def test_a_word_file_nested_too_deep_in_tables_is_refused_in_one_line() -> None:
    inner = "<w:tbl><w:tr><w:tc>{}</w:tc></w:tr></w:tbl>"
    body = "<w:p><w:r><w:t>cell</w:t></w:r></w:p>"
    for _ in range(limits.MAX_DEPTH):
        body = inner.format(body + "<w:p/>")
    data = build.docx_with_body(body)
    with pytest.raises(DocumentError) as refused:
        read_document(data, name="tables.docx")
    assert str(refused.value).startswith("tables.docx nests its elements")
    assert "\n" not in str(refused.value)


def test_text_beyond_the_limit_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(limits, "MAX_TEXT_CHARS", 1000)
    page = ("<p>" + "word " * 400 + "</p>").encode()
    with pytest.raises(DocumentError) as refused:
        read_document(page, name="long.html")
    assert str(refused.value) == (
        "long.html converts to 2,000 characters of text, over the 1,000 limit; split it"
    )
    with pytest.raises(DocumentError, match=r"^manual.pdf converts to more than 1,000 "):
        read_document(build.three_page_pdf(), name="manual.pdf")


def test_a_pdf_of_too_many_pages_is_refused_before_reading_them(monkeypatch) -> None:
    monkeypatch.setattr(limits, "MAX_PAGES", 2)
    with pytest.raises(DocumentError) as refused:
        read_document(build.three_page_pdf(), name="manual.pdf")
    assert str(refused.value) == "manual.pdf has 3 pages, over the 2-page limit; split it"
