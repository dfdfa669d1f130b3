"""PDF, HTML and Word documents made in the test itself (fpdf2, python-docx)."""

from __future__ import annotations

import io

FOOTER = "Acme Pumps Service Manual - Confidential - Rev 3"
TABLE = [["Part", "Torque (Nm)"], ["Impeller bolt", "45"], ["Flange bolt", "30"]]
BODY = (
    "The pump on page {n} must be primed before it is started. Check the seal "
    "and the suction line for air before every start. "
)


def three_page_pdf() -> bytes:
    """Three pages, a heading on each, a running footer, a table on page 2."""
    from fpdf import FPDF

    class Manual(FPDF):
        def footer(self) -> None:
            self.set_y(-15)
            self.set_font("Helvetica", size=9)
            self.cell(0, 10, FOOTER, align="C")

    pdf = Manual()
    for n in (1, 2, 3):
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 16)
        pdf.cell(0, 10, f"{n}. Section {n}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(0, 6, BODY.format(n=n) * 3)
        if n == 2:
            pdf.ln(4)
            with pdf.table() as table:
                for cells in TABLE:
                    row = table.row()
                    for cell in cells:
                        row.cell(cell)
            pdf.ln(4)
            pdf.multi_cell(0, 6, "Tighten the bolts crosswise, in two passes.")
    return bytes(pdf.output())


def scanned_pdf() -> bytes:
    """A page with a picture of text and no text layer: a drawn rectangle."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 100, 60, style="F")
    return bytes(pdf.output())


def encrypted_pdf() -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_encryption(owner_password="owner", user_password="secret")
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.cell(0, 10, "Only for those with the password.")
    return bytes(pdf.output())


HTML = """<!doctype html>
<html><head><title>Pumps</title><style>body { color: red }</style>
<script>var tracking = "site script";</script></head>
<body>
<header>Acme site header</header>
<nav><a href="/">Home</a> <a href="/pumps">Pumps</a></nav>
<main>
<h1>Pump guide</h1>
<p>Read the <a href="https://example.com/safety">safety notes</a> first.</p>
<h2>Priming</h2>
<ul><li>Close the discharge valve.</li><li>Fill the casing with water.</li></ul>
<h2>Torques</h2>
<table>
<tr><th>Part</th><th>Torque (Nm)</th></tr>
<tr><td>Impeller bolt</td><td>45</td></tr>
<tr><td>Flange bolt</td><td>30</td></tr>
</table>
<pre>pump --prime --valve closed</pre>
</main>
<footer>Copyright Acme site footer</footer>
</body></html>
"""


def docx() -> bytes:
    """A Word file with two heading levels, a list and a table."""
    import docx as python_docx

    document = python_docx.Document()
    document.add_heading("Pump guide", level=1)
    document.add_paragraph("Read the safety notes first.")
    document.add_heading("Priming", level=2)
    document.add_paragraph("Close the discharge valve.", style="List Bullet")
    document.add_paragraph("Fill the casing with water.", style="List Bullet")
    document.add_heading("Torques", level=2)
    table = document.add_table(rows=len(TABLE), cols=2)
    for r, cells in enumerate(TABLE):
        for c, value in enumerate(cells):
            table.cell(r, c).text = value
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def docx_with_body(body: str) -> bytes:
    """A Word file whose body is the given WordprocessingML (``w:`` elements)."""
    import re
    import zipfile

    source = zipfile.ZipFile(io.BytesIO(docx()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "word/document.xml":
                text = data.decode()
                text = re.sub(r"<w:body>.*</w:body>", f"<w:body>{body}</w:body>", text, flags=re.S)
                data = text.encode()
            z.writestr(info, data)
    return out.getvalue()


def astral_pdf() -> bytes:
    """A page whose body lines read as letters beyond U+FFFF (mathematical bold A-D,
    two UTF-16 units each, through a ToUnicode map), each followed by a one-letter
    heading set larger. Written by hand: fpdf2's core fonts stop at Latin-1."""
    cmap = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        b"/CMapName /Astral def 1 begincodespacerange <00> <FF> endcodespacerange\n"
        b"2 beginbfrange <20> <40> <0020> <45> <7E> <0045> endbfrange\n"
        b"4 beginbfchar <41> <D835DC00> <42> <D835DC01> <43> <D835DC02> <44> <D835DC03>\n"
        b"endbfchar endcmap CMapName currentdict /CMap defineresource pop end end\n"
    )
    lines = []
    for n in range(3):
        y = 760 - 60 * n
        lines.append(f"BT /F1 10 Tf 72 {y} Td (Text ABCDABCD and ABCD.) Tj ET")
        lines.append(f"BT /F2 18 Tf 72 {y - 30} Td (H) Tj ET")
    content = "\n".join(lines).encode()
    return _by_hand(content, b"/ToUnicode 7 0 R", cmap)


def turned_pdf() -> bytes:
    """A page turned a quarter (/Rotate 90, landscape on screen) whose text is drawn
    turned back, so it reads upright: a heading and two paragraphs of two lines."""
    lines = [
        (18, 72, "Turned heading"),
        (10, 100, "The first line of the body on a turned page,"),
        (10, 112, "and the second line of the same paragraph."),
        (10, 140, "A new paragraph after a wider gap,"),
        (10, 152, "and its second line."),
    ]
    # the text's x axis along the page's y: upright once the page is turned
    content = "\n".join(
        f"BT /F1 {size} Tf 0 1 -1 0 {x} 72 Tm ({text}) Tj ET" for size, x, text in lines
    )
    return _by_hand(content.encode(), page=b"/Rotate 90")


def _by_hand(content: bytes, font: bytes = b"", cmap: bytes = b"", page: bytes = b"") -> bytes:
    """A one-page PDF around ``content``: /F1 is Helvetica (``font`` adds to its
    dictionary), /F2 plain Helvetica, object 7 the ``cmap`` stream."""
    helvetica = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R %s"
        b" /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>" % page,
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        helvetica + b" " + font + b" >>",
        helvetica + b" >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(cmap), cmap),
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % at for at in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def hyphenated_pdf(
    paragraph: str = "A word broken over two lines: manip-\nulation, then\na third line.",
) -> bytes:
    """A paragraph whose word is broken over two lines at a hyphen, then another."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    pdf.multi_cell(0, 5, paragraph)
    pdf.ln(6)
    pdf.multi_cell(0, 5, "A second paragraph.")
    return bytes(pdf.output())


def three_lines_pdf(middle_font: str, pitch: float) -> bytes:
    """Three lines of 10 pt type, ``pitch`` mm apart, the middle one in
    ``middle_font`` (a command in the text, say) and the others in Helvetica."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    for font, line in (
        ("Helvetica", "Prime the pump with the command"),
        (middle_font, "pump --prime --valve closed"),
        ("Helvetica", "before every start."),
    ):
        pdf.set_font(font, size=10)
        pdf.cell(0, pitch, line, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def grid_pdf() -> bytes:
    """A table drawn as separate lines (not boxes), one cell's text over two lines."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    pdf.multi_cell(0, 5, "The torques, bolt by bolt:")
    rows = [["Part", "Torque (Nm)"], ["Impeller bolt", "45"], ["Flange bolt", "30, then 35"]]
    x0, y0, width, height = 20, 40, 40, 12
    for i in range(len(rows) + 1):
        pdf.line(x0, y0 + i * height, x0 + 2 * width, y0 + i * height)
    for j in range(3):
        pdf.line(x0 + j * width, y0, x0 + j * width, y0 + len(rows) * height)
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            first, _, second = cell.partition(", ")
            pdf.text(x0 + j * width + 2, y0 + i * height + 5, first + ("," if second else ""))
            if second:
                pdf.text(x0 + j * width + 2, y0 + i * height + 10, second)
    pdf.set_y(90)
    pdf.multi_cell(0, 5, "Tighten them crosswise.")
    return bytes(pdf.output())
