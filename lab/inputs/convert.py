"""PDF, HTML and Word documents to markdown, offline.

A PDF's pages become the ``## Page N`` sections the structural chunker already
reads as page anchors, so every chunk's ``page`` comes from the one page rule.
Each converter is an optional extra; a missing one is a one-line error naming
the ``pip install``. Another converter plugs in as a function from bytes to
markdown (``register``), as an embedder does.
"""

from __future__ import annotations

import io
import threading
from collections import Counter
from collections.abc import Callable, Iterator
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

# pdfium must not be entered from two threads at once, not even for two documents
# (the app converts each session's upload on its own thread)
_PDFIUM = threading.Lock()
_UNREADABLE = "{name} is not a readable PDF (damaged or cut short)"


def pdf_to_markdown(data: bytes, name: str = "the PDF") -> Converted:
    """pdfium reads each page's text lines, their type sizes and its ruling lines;
    pdfplumber's table finder turns the rules of a page that draws enough of
    them into tables."""
    try:
        import pdfplumber  # noqa: F401 - checked here so a missing one is said up front
        import pypdfium2
    except ImportError:
        raise _missing("PDF", "pypdfium2 and pdfplumber") from None
    with _PDFIUM:
        try:
            pdf = pypdfium2.PdfDocument(data)
        except pypdfium2.PdfiumError as e:
            if "password" in str(e).lower():  # pdfium's own reason, in the message
                raise ConversionError(
                    f"{name} is encrypted (password-protected); save an unprotected copy first"
                ) from None
            raise ConversionError(_UNREADABLE.format(name=name)) from None
        try:
            laid_out = _pages_items(pdf, data, name)
        finally:
            pdf.close()
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
# a line's box on the page as shown, from its top left corner: (top, bottom, left, right)
_Box = tuple[float, float, float, float]
# a line: its item, its box, and the indices of its characters in pdfium's text page
_Line = tuple[_Item, _Box, range]


def _pages_items(pdf, data: bytes, name: str) -> list[list[_Item]]:  # noqa: ANN001 - a PdfDocument
    import pypdfium2

    tables: _TableFinder | None = None
    out: list[list[_Item]] = []
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            try:
                on_screen = _on_screen(page.get_bbox(), page.get_rotation())  # the crop box
                lines = _text_lines(textpage, on_screen)
                found = []
                if _may_hold_a_table(page):
                    tables = tables or _TableFinder(data, name)
                    found = tables.on_page(index, page, textpage, lines, on_screen)
            finally:
                textpage.close()
                page.close()
            out.append(_with_tables(lines, found))
    except pypdfium2.PdfiumError:
        raise ConversionError(_UNREADABLE.format(name=name)) from None
    finally:
        if tables:
            tables.close()
    return out


def _text_lines(textpage, on_screen: Callable[..., _Box]) -> list[_Line]:  # noqa: ANN001
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

    def box_at(char: int) -> _Box | None:
        if not raw.FPDFText_GetLooseCharBox(textpage, char, ctypes.byref(box)):
            return None
        return on_screen(box.left, box.bottom, box.right, box.top)

    lines: list[_Line] = []
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
        # a line as tall as its type, up from the font's descent: the same
        # height for every font, so gaps between lines compare across fonts
        bottom = head[1]
        top = bottom - (size or head[1] - head[0])
        # pdfium's characters of the line, a hyphen it wrote as U+FFFE among them
        chars_of = range(chars[0], chars[1] + (2 if hyphen else 1))
        lines.append(((top, text, size, bottom - top), (top, bottom, head[2], tail[3]), chars_of))
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
) -> Callable[[float, float, float, float], _Box]:
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


_THIN = 2.0  # points: a path this narrow in one direction is a rule, not a box


def _may_hold_a_table(page) -> bool:  # noqa: ANN001 - a PdfPage
    """Whether the page draws at least two horizontal and two vertical rules (a
    box or a grid counts as both): what a ruled table needs. Text-only pages,
    the most of most documents, skip the table finder."""
    import ctypes

    import pypdfium2.raw as raw

    left, bottom, right, top = (
        ctypes.c_float(),
        ctypes.c_float(),
        ctypes.c_float(),
        ctypes.c_float(),
    )
    corners = (ctypes.byref(left), ctypes.byref(bottom), ctypes.byref(right), ctypes.byref(top))
    across = down = 0
    stack = [raw.FPDFPage_GetObject(page, i) for i in range(raw.FPDFPage_CountObjects(page))]
    while stack:
        obj = stack.pop()
        kind = raw.FPDFPageObj_GetType(obj)
        if kind == raw.FPDF_PAGEOBJ_FORM:  # a form XObject: its own drawing inside
            stack += [
                raw.FPDFFormObj_GetObject(obj, i) for i in range(raw.FPDFFormObj_CountObjects(obj))
            ]
            continue
        if kind != raw.FPDF_PAGEOBJ_PATH or not raw.FPDFPageObj_GetBounds(obj, *corners):
            continue
        wide, high = right.value - left.value, top.value - bottom.value
        across += wide > _THIN
        down += high > _THIN
        if wide > _THIN and high > _THIN:
            return True
        if across >= 2 and down >= 2:
            return True
    return False


class _TableFinder:
    """Ruled tables: pdfplumber's table finder (its rules for joining rules into
    cells and cells into tables) given the page's rules as pdfium draws them, and
    each cell's text from pdfium's characters. pdfplumber's own reading of a page
    interprets every drawing command in Python, 30 ms a page; this is a few."""

    def __init__(self, data: bytes, name: str) -> None:
        import pdfplumber

        try:
            self._pdf = pdfplumber.open(io.BytesIO(data))
        except Exception:  # noqa: BLE001 - pdfminer raises many kinds on a broken file
            raise ConversionError(_UNREADABLE.format(name=name)) from None
        self._name = name

    def on_page(  # noqa: ANN001 - a PdfPage and its PdfTextPage
        self, index: int, page, textpage, lines: list[_Line], on_screen: Callable[..., _Box]
    ) -> list[tuple[_Box, str]]:
        """Each table's box (top, bottom, left, right) and markdown."""
        across, down = _rules(page, on_screen)
        if len(across) < 2 or len(down) < 2:
            return []
        settings = {
            "vertical_strategy": "explicit",
            "horizontal_strategy": "explicit",
            "explicit_vertical_lines": down,
            "explicit_horizontal_lines": across,
        }
        try:
            found = self._pdf.pages[index].find_tables(table_settings=settings)
        except Exception:  # noqa: BLE001
            raise ConversionError(_UNREADABLE.format(name=self._name)) from None
        if not found:
            return []
        # only the lines that reach into a table can hold a cell's text
        near = [
            line[2]
            for line in lines
            if any(
                line[1][0] < t.bbox[3]
                and line[1][1] > t.bbox[1]
                and line[1][2] < t.bbox[2]
                and line[1][3] > t.bbox[0]
                for t in found
            )
        ]
        chars = _characters(textpage, near, on_screen)
        out = []
        for table in found:
            rows = [
                [None if cell is None else _text_in(chars, cell) for cell in row.cells]
                for row in table.rows
            ]
            left, top, right, bottom = table.bbox
            out.append(((top, bottom, left, right), _table_markdown(rows)))
        return out

    def close(self) -> None:
        self._pdf.close()


_Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: _Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _rules(page, on_screen: Callable[..., _Box]) -> tuple[list[dict], list[dict]]:  # noqa: ANN001
    """The level and the upright straight pieces of the page's drawing, on the page
    as shown, as pdfplumber's line objects: a box's four sides, a grid's lines."""
    import ctypes

    import pypdfium2.raw as raw

    across: list[dict] = []
    down: list[dict] = []
    m = raw.FS_MATRIX()

    def rule(p: tuple[float, float], q: tuple[float, float]) -> None:
        box = on_screen(min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1]))
        top, bottom, left, right = (round(n, 3) for n in box)
        wide, high = right - left, bottom - top
        line = {"object_type": "line", "x0": left, "x1": right, "top": top, "bottom": bottom}
        if not high and wide >= 1:
            across.append({**line, "width": wide, "height": 0})
        elif not wide and high >= 1:
            down.append({**line, "width": 0, "height": high})

    stack = [
        (raw.FPDFPage_GetObject(page, i), _IDENTITY) for i in range(raw.FPDFPage_CountObjects(page))
    ]
    while stack:
        obj, outer = stack.pop()
        kind = raw.FPDFPageObj_GetType(obj)
        if kind not in (raw.FPDF_PAGEOBJ_PATH, raw.FPDF_PAGEOBJ_FORM):
            continue
        if not raw.FPDFPageObj_GetMatrix(obj, ctypes.byref(m)):
            continue
        a, b, c, d, e, f = _then((m.a, m.b, m.c, m.d, m.e, m.f), outer)
        if kind == raw.FPDF_PAGEOBJ_FORM:  # a form XObject: its drawing inside, moved by it
            stack += [
                (raw.FPDFFormObj_GetObject(obj, i), (a, b, c, d, e, f))
                for i in range(raw.FPDFFormObj_CountObjects(obj))
            ]
            continue
        for p, q in _pieces_of(obj, (a, b, c, d, e, f)):
            rule(p, q)
    return across, down


def _pieces_of(path, matrix: _Matrix) -> list[tuple[tuple[float, float], ...]]:  # noqa: ANN001
    """A path's straight pieces, each as its two ends on the page (a curve's
    control points taken as corners, as pdfplumber takes them)."""
    import ctypes

    import pypdfium2.raw as raw

    a, b, c, d, e, f = matrix
    x, y = ctypes.c_float(), ctypes.c_float()
    pieces: list[tuple[tuple[float, float], ...]] = []
    start = last = None
    for i in range(raw.FPDFPath_CountSegments(path)):
        segment = raw.FPDFPath_GetPathSegment(path, i)
        if not raw.FPDFPathSegment_GetPoint(segment, ctypes.byref(x), ctypes.byref(y)):
            continue
        point = (a * x.value + c * y.value + e, b * x.value + d * y.value + f)
        if raw.FPDFPathSegment_GetType(segment) == raw.FPDF_SEGMENT_MOVETO:
            start = last = point
            continue
        if last is not None:
            pieces.append((last, point))
        last = point
        if raw.FPDFPathSegment_GetClose(segment) and start is not None:
            pieces.append((point, start))
            last = start
    return pieces


def _then(first: _Matrix, second: _Matrix) -> _Matrix:
    """The PDF matrix that applies ``first``, then ``second``."""
    a, b, c, d, e, f = first
    a2, b2, c2, d2, e2, f2 = second
    return (
        a * a2 + b * c2,
        a * b2 + b * d2,
        c * a2 + d * c2,
        c * b2 + d * d2,
        e * a2 + f * c2 + e2,
        e * b2 + f * d2 + f2,
    )


def _characters(  # noqa: ANN001 - a PdfTextPage
    textpage, lines: list[range], on_screen: Callable[..., _Box]
) -> list[tuple[str, float, float]]:
    """The lines' characters, each with the middle of its box on the page as shown
    (a space pdfium adds takes the one before's), and a line break after each line."""
    import ctypes

    import pypdfium2.raw as raw

    box = raw.FS_RECTF()
    out: list[tuple[str, float, float]] = []
    for indices in lines:
        middle: tuple[float, float] | None = None
        for i in indices:
            if not raw.FPDFText_IsGenerated(textpage, i) and raw.FPDFText_GetLooseCharBox(
                textpage, i, ctypes.byref(box)
            ):
                top, bottom, left, right = on_screen(box.left, box.bottom, box.right, box.top)
                middle = ((top + bottom) / 2, (left + right) / 2)
            if middle is not None:
                char = chr(raw.FPDFText_GetUnicode(textpage, i))
                out.append(("-" if char == "\ufffe" else char, *middle))
        if middle is not None:
            out.append(("\n", *middle))
    return out


def _text_in(chars: list[tuple[str, float, float]], cell: tuple[float, ...]) -> str:
    """The characters whose middle is in the cell (x0, top, x1, bottom), as pdfplumber
    assigns them."""
    left, top, right, bottom = cell
    return "".join(ch for ch, y, x in chars if left <= x < right and top <= y < bottom)


def _with_tables(lines: list[_Line], tables: list[tuple[_Box, str]]) -> list[_Item]:
    """The page's lines outside its tables, and each table as one item, top to bottom."""

    def inside(box: _Box, table: _Box) -> bool:
        middle_y, middle_x = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
        return table[0] <= middle_y <= table[1] and table[2] <= middle_x <= table[3]

    items = [item for item, box, _ in lines if not any(inside(box, t) for t, _ in tables)]
    items += [(box[0], markdown, 0.0, 0.0) for box, markdown in tables]
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
