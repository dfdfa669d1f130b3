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
