"""PDF, HTML and Word documents to markdown, offline.

A PDF's pages become the ``## Page N`` sections the structural chunker already
reads as page anchors, so every chunk's ``page`` comes from the one page rule.
Each converter is an optional extra; a missing one is a one-line error naming
the ``pip install``. Another converter plugs in as a function from bytes to
markdown (``register``), as an embedder does.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

CONVERTED_SUFFIXES = (".pdf", ".html", ".htm", ".docx")
_INSTALL = "pip install 'chunk-lab[documents]'"
_DROPPED_TAGS = ("nav", "header", "footer", "script", "style", "noscript", "template")
_HEADING_RATIO = 1.15  # a line this much larger than the body text is a heading


class ConversionError(ValueError):
    """A document that cannot be converted; the message is one line."""


@dataclass(frozen=True, slots=True)
class Converted:
    markdown: str
    # (page number, start, end): where each PDF page's section sits in the markdown
    pages: tuple[tuple[int, int, int], ...] = ()


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
    lower = name.lower()
    for suffix, plugged in _PLUGGED.items():
        if lower.endswith(suffix):
            return Converted(plugged(data, name))
    if lower.endswith(".pdf"):
        return pdf_to_markdown(data, name)
    if lower.endswith((".html", ".htm")):
        return Converted(html_to_markdown(_html_text(data, name), name))
    if lower.endswith(".docx"):
        return Converted(docx_to_markdown(data, name))
    raise ConversionError(f"{name} is not a PDF, HTML or Word (.docx) file")


def _missing(kind: str, package: str) -> ConversionError:
    return ConversionError(f"reading {kind} files needs {package}: {_INSTALL}")


# -- HTML ------------------------------------------------------------------


def _html_text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # pages without a charset are mostly Windows-1252; BeautifulSoup guesses the rest
        return data.decode("cp1252", errors="replace")


def html_to_markdown(html: str, name: str = "the page") -> str:
    try:
        from bs4 import BeautifulSoup
        from markdownify import MarkdownConverter
    except ImportError:
        raise _missing("HTML", "markdownify and beautifulsoup4") from None
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(_DROPPED_TAGS):
        tag.decompose()  # site chrome: the same on every page, never the answer
    body = soup.body or soup
    markdown = MarkdownConverter(
        heading_style="ATX",
        bullets="-",
        table_infer_header=True,  # Word tables have no <th>
    ).convert_soup(body)
    markdown = _tidy(markdown)
    if not markdown.strip():
        raise ConversionError(f"{name} has no text once navigation and scripts are dropped")
    return markdown


def _tidy(markdown: str) -> str:
    lines = [line.rstrip() for line in markdown.splitlines()]
    out: list[str] = []
    for line in lines:
        if not line and (not out or not out[-1]):
            continue  # one blank line between blocks is enough
        out.append(line)
    return "\n".join(out).strip() + "\n"


# -- Word ------------------------------------------------------------------


def docx_to_markdown(data: bytes, name: str = "the document") -> str:
    try:
        import mammoth
    except ImportError:
        raise _missing("Word", "mammoth") from None
    try:
        result = mammoth.convert_to_html(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - a zip that is not a Word file fails in many ways
        raise ConversionError(
            f"{name} could not be read as a Word (.docx) file; is it damaged or an older .doc?"
        ) from None
    return html_to_markdown(result.value, name)


# -- PDF -------------------------------------------------------------------


def pdf_to_markdown(data: bytes, name: str = "the PDF") -> Converted:
    try:
        import pdfplumber
        from pdfplumber.utils.exceptions import PdfminerException
    except ImportError:
        raise _missing("PDF", "pdfplumber") from None
    try:
        pdf = pdfplumber.open(io.BytesIO(data))
    except PdfminerException as e:
        if "password" in repr(e).lower() or "encrypt" in repr(e).lower():
            raise ConversionError(
                f"{name} is encrypted (password-protected); save an unprotected copy first"
            ) from None
        raise ConversionError(f"{name} is not a readable PDF (damaged or cut short)") from None
    except Exception:  # noqa: BLE001 - pdfminer raises many kinds on a broken file
        raise ConversionError(f"{name} is not a readable PDF (damaged or cut short)") from None
    with pdf:
        try:
            laid_out = [_page_items(page) for page in pdf.pages]
        except Exception:  # noqa: BLE001
            raise ConversionError(f"{name} is not a readable PDF (damaged or cut short)") from None
    bodies = _with_headings(laid_out)
    if not any(b.strip() for b in bodies):
        raise ConversionError(
            f"{name} has no text layer (a scanned PDF?); run OCR on it first, then upload that"
        )
    parts: list[str] = []
    pages: list[tuple[int, int, int]] = []
    at = 0
    for number, body in enumerate(bodies, start=1):
        section = f"## Page {number}\n\n{body.strip()}\n\n" if body.strip() else ""
        section = section or f"## Page {number}\n\n"
        parts.append(section)
        pages.append((number, at, at + len(section)))
        at += len(section)
    return Converted("".join(parts).rstrip() + "\n", tuple(pages))


# a page's items, top to bottom: (top, text, font size, height); size 0 for a table
_Item = tuple[float, str, float, float]


def _page_items(page) -> list[_Item]:  # noqa: ANN001 - a pdfplumber Page
    tables = page.find_tables()
    items: list[_Item] = [(t.bbox[1], _table_markdown(t.extract()), 0.0, 0.0) for t in tables]
    rest = page
    for table in tables:
        rest = rest.outside_bbox(table.bbox)
    for line in rest.extract_text_lines(return_chars=True):
        text = line["text"].strip()
        sizes = [round(c["size"], 1) for c in line["chars"] if not c["text"].isspace()]
        if text and sizes:
            items.append((line["top"], text, max(sizes), line["bottom"] - line["top"]))
    items.sort(key=lambda item: item[0])
    return items


def _with_headings(pages: list[list[_Item]]) -> list[str]:
    """Markdown per page. The body size is the size most characters are set in,
    over the whole document (a page of small print must not make its text a
    heading); larger sizes are headings, the largest ### (under ## Page N)."""
    weights: Counter[float] = Counter()
    for items in pages:
        for item in items:
            if item[2]:
                weights[item[2]] += len(item[1])
    body = weights.most_common(1)[0][0] if weights else 0.0
    larger = sorted({i[2] for items in pages for i in items if i[2] >= body * _HEADING_RATIO})
    levels = {size: min(3 + n, 6) for n, size in enumerate(reversed(larger))}
    return [_page_markdown(items, levels) for items in pages]


def _page_markdown(items: list[_Item], levels: dict[float, int]) -> str:
    blocks: list[str] = []
    block: list[str] = []
    previous_bottom: float | None = None

    def flush() -> None:
        if block:
            blocks.append("\n".join(block))
            block.clear()

    for top, text, size, height in items:
        if not size:  # a table
            flush()
            if text:
                blocks.append(text)
            previous_bottom = None
            continue
        if size in levels:
            flush()
            blocks.append(f"{'#' * levels[size]} {text}")
            previous_bottom = top + height
            continue
        if previous_bottom is not None and top - previous_bottom > 0.8 * height:
            flush()  # a wider gap than between a paragraph's lines: a new paragraph
        block.append(text)
        previous_bottom = top + height
    flush()
    return "\n\n".join(blocks)


def _cell(value: str | None) -> str:
    return " ".join((value or "").split()).replace("|", "\\|")


def _table_markdown(found: list[list[str | None]]) -> str:
    cells = [[_cell(c) for c in row] for row in found if any(c for c in row)]
    if not cells:
        return ""
    width = max(len(r) for r in cells)
    rows = [r + [""] * (width - len(r)) for r in cells]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(lines)


def pdf_plain_text(data: bytes, name: str = "the PDF") -> str:
    """A PDF as plain text extraction gives it: every page's lines, no headings,
    tables as lines of cells, no page markers (what most pipelines index)."""
    try:
        import pdfplumber
    except ImportError:
        raise _missing("PDF", "pdfplumber") from None
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            return "\n\n".join((page.extract_text() or "").strip() for page in pdf.pages) + "\n"
    except Exception:  # noqa: BLE001
        raise ConversionError(f"{name} is not a readable PDF (damaged or cut short)") from None
