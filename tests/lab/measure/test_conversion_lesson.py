"""The sample PDF (printed from the warehouse manual by scripts/sample_pdf.py) and
the lesson: what its plain text and its converted markdown keep of the source."""

from __future__ import annotations

import subprocess
import sys

from chunkers import ChunkOptions
from lab.inputs.convert import pdf_plain_text
from lab.inputs.documents import read_document
from lab.inputs.gold import load_gold
from lab.measure.conversion import compare_versions
from tests.support import ROOT, SAMPLES

PDF = ROOT / "lab" / "examples" / "warehouse_manual.pdf"
SOURCE = SAMPLES / "warehouse_manual.md"


def test_the_committed_sample_pdf_is_what_the_script_prints() -> None:
    done = subprocess.run(
        [sys.executable, "scripts/sample_pdf.py", "--check"], cwd=ROOT, capture_output=True
    )
    assert done.returncode == 0, done.stderr.decode()


def test_the_sample_pdfs_pages_are_the_sources_pages() -> None:
    source = SOURCE.read_text(encoding="utf-8")
    doc = read_document(PDF)
    assert [n for n, _, _ in doc.pages] == list(range(1, source.count("\n## Page ") + 1))


def test_conversion_keeps_what_plain_text_loses() -> None:
    source = SOURCE.read_text(encoding="utf-8")
    data = PDF.read_bytes()
    versions = {
        "source": source,
        "converted": read_document(data, name="warehouse_manual.pdf").text,
        "plain text": pdf_plain_text(data),
    }
    gold = list(load_gold(SOURCE.with_suffix(".gold.jsonl")).questions)
    src, conv, plain = compare_versions(versions, gold, ChunkOptions(size=600, overlap=0))
    # the converter keeps every section heading (the title page's title aside) and table
    assert conv.missing_headings == ("Warehouse Operations Manual",)
    assert conv.tables == src.tables > 0
    assert conv.boilerplate and len(conv.boilerplate) == len(src.boilerplate)
    assert conv.lost == () and conv.intact == src.intact
    # plain text: no heading, no table, no page to find the running footer on
    assert plain.headings == () and plain.tables == 0 and plain.boilerplate == ()
    assert len(plain.missing_headings) == len(src.headings)
    assert plain.lost and plain.intact < src.intact


def test_the_two_column_page_reads_in_order_converted_and_across_as_plain_text() -> None:
    from lab.measure.conversion import reading_order
    from ui.present.conversion import reading_rows

    pdf = ROOT / "lab" / "examples" / "two_columns.pdf"
    source = (ROOT / "lab" / "examples" / "two_columns.md").read_text(encoding="utf-8")
    converted = read_document(pdf).text
    found = reading_order(
        source,
        {"PDF, converted": converted, "PDF, plain text": pdf_plain_text(pdf.read_bytes())},
    )
    assert reading_rows(found) == [
        {"version": "PDF, converted", "sentences whole": "12 of 12", "headings kept": "4 of 4"},
        {"version": "PDF, plain text", "sentences whole": "2 of 12", "headings kept": "0 of 4"},
    ]
    assert converted.index("#### Dock doors") < converted.index("#### Cold room")
    assert converted.index("anything is unloaded.") < converted.index("The cold room holds")
