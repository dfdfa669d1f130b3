"""Print the warehouse manual sample as the PDF it was converted from.

    python3 scripts/sample_pdf.py            # writes lab/examples/warehouse_manual.pdf
                                             # and lab/examples/two_columns.pdf
    python3 scripts/sample_pdf.py --check    # exit 1 if a committed PDF is stale

Each ``## Page N`` section is one page; headings are set larger and bold, tables
as ruled tables, the running header and footer in small type. The output is
committed (a few KB) rather than made at run time: fpdf2, which writes it, is a
development dependency only, and an installed chunk-lab reads the PDF without it.
The dates inside are fixed, so the same markdown always gives the same bytes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "sample_docs" / "warehouse_manual.md"
# an example, not a sample: the samples' folder is read as a corpus with its gold sets
TARGET = ROOT / "lab" / "examples" / "warehouse_manual.pdf"
_FIXED = dt.datetime(2025, 3, 1, tzinfo=dt.UTC)  # the manual's effective date
_SIZES = {"#": 18, "##": 15, "###": 14, "####": 12}
# a page set in two columns under a full-width title: what Lab 10 reads in order
TWO_COLUMNS_SOURCE = ROOT / "lab" / "examples" / "two_columns.md"
TWO_COLUMNS = ROOT / "lab" / "examples" / "two_columns.pdf"


def _pages(markdown: str) -> list[list[str]]:
    """Each page's blocks (paragraphs, headings, tables), in order."""
    sections = re.split(r"^## Page \d+\n", markdown, flags=re.M)[1:]
    return [[b.strip() for b in s.split("\n\n") if b.strip()] for s in sections]


def render(markdown: str) -> bytes:
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(_FIXED)
    pdf.set_title("Warehouse Operations Manual")
    pdf.set_auto_page_break(False)
    pages = _pages(markdown)
    for blocks in pages:
        pdf.add_page()
        header, *body = blocks
        pdf.set_font("Helvetica", size=8)
        pdf.multi_cell(0, 4, header, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
        footer = body.pop()  # the disclaimer and "Page N of 12", on every page's foot
        for block in body:
            _block(pdf, block)
        pdf.set_y(-30)
        pdf.set_font("Helvetica", size=8)
        pdf.multi_cell(0, 4, footer, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _block(pdf, block: str) -> None:  # noqa: ANN001 - an FPDF
    heading = re.match(r"(#{1,6}) (.+)", block)
    if heading:
        pdf.ln(2)
        pdf.set_font("Helvetica", "B", _SIZES.get(heading.group(1), 12))
        pdf.multi_cell(0, 7, heading.group(2), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1)
        return
    if block.startswith("|"):
        rows = [
            [c.strip() for c in line.strip("|").split("|")]
            for line in block.splitlines()
            if not re.fullmatch(r"\|[-:| ]+\|", line.strip())
        ]
        pdf.set_font("Helvetica", size=9)
        with pdf.table(line_height=5) as table:
            for cells in rows:
                row = table.row()
                for cell in cells:
                    row.cell(cell)
        pdf.ln(3)
        return
    pdf.set_font("Helvetica", size=10)
    pdf.multi_cell(0, 5, " ".join(block.split()), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)


def render_two_columns(markdown: str) -> bytes:
    """One page: the title across it, then the sections in two columns, each
    column filled top to bottom before the next (as a newsletter is set)."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(_FIXED)
    pdf.set_title("Night shift notes")
    pdf.add_page()
    title, *blocks = [b.strip() for b in markdown.split("\n\n") if b.strip()]
    pdf.set_font("Helvetica", "B", 18)
    pdf.multi_cell(0, 9, title.lstrip("# "), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    with pdf.text_columns(ncols=2, gutter=8, text_align="L", balance=True) as columns:
        for block in blocks:
            heading = block.startswith("## ")
            pdf.set_font("Helvetica", "B" if heading else "", 13 if heading else 10)
            with columns.paragraph(
                top_margin=3 if heading else 0, bottom_margin=2 if heading else 3
            ) as paragraph:
                paragraph.write(text=block.lstrip("# ") if heading else " ".join(block.split()))
    return bytes(pdf.output())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the PDF is stale")
    args = parser.parse_args(argv)
    made = {
        TARGET: render(SOURCE.read_text(encoding="utf-8")),
        TWO_COLUMNS: render_two_columns(TWO_COLUMNS_SOURCE.read_text(encoding="utf-8")),
    }
    if args.check:
        stale = [t.name for t, data in made.items() if not t.exists() or t.read_bytes() != data]
        for name in stale:
            print(f"{name} is stale: run python3 scripts/sample_pdf.py", file=sys.stderr)
        return 1 if stale else 0
    for target, data in made.items():
        target.write_bytes(data)
        print(f"wrote {target.name} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
