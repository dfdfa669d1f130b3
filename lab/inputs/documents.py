"""Reading documents for the lab: every refusal is one line naming the problem and the fix.

Text is kept exactly as given (CRLF stays CRLF, since chunk offsets index it);
only a UTF-8 byte-order mark is dropped.
"""

from __future__ import annotations

import codecs
import fnmatch
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lab.inputs.convert import ConversionError, convert, needs_conversion

MB = 1024 * 1024
# what a folder's documents are: text as it is, the rest converted to markdown
DOCUMENT_PATTERNS = ("*.md", "*.txt", "*.pdf", "*.html", "*.htm", "*.docx")
_SAMPLE = 64 * 1024  # bytes inspected for binary content
_CONTROL_SHARE = 0.10  # over 10% control bytes: not prose
_TEXT_CONTROLS = frozenset(b"\t\n\r\x0c\x1b")  # controls real text files carry
_LABELS = {
    "utf-16": "UTF-16",
    "utf-16-le": "UTF-16",
    "utf-16-be": "UTF-16",
    "utf-32": "UTF-32",
    "cp1252": "Windows-1252",
    "latin-1": "Latin-1",
}


class DocumentError(ValueError):
    """A document the lab cannot use. ``encoding`` is a codec worth offering, if any."""

    def __init__(self, message: str, encoding: str | None = None) -> None:
        super().__init__(message)
        self.encoding = encoding


@dataclass(frozen=True, slots=True)
class Document:
    name: str
    text: str  # a PDF, HTML or Word file's text is the markdown it converted to
    # a PDF's (page number, start, end) in text: its "## Page N" sections
    pages: tuple[tuple[int, int, int], ...] = ()
    notes: tuple[str, ...] = ()  # what conversion says about it, a line each


def _from_bytes(data: bytes, label: str) -> Document:
    if not needs_conversion(label):
        return Document(label, decode(data, label))
    if not data:
        raise DocumentError(f"{label} is empty: nothing to chunk; pick a file with text in it")
    try:
        converted = convert(data, label)
    except ConversionError as e:
        raise DocumentError(str(e)) from None
    return Document(label, _check_text(converted.markdown, label), converted.pages, converted.notes)


def encoding_label(codec: str) -> str:
    """What people call a codec: "cp1252" -> "Windows-1252"."""
    return _LABELS.get(codec.lower(), codec)


def guess_encoding(data: bytes) -> str | None:
    """A codec name for bytes that are not UTF-8: BOMs first, then NUL patterns, then
    the Windows/Latin single-byte pair. Good enough to offer, never certain."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    sample = data[:_SAMPLE]
    if len(sample) >= 4 and b"\x00" in sample:
        # ASCII-heavy UTF-16 without a BOM: every other byte is NUL
        even, odd = sample[0::2], sample[1::2]
        for codec, zeros, chars in (("utf-16-le", odd, even), ("utf-16-be", even, odd)):
            if zeros.count(0) >= 0.9 * len(zeros) and chars.count(0) <= 0.1 * len(chars):
                return codec
        return None
    try:
        data.decode("utf-8")
        return None
    except UnicodeDecodeError:
        pass
    try:
        data.decode("cp1252")
        return "cp1252"
    except UnicodeDecodeError:  # 0x81, 0x8D, 0x8F, 0x90, 0x9D are unassigned in cp1252
        return "latin-1"


_CONTROL_BYTES = bytes(b for b in range(0x20) if b not in _TEXT_CONTROLS) + b"\x7f"


def _looks_binary(data: bytes) -> bool:
    sample = data[:_SAMPLE]
    if b"\x00" in sample:
        return True
    # counted in C (bytes.translate deletes them): a folder of thousands of files adds up
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    return bool(sample) and controls / len(sample) > _CONTROL_SHARE


def _check_text(text: str, name: str, allow_empty: bool = False) -> str:
    if not text.strip() and not allow_empty:
        what = "is empty" if not text else "is empty (only whitespace)"
        raise DocumentError(f"{name} {what}: nothing to chunk; pick a file with text in it")
    return text


def decode(data: bytes, name: str, *, allow_empty: bool = False) -> str:
    """UTF-8 text from bytes, BOM dropped, or a DocumentError saying what they are."""
    if not data and not allow_empty:
        raise DocumentError(f"{name} is empty: nothing to chunk; pick a file with text in it")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    guess = guess_encoding(data)
    # before the NUL test: UTF-16 text is full of NULs
    if guess is not None and guess.startswith("utf-"):
        label = _LABELS[guess]
        raise DocumentError(
            f"{name} is not UTF-8 (it looks like {label}); save it as UTF-8 or read it as {label}",
            guess,
        )
    if _looks_binary(data):
        raise DocumentError(
            f"{name} looks like a binary file, not text; "
            "pick a plain-text file (export documents as .md or .txt first)"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        label = _LABELS.get(guess or "", "another encoding")
        bad = data[e.start]
        raise DocumentError(
            f"{name} is not UTF-8 (byte 0x{bad:02X} at offset {e.start}; it looks like {label}); "
            f"save it as UTF-8 or read it as {label}",
            guess,
        ) from None
    return _check_text(text, name, allow_empty)


def _size_check(size: int, name: str, max_bytes: int | None) -> None:
    if max_bytes is not None and size > max_bytes:
        raise DocumentError(
            f"{name} is {size / MB:.1f} MB, over the {max_bytes / MB:g} MB limit; "
            "split it into smaller files"
        )


def read_document(
    source: str | os.PathLike[str] | bytes | bytearray | memoryview,
    name: str | None = None,
    max_bytes: int | None = None,
) -> Document:
    """A document from a path or from bytes (an upload).

    Args:
        name: what the document is called, in messages and by gold sets (default:
            the file's name, or "the uploaded file"); its suffix also says whether
            the bytes are converted (PDF, HTML, Word) or read as text.
        max_bytes: the largest file accepted, checked before reading; None: any.

    Returns:
        The document's text (converted to markdown where it needs converting).

    Raises:
        DocumentError: one line saying why the document cannot be used (missing,
            a folder, too big, empty, binary, not UTF-8: with an encoding to offer).
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        label = name or "the uploaded file"
        _size_check(len(data), label, max_bytes)
        return _from_bytes(data, label)
    path = Path(source)
    label = name or path.name or str(path)
    if not path.exists():
        raise DocumentError(f"{label} was not found at {path}; check the path and the file name")
    if path.is_dir():
        raise DocumentError(
            f"{label} is a folder, not a file; pick a file inside it or read the whole folder"
        )
    try:
        # before reading: never load 2 GB only to refuse it
        _size_check(path.stat().st_size, label, max_bytes)
        data = path.read_bytes()  # bytes, not read_text: universal newlines would turn CRLF into LF
    except OSError as e:
        reason = e.strerror or type(e).__name__
        raise DocumentError(
            f"{label} could not be read ({reason}); check its permissions"
        ) from None
    return _from_bytes(data, label)


def decode_as(data: bytes, encoding: str, name: str = "the uploaded file") -> Document:
    """Read bytes as the encoding the user chose (the app's "read it as ..." offer)."""
    try:
        text = bytes(data).decode(encoding)
    except LookupError:
        raise DocumentError(
            f"{encoding!r} is not an encoding Python knows; try utf-8, cp1252 or utf-16"
        ) from None
    except UnicodeDecodeError as e:
        raise DocumentError(
            f"{name} is not valid {encoding} either "
            f"(byte 0x{data[e.start]:02X} at offset {e.start}); "
            "save it as UTF-8"
        ) from None
    if text.startswith("\ufeff"):  # utf-8 / utf-16-le etc. keep the mark; it is not text
        text = text[1:]
    return Document(name, _check_text(text, name))


def read_folder(
    directory: str | os.PathLike[str],
    patterns: tuple[str, ...] = DOCUMENT_PATTERNS,
    max_bytes: int | None = None,
) -> tuple[list[Document], list[tuple[str, str]]]:
    """Every matching file under a folder, subfolders included, sorted by name.

    Documents are named by their path relative to the folder ("guide/intro.md"),
    so gold sets can name them. Nothing is dropped silently: a matching file that
    cannot be used, or a folder with no matching file, comes back as a
    (path, message) problem. Patterns match case-insensitively (README.MD counts);
    hidden files and folders (.git) are not documents.

    Returns:
        The documents read, and the (path, message) problems.

    Raises:
        DocumentError: ``directory`` is not a folder.
    """
    root = Path(directory)
    if not root.is_dir():
        what = "is a file, not a folder" if root.exists() else "was not found"
        raise DocumentError(
            f"{root} {what}; pick a folder of .md, .txt, .pdf, .html or .docx files"
        )
    wanted = [p.lower() for p in patterns]
    docs: list[Document] = []
    problems: list[tuple[str, str]] = []
    for here, dirs, files in os.walk(root):  # symlinked folders are not followed: no loops
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            hidden = name.startswith(".")
            if hidden or not any(fnmatch.fnmatchcase(name.lower(), p) for p in wanted):
                continue
            path = Path(here) / name
            rel = path.relative_to(root).as_posix()
            try:
                docs.append(read_document(path, name=rel, max_bytes=max_bytes))
            except DocumentError as e:
                problems.append((str(path), str(e)))
    if not docs and not problems:
        where = root.name or root
        # the text patterns first, as the message has always read; converted ones after
        nor = f" (nor {', '.join(patterns[2:])})" if len(patterns) > 2 else ""
        problems.append((str(root), f"no {' or '.join(patterns[:2])} files in {where}{nor}"))
    return docs, problems


def jsonl_lines(text: str) -> Iterator[tuple[int, str]]:
    """The non-blank lines of JSON Lines text, numbered as an editor counts them.

    Split on "\n" only: str.splitlines would also break at U+2028, U+0085 or
    U+001C, which json.dumps leaves inside a string (a chunk body or a gold
    answer may hold them). A CRLF line's "\r" is dropped."""
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if line.strip():
            yield number, line
