"""Word (.docx) files to markdown: mammoth turns their styles into HTML, read as a page."""

from __future__ import annotations

import io

from lab.inputs.convert.html import html_to_markdown
from lab.inputs.convert.result import ConversionError, missing


def docx_to_markdown(data: bytes, name: str = "the document") -> str:
    try:
        import mammoth
    except ImportError:
        raise missing("Word", "mammoth") from None
    try:
        result = mammoth.convert_to_html(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - a zip that is not a Word file fails in many ways
        raise ConversionError(
            f"{name} could not be read as a Word (.docx) file; is it damaged or an older .doc?"
        ) from None
    return html_to_markdown(result.value, name)
