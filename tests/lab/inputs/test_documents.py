"""Reading documents: every refusal is a one-line DocumentError naming problem and fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.inputs.documents import (
    MB,
    Document,
    DocumentError,
    decode_as,
    guess_encoding,
    read_document,
    read_folder,
)
from tests.support import SAMPLES

TEXT = (
    "# Caf\u00e9 notes\r\n\r\n"
    "The na\u00efve r\u00e9sum\u00e9 costs \u20ac5 \u2014 \u201cquoted\u201d.\r\n"
)


def one_line_error(source: object, match: str, **kw: object) -> DocumentError:
    with pytest.raises(DocumentError, match=match) as info:
        read_document(source, **kw)  # type: ignore[arg-type]
    assert "\n" not in str(info.value)
    assert isinstance(info.value, ValueError)
    return info.value


def test_reads_utf8_exactly_as_given(tmp_path: Path) -> None:
    p = tmp_path / "notes.md"
    p.write_bytes(TEXT.encode("utf-8"))
    assert read_document(p) == Document("notes.md", TEXT)  # CRLF kept
    assert read_document(str(p), name="Notes").name == "Notes"
    assert read_document(TEXT.encode("utf-8"), name="up.md").text == TEXT


def test_utf8_bom_is_dropped(tmp_path: Path) -> None:
    p = tmp_path / "bom.md"
    p.write_bytes(b"\xef\xbb\xbf" + TEXT.encode("utf-8"))
    assert read_document(p).text == TEXT


def test_sample_docs_read(tmp_path: Path) -> None:
    doc = read_document(SAMPLES / "platform_data.md")
    assert doc.text == (SAMPLES / "platform_data.md").read_text(encoding="utf-8")


def test_missing_file(tmp_path: Path) -> None:
    one_line_error(tmp_path / "nope.md", r"nope\.md was not found at .*; check the path")


def test_directory(tmp_path: Path) -> None:
    one_line_error(tmp_path, "is a folder, not a file; pick a file inside it")


def test_unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "locked.md"
    p.write_text("text", encoding="utf-8")

    def denied(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", denied)  # root ignores chmod 000
    one_line_error(p, r"locked\.md could not be read \(Permission denied\); check its permissions")


@pytest.mark.parametrize(
    "data,what",
    [
        (b"", "is empty: nothing to chunk"),
        (b" \r\n\t\n ", r"is empty \(only whitespace\): nothing to chunk"),
        (b"\xef\xbb\xbf", "is empty: nothing to chunk"),
    ],
)
def test_empty(tmp_path: Path, data: bytes, what: str) -> None:
    p = tmp_path / "blank.md"
    p.write_bytes(data)
    one_line_error(p, "blank.md " + what)


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4,
        bytes([1, 2, 3, 4, 5, 6, 7, 8, 65]) * 50,
    ],
)  # no NUL, all controls
def test_binary(data: bytes) -> None:
    one_line_error(data, "img.png looks like a binary file, not text", name="img.png")


def test_control_characters_below_the_share_are_text() -> None:
    data = (
        b"Log line \x1b[1mbold\x1b[0m and a form feed\x0c and one bell \x07 in a long line of text."
    )
    assert read_document(data, name="log.txt").text == data.decode()


@pytest.mark.parametrize(
    "encoding,label,codec",
    [
        ("utf-16", "UTF-16", "utf-16"),
        ("utf-16-le", "UTF-16", "utf-16-le"),
        ("utf-16-be", "UTF-16", "utf-16-be"),
        ("utf-32", "UTF-32", "utf-32"),
        ("cp1252", "Windows-1252", "cp1252"),
    ],
)
def test_not_utf8_names_the_encoding_and_decode_as_reads_it(
    encoding: str, label: str, codec: str
) -> None:
    data = TEXT.encode(encoding)
    expected = (
        rf"x\.md is not UTF-8 \(.*it looks like {label}\); "
        rf"save it as UTF-8 or read it as {label}"
    )
    err = one_line_error(data, expected, name="x.md")
    assert err.encoding == codec
    assert decode_as(data, codec, name="x.md") == Document("x.md", TEXT)


def test_latin1_when_cp1252_cannot_decode() -> None:
    data = "caf\u00e9 \x81 control".encode("latin-1")  # 0x81 is unassigned in cp1252
    assert guess_encoding(data) == "latin-1"
    err = one_line_error(data, r"byte 0xE9 at offset 3; it looks like Latin-1", name="x.txt")
    assert decode_as(data, err.encoding or "").text == "caf\u00e9 \x81 control"


def test_decode_as_errors() -> None:
    with pytest.raises(DocumentError, match="not an encoding Python knows"):
        decode_as(b"abc", "klingon")
    with pytest.raises(DocumentError, match=r"not valid utf-8 either \(byte 0xE9 at offset 1\)"):
        decode_as(b"x\xe9", "utf-8", name="f.md")
    with pytest.raises(DocumentError, match="is empty"):
        decode_as("  ".encode("utf-16"), "utf-16")


def test_over_the_size_limit(tmp_path: Path) -> None:
    p = tmp_path / "big.md"
    p.write_bytes(b"word " * (16 * MB // 5 + 1))
    one_line_error(p, r"big\.md is 16\.0 MB, over the 10 MB limit; split it", max_bytes=10 * MB)
    one_line_error(b"a" * (MB + 1), r"is 1\.0 MB, over the 1 MB limit", max_bytes=MB)
    assert read_document(b"a" * MB, max_bytes=MB).text == "a" * MB


def test_read_folder_reports_instead_of_skipping(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("alpha", encoding="utf-8")
    (tmp_path / "B.TXT").write_text("bravo", encoding="utf-8")
    (tmp_path / "empty.md").write_bytes(b"")
    (tmp_path / "wide.txt").write_bytes("wide".encode("utf-16"))
    (tmp_path / "notes.gold.jsonl").write_text("{}", encoding="utf-8")  # not a pattern: not read
    (tmp_path / ".hidden.md").write_text("x", encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD.txt").write_text("ref", encoding="utf-8")
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "sub" / "deeper" / "c.md").write_text("charlie", encoding="utf-8")
    (tmp_path / "sub" / "bad.md").write_bytes(b"\x00\x01binary")
    docs, problems = read_folder(tmp_path)
    assert [(d.name, d.text) for d in docs] == [
        ("B.TXT", "bravo"),
        ("a.md", "alpha"),
        ("sub/deeper/c.md", "charlie"),
    ]
    assert [(Path(p).relative_to(tmp_path).as_posix(), m) for p, m in problems] == [
        ("empty.md", "empty.md is empty: nothing to chunk; pick a file with text in it"),
        (
            "wide.txt",
            "wide.txt is not UTF-8 (it looks like UTF-16); save it as UTF-8 or read it as UTF-16",
        ),
        (
            "sub/bad.md",
            "sub/bad.md looks like a binary file, not text; "
            "pick a plain-text file (export documents as .md or .txt first)",
        ),
    ]


def test_read_folder_on_the_sample_docs() -> None:
    docs, problems = read_folder(SAMPLES)
    assert len(docs) == 13 and problems == []


def test_read_folder_empty_or_missing(tmp_path: Path) -> None:
    message = f"no *.md or *.txt files in {tmp_path.name} (nor *.pdf, *.html, *.htm, *.docx)"
    assert read_folder(tmp_path) == ([], [(str(tmp_path), message)])
    with pytest.raises(DocumentError, match="was not found; pick a folder"):
        read_folder(tmp_path / "missing")
