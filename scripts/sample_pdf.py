"""Print the warehouse manual sample as the PDF it was converted from.

    python3 scripts/sample_pdf.py            # writes lab/examples/warehouse_manual.pdf
    python3 scripts/sample_pdf.py --check    # exit 1 if the committed PDF is stale

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the PDF is stale")
    args = parser.parse_args(argv)
    data = render(SOURCE.read_text(encoding="utf-8"))
    if args.check:
        if not TARGET.exists() or TARGET.read_bytes() != data:
            print(f"{TARGET.name} is stale: run python3 scripts/sample_pdf.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_bytes(data)
    print(f"wrote {TARGET.name} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
