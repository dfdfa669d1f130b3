"""Word (.docx) files to markdown: mammoth turns their styles into HTML, read as a page."""

from __future__ import annotations

import io
import zipfile

from lab.inputs.convert import limits
from lab.inputs.convert.html import html_to_markdown
from lab.inputs.convert.result import IMAGE, ConversionError, missing

_PICTURES = "word/media/"


def _placeholder(image) -> dict[str, str]:  # noqa: ANN001 - a mammoth image
    return {"src": IMAGE, "alt": image.alt_text or ""}


def docx_to_markdown(data: bytes, name: str = "the document") -> str:
    try:
        import mammoth
        import mammoth.images
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
    # mammoth's reader recurses a level at a time
    limits.check_depth(limits.nesting(body.decode(errors="replace")), name)
    try:
        # a picture's alt text only, its data never read (it would be base64 text)
        result = mammoth.convert_to_html(
            io.BytesIO(data), convert_image=mammoth.images.img_element(_placeholder)
        )
    except Exception:  # noqa: BLE001 - a zip that is not a Word file fails in many ways
        raise damaged from None
    return html_to_markdown(result.value, name)
