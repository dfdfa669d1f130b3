"""Pages whose glyphs PDFium cannot turn into text. A font may map its glyphs to
Unicode in a way PDFium does not read (Chinese fonts with their own CMaps often):
PDFium then leaves those glyphs out, and the page reads as a few stray digits. A
font with no Unicode map at all makes PDFium give the glyphs' codes instead, control
characters mostly. pdfminer (pdfplumber's reader) reads the CMaps; such a page's
lines are taken from it, and the report says which pages. A page neither can read
is one line in the report, never dropped silently, and its glyph codes are never
kept as text."""

from __future__ import annotations

import io
import unicodedata
from typing import Any

from lab.inputs.convert.pdf_layout import Line
from lab.inputs.convert.result import UNREADABLE, ConversionError

_MISSING_SHARE = 0.1  # of a page's text objects with no text: PDFium cannot read its font
_MIN_MISSING = 5
_CID = "(cid:"  # how pdfminer writes a glyph it has no Unicode for
# -- a glyph's code where its character should be: control characters, unassigned code
# -- points, the replacement character (PDFium's hyphen, U+FFFE, is not one). Private-use
# -- glyphs are a symbol font's, kept and said apart (result.private_use_note)
_CODE_CATEGORIES = frozenset({"Cc", "Cn"})
_CODE_SHARE = 0.3  # of a text's visible characters that are codes: it is not text


def _is_code(char: str) -> bool:
    if char == "\ufffe" or char.isspace():
        return False
    return char == "\ufffd" or unicodedata.category(char) in _CODE_CATEGORIES


def _codes(text: str) -> tuple[int, int]:
    """How many of the text's visible characters are glyph codes, and how many it has
    (none when every character is printable: one C-speed pass, the usual page)."""
    if text.isprintable():
        return 0, len(text)  # (spaces counted: only a share of codes reads it)
    visible = [c for c in text if not c.isspace()]
    return sum(map(_is_code, visible)), len(visible)


def reads_as_codes(lines: list[Line]) -> bool:
    """Whether PDFium's text of a page is largely glyph codes: a font with no Unicode
    map (no ToUnicode, no standard encoding) gives the codes themselves."""
    codes, visible = _codes("".join(line[0][1] for line in lines))
    return codes >= max(_MIN_MISSING, _CODE_SHARE * visible)


def readable(lines: list[Line]) -> list[Line]:
    """What of an unreadable page's lines is text: a line made largely of glyph codes
    is left out, and the stray codes of the others are taken out."""
    out: list[Line] = []
    for item, box, chars in lines:
        codes, visible = _codes(item[1])
        if codes and codes >= _CODE_SHARE * visible:
            continue
        text = "".join(c for c in item[1] if not _is_code(c)) if codes else item[1]
        out.append(((item[0], text, item[2], item[3], item[4]), box, chars))
    return out


def pdfium_misses_glyphs(page, textpage) -> bool:  # noqa: ANN001 - a PdfPage and its text
    """Whether PDFium found no text for many of the page's text objects. Checked
    only where the page has more objects than characters (two calls): text pages
    have many characters an object."""
    import pypdfium2.raw as raw

    count = raw.FPDFPage_CountObjects(page)
    if count <= raw.FPDFText_CountChars(textpage):
        return False
    texts = missing = 0
    for i in range(count):
        obj = raw.FPDFPage_GetObject(page, i)
        if raw.FPDFPageObj_GetType(obj) != raw.FPDF_PAGEOBJ_TEXT:
            continue
        texts += 1
        # the length in bytes of its text as UTF-16 with the terminator: 2 is none
        missing += raw.FPDFTextObj_GetText(obj, textpage, None, 0) <= 2
    return missing >= max(_MIN_MISSING, _MISSING_SHARE * texts)


class Miner:
    """pdfminer's lines of the pages PDFium cannot read, opened once if needed."""

    def __init__(self, data: bytes, name: str) -> None:
        self._data, self._name = data, name
        self._pdf: Any = None  # a pdfplumber PDF, opened on the first page that needs it

    def lines(self, index: int) -> list[Line] | None:
        """The page's lines as pdfminer reads them, None when it cannot read them
        either (no text, or glyphs it has no Unicode for)."""
        try:
            if self._pdf is None:
                import pdfplumber

                self._pdf = pdfplumber.open(io.BytesIO(self._data))
            found = self._pdf.pages[index].extract_text_lines(return_chars=True)
        except Exception:  # noqa: BLE001 - pdfminer raises many kinds on a broken file
            raise ConversionError(UNREADABLE.format(name=self._name)) from None
        text = "".join(line["text"] for line in found)
        if not text.strip() or text.count(_CID) * 4 >= len(text.split()):
            return None
        out: list[Line] = []
        for line in found:
            size = round(max(c["size"] for c in line["chars"]), 1)
            bold = all("bold" in c["fontname"].lower() for c in line["chars"][:1])
            top, bottom = line["top"], line["bottom"]
            item = (top, line["text"].strip(), size, bottom - top, bold)
            out.append((item, (top, bottom, line["x0"], line["x1"]), range(0)))
        return out

    def close(self) -> None:
        if self._pdf is not None:
            self._pdf.close()
