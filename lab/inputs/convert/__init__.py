"""PDF, HTML and Word documents to markdown, offline: one module per format over
the shared result type and its one-line refusals.

A PDF's pages become the ``## Page N`` sections the structural chunker already
reads as page anchors, so every chunk's ``page`` comes from the one page rule.
Each converter is an optional extra; a missing one is a one-line error naming
the ``pip install``. Another converter plugs in as a function from bytes to
markdown (``register``), as an embedder does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from lab.inputs.convert.docx import docx_to_markdown
from lab.inputs.convert.html import html_text, html_to_markdown
from lab.inputs.convert.pdf import pdf_plain_text, pdf_to_markdown
from lab.inputs.convert.result import ConversionError, Converted, private_use_note

__all__ = [
    "CONVERTED_SUFFIXES",
    "ConversionError",
    "Converted",
    "convert",
    "docx_to_markdown",
    "html_to_markdown",
    "needs_conversion",
    "pdf_plain_text",
    "pdf_to_markdown",
    "register",
]

CONVERTED_SUFFIXES = (".pdf", ".html", ".htm", ".docx")
Converter = Callable[[bytes, str], str]
_PLUGGED: dict[str, Converter] = {}


def register(suffix: str, converter: Converter) -> None:
    """Use ``converter(data, name) -> markdown`` for files ending in ``suffix``
    (for example a PyMuPDF or docling function you installed yourself)."""
    _PLUGGED[suffix.lower()] = converter


def needs_conversion(name: str) -> bool:
    """Whether a file of this name is converted (PDF, HTML, Word, or a suffix given
    to ``register``) rather than read as text."""
    lower = name.lower()
    return lower.endswith(CONVERTED_SUFFIXES) or any(lower.endswith(s) for s in _PLUGGED)


def convert(data: bytes, name: str) -> Converted:
    """Markdown (and a PDF's page map) from a document's bytes, by its file name.

    Raises:
        ConversionError: one line: no converter for the name, the converter's
            package is not installed, or the file is damaged or holds no text.
    """
    converted = _convert(data, name)
    note = private_use_note(converted.markdown, name)
    return replace(converted, notes=(*converted.notes, note)) if note else converted


def _convert(data: bytes, name: str) -> Converted:
    lower = name.lower()
    for suffix, plugged in _PLUGGED.items():
        if lower.endswith(suffix):
            return Converted(plugged(data, name))
    if lower.endswith(".pdf"):
        return pdf_to_markdown(data, name)
    if lower.endswith((".html", ".htm")):
        return Converted(html_to_markdown(html_text(data, name), name, web_page=True))
    if lower.endswith(".docx"):
        return Converted(docx_to_markdown(data, name))
    raise ConversionError(f"{name} is not a PDF, HTML or Word (.docx) file")
