"""Ruled tables in a PDF: PDFium's drawing read as rules, pdfplumber's table finder
joining them into cells, each cell's text from PDFium's characters."""

from __future__ import annotations

import io
from collections.abc import Callable

from lab.inputs.convert.pdf_layout import Box, Line
from lab.inputs.convert.result import UNREADABLE, ConversionError

_THIN = 2.0  # points: a path this narrow in one direction is a rule, not a box


def may_hold_a_table(page) -> bool:  # noqa: ANN001 - a PdfPage
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


class TableFinder:
    """Ruled tables: pdfplumber's table finder (its rules for joining rules into
    cells and cells into tables) given the page's rules as pdfium draws them, and
    each cell's text from pdfium's characters. pdfplumber's own reading of a page
    interprets every drawing command in Python, 30 ms a page; this is a few."""

    def __init__(self, data: bytes, name: str) -> None:
        import pdfplumber

        try:
            self._pdf = pdfplumber.open(io.BytesIO(data))
        except Exception:  # noqa: BLE001 - pdfminer raises many kinds on a broken file
            raise ConversionError(UNREADABLE.format(name=name)) from None
        self._name = name

    def on_page(  # noqa: ANN001 - a PdfPage and its PdfTextPage
        self, index: int, page, textpage, lines: list[Line], on_screen: Callable[..., Box]
    ) -> list[tuple[Box, str]]:
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
            raise ConversionError(UNREADABLE.format(name=self._name)) from None
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
            out.append(((top, bottom, left, right), table_markdown(rows)))
        return out

    def close(self) -> None:
        self._pdf.close()


_Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: _Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _rules(page, on_screen: Callable[..., Box]) -> tuple[list[dict], list[dict]]:  # noqa: ANN001
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
    textpage, lines: list[range], on_screen: Callable[..., Box]
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


def _cell(value: str | None) -> str:
    return " ".join((value or "").split()).replace("|", "\\|")


def table_markdown(found: list[list[str | None]]) -> str:
    cells = [[_cell(c) for c in row] for row in found if any(c for c in row)]
    if not cells:
        return ""
    width = max(len(r) for r in cells)
    rows = [r + [""] * (width - len(r)) for r in cells]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(lines)
