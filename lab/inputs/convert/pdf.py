"""PDF files to markdown: PDFium reads each page's text lines with their boxes and
type sizes; each page becomes a ``## Page N`` section."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Iterator

from lab.inputs.convert import limits
from lab.inputs.convert.pdf_glyphs import Miner, pdfium_misses_glyphs, readable, reads_as_codes
from lab.inputs.convert.pdf_layout import (
    Box,
    Item,
    Line,
    title_key,
    with_headings,
    with_tables,
)
from lab.inputs.convert.pdf_tables import TableFinder, may_hold_a_table
from lab.inputs.convert.result import UNREADABLE, ConversionError, Converted, missing

# pdfium must not be entered from two threads at once, not even for two documents
# (the app converts each session's upload on its own thread)
_PDFIUM = threading.Lock()


def pdf_to_markdown(data: bytes, name: str = "the PDF") -> Converted:
    """pdfium reads each page's text lines, their type sizes and its ruling lines;
    pdfplumber's table finder turns the rules of a page that draws enough of
    them into tables."""
    try:
        import pdfplumber  # noqa: F401 - checked here so a missing one is said up front
        import pypdfium2
    except ImportError:
        raise missing("PDF", "pypdfium2 and pdfplumber") from None
    with _PDFIUM:
        try:
            pdf = pypdfium2.PdfDocument(data)
        except pypdfium2.PdfiumError as e:
            if "password" in str(e).lower():  # pdfium's own reason, in the message
                raise ConversionError(
                    f"{name} is encrypted (password-protected); save an unprotected copy first"
                ) from None
            raise ConversionError(UNREADABLE.format(name=name)) from None
        try:
            laid_out, notes, unreadable = _pages_items(pdf, data, name)
            outline = _outline(pdf)
        finally:
            pdf.close()
    bodies = with_headings(laid_out, outline)
    if not any(b.strip() for b in bodies) and unreadable:
        raise ConversionError(
            f"{name}: {_pages(unreadable)} cannot be read: neither PDFium nor pdfminer has "
            "Unicode for the glyphs (fonts without a Unicode map); no text to chunk"
        )
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
    return Converted("".join(parts).rstrip() + "\n", tuple(pages), tuple(notes))


def _pages_items(  # noqa: ANN001 - a PdfDocument
    pdf, data: bytes, name: str
) -> tuple[list[list[Item]], list[str], list[int]]:
    """Each page's items, what the report should say about the reading, and the pages
    neither reader has Unicode for."""
    import pypdfium2

    tables: TableFinder | None = None
    miner = Miner(data, name)
    mined: list[int] = []
    unreadable: list[int] = []
    out: list[list[Item]] = []
    try:
        limits.check_pages(len(pdf), name)
        chars = 0
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            try:
                on_screen = _on_screen(page.get_bbox(), page.get_rotation())  # the crop box
                lines = _text_lines(textpage, on_screen)
                found = []
                if reads_as_codes(lines) or pdfium_misses_glyphs(page, textpage):
                    from_miner = miner.lines(index)
                    if from_miner is None:
                        unreadable.append(index + 1)
                        lines = readable(lines)
                    else:
                        lines = from_miner
                        mined.append(index + 1)
                elif may_hold_a_table(page):
                    tables = tables or TableFinder(data, name)
                    found = tables.on_page(index, page, textpage, lines, on_screen)
            finally:
                textpage.close()
                page.close()
            out.append(with_tables(lines, found))
            chars += sum(len(item[1]) for item in out[-1])
            limits.check_text(chars, name, more=True)  # counted page by page
    except pypdfium2.PdfiumError:
        raise ConversionError(UNREADABLE.format(name=name)) from None
    finally:
        if tables:
            tables.close()
        miner.close()
    notes = []
    if mined:
        notes.append(
            f"{name}: {_pages(mined)} read with pdfminer: PDFium has no Unicode for "
            "the glyphs of their font"
        )
    if unreadable:
        notes.append(
            f"{name}: {_pages(unreadable)} cannot be read: neither PDFium nor pdfminer has "
            "Unicode for many of the glyphs; only what they read as text is kept"
        )
    return out, notes, unreadable


_MAX_BOOKMARKS = 10_000  # an outline longer than this is not read further


def _outline(pdf) -> dict[int, dict[str, int]]:  # noqa: ANN001 - a PdfDocument
    """The document's bookmarks, where it has them: per page index, each title
    (spacing and case aside) and its depth (0 for the top level)."""
    import pypdfium2

    out: dict[int, dict[str, int]] = {}
    try:
        for n, mark in enumerate(pdf.get_toc()):
            if n >= _MAX_BOOKMARKS:
                break
            dest = mark.get_dest()
            page = dest.get_index() if dest is not None else None
            title = title_key(mark.get_title() or "")
            if page is not None and title:
                out.setdefault(page, {}).setdefault(title, mark.level)
    except pypdfium2.PdfiumError:
        return {}  # a broken outline: the headings come from the page alone
    return out


def _pages(numbers: list[int]) -> str:
    shown = ", ".join(map(str, numbers[:10])) + (", ..." if len(numbers) > 10 else "")
    return f"page {shown}" if len(numbers) == 1 else f"pages {shown}"


_BOLD = 600  # a font weight this heavy or heavier is bold (400 is regular)


def _text_lines(textpage, on_screen: Callable[..., Box]) -> list[Line]:  # noqa: ANN001
    """The page's lines as pdfium breaks them, each with the larger font size of
    its first and last character (a line's size, without a call per character)."""
    import ctypes

    import pypdfium2.raw as raw

    box, matrix = raw.FS_RECTF(), raw.FS_MATRIX()

    def size_at(char: int) -> float:
        size = raw.FPDFText_GetFontSize(textpage, char)
        if raw.FPDFText_GetMatrix(textpage, char, ctypes.byref(matrix)):
            size *= (matrix.c**2 + matrix.d**2) ** 0.5  # as drawn: a scaled font is larger
        return round(size, 1)

    def box_at(char: int) -> Box | None:
        if not raw.FPDFText_GetLooseCharBox(textpage, char, ctypes.byref(box)):
            return None
        return on_screen(box.left, box.bottom, box.right, box.top)

    lines: list[Line] = []
    for start, line, hyphen in _pieces(textpage.get_text_range()):
        text = line.strip()
        if not text:
            continue
        text += hyphen
        first = start + _units(line[: len(line) - len(line.lstrip())])
        last = first + _units(line.strip()) - 1
        chars = [raw.FPDFText_GetCharIndexFromTextIndex(textpage, i) for i in (first, last)]
        if min(chars) < 0:
            continue
        head, tail = box_at(chars[0]), box_at(chars[1])
        if head is None or tail is None:
            continue
        size = max(size_at(chars[0]), size_at(chars[1]))
        weight = raw.FPDFText_GetFontWeight
        bold = weight(textpage, chars[0]) >= _BOLD and weight(textpage, chars[1]) >= _BOLD
        # a line as tall as its type, up from the font's descent: the same
        # height for every font, so gaps between lines compare across fonts
        bottom = head[1]
        top = bottom - (size or head[1] - head[0])
        # pdfium's characters of the line, a hyphen it wrote as U+FFFE among them
        chars_of = range(chars[0], chars[1] + (2 if hyphen else 1))
        item = (top, text, size, bottom - top, bold)
        lines.append((item, (top, bottom, head[2], tail[3]), chars_of))
    return lines


def _pieces(text: str) -> Iterator[tuple[int, str, str]]:
    """pdfium's lines: each one's start (in UTF-16 units), text, and the hyphen it
    ends in. pdfium joins a line that ends in a hyphen inside a word to the next one
    and writes the hyphen as U+FFFE; they are two lines again here, as printed."""
    at = 0
    for line in text.split("\r\n"):
        *broken, rest = line.split("\ufffe")
        for piece in broken:
            yield at, piece, "-"
            at += _units(piece) + 1
        yield at, rest, ""
        at += _units(rest) + 2


def _on_screen(
    bbox: tuple[float, float, float, float], rotation: int
) -> Callable[[float, float, float, float], Box]:
    """From a box in the page's own coordinates (left, bottom, right, top, y up) to
    its box as the page is shown: (top, bottom, left, right) from the shown page's
    top left corner, the page turned clockwise by ``rotation`` degrees."""
    x0, y0, x1, y1 = bbox
    if rotation == 90:  # the page's left edge is shown at the top
        return lambda le, b, r, t: (le - x0, r - x0, b - y0, t - y0)
    if rotation == 180:
        return lambda le, b, r, t: (b - y0, t - y0, x1 - r, x1 - le)
    if rotation == 270:
        return lambda le, b, r, t: (x1 - r, x1 - le, y1 - t, y1 - b)
    return lambda le, b, r, t: (y1 - t, y1 - b, le - x0, r - x0)


def _units(text: str) -> int:
    """Length in UTF-16 units: a character beyond the first 65,536 takes two."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


def pdf_plain_text(data: bytes, name: str = "the PDF") -> str:
    """A PDF as plain text extraction gives it: every page's lines, no headings,
    tables as lines of cells, no page markers (what most pipelines index)."""
    try:
        import pdfplumber
    except ImportError:
        raise missing("PDF", "pdfplumber") from None
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            return "\n\n".join((page.extract_text() or "").strip() for page in pdf.pages) + "\n"
    except Exception:  # noqa: BLE001
        raise ConversionError(UNREADABLE.format(name=name)) from None
