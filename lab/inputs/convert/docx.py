"""Word (.docx) files to markdown: mammoth turns their styles into HTML, read as a page."""

from __future__ import annotations

import io
import zipfile

from lab.inputs.convert import limits
from lab.inputs.convert.html import html_to_markdown
from lab.inputs.convert.result import ConversionError, missing

_PICTURES = "word/media/"


def docx_to_markdown(data: bytes, name: str = "the document") -> str:
    try:
        import mammoth
    except ImportError:
        raise missing("Word", "mammoth") from None
    damaged = ConversionError(
        f"{name} could not be read as a Word (.docx) file; is it damaged or an older .doc?"
    )
    try:
        parts = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, EOFError):
        raise damaged from None
    with parts:
        # its directory first: what the parts unpack to, before unpacking any
        limits.check_unpacked(parts.infolist(), name, skip=_PICTURES)
        try:
            body = parts.read("word/document.xml")
        except (zipfile.BadZipFile, KeyError, OSError, EOFError, NotImplementedError):
            raise damaged from None
    limits.check_depth(
        limits.nesting(body.decode(errors="replace")), name
    )  # mammoth's reader recurses a level at a time
    try:
        result = mammoth.convert_to_html(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - a zip that is not a Word file fails in many ways
        raise damaged from None
    return html_to_markdown(result.value, name)
