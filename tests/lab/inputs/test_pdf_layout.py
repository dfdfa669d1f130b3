"""Real PDFs as a reader reads them: columns one after the other, headings that
are headings, running headers that are boilerplate and never a heading path."""

from __future__ import annotations

import re
from functools import cache

import pytest

from chunkers import ChunkOptions, chunk_with
from lab.inputs.documents import read_document
from tests.support import ROOT

DATA = ROOT / "tests" / "data" / "documents"
FEDERAL = DATA / "federal_register_pages_1-6.pdf"


def _letters(text: str) -> str:
    """Letters only: line breaks, hyphenation and spacing aside, the same words in
    the same order read the same."""
    return re.sub(r"[^a-z]", "", text.casefold())


@cache
def _trusted_sentences(path: str) -> list[str]:
    """Body sentences in a reading order we trust: pdfminer's layout analysis,
    which groups a page's lines into boxes and orders the boxes column by column."""
    from pdfminer.high_level import extract_text
    from pdfminer.layout import LAParams

    text = re.sub(r"-\n(?=[a-z])", "", extract_text(path, laparams=LAParams()))
    out = []
    for paragraph in re.split(r"\n\s*\n", text):
        flat = " ".join(paragraph.split())
        for sentence in re.split(r"(?<=[.;:?!])\s+(?=[A-Z(])", flat):
            words = [w for w in sentence.split() if len(re.sub(r"\W", "", w)) >= 3]
            if len(words) >= 8:  # a sentence of the body, not a stamp's letters
                out.append(sentence)
    return out


def test_three_columns_are_read_one_after_the_other() -> None:
    sentences = _trusted_sentences(str(FEDERAL))
    assert len(sentences) >= 100
    text = _letters(read_document(FEDERAL).text)
    whole = [s for s in sentences if _letters(s) in text]
    assert len(whole) >= 0.9 * len(sentences), len(whole) / len(sentences)


def test_a_column_broken_paragraph_reads_on_and_the_title_stays_above() -> None:
    text = read_document(FEDERAL).text
    assert (
        "ADDRESSES: You may send comments,\nusing the procedures found in 14 CFR\n"
        "11.43 and 11.45, by any of the following\nmethods:\n"
        "• Federal eRulemaking Portal: Go to\nhttps://www.regulations.gov."
    ) in text
    assert text.index("DEPARTMENT OF TRANSPORTATION") < text.index("SUMMARY: The FAA proposes")


@pytest.mark.parametrize("strategy", ["structural", "fixed"])
def test_every_chunk_of_a_real_pdf_has_a_page(strategy) -> None:
    text = read_document(FEDERAL).text
    chunks = chunk_with(text, strategy, ChunkOptions(size=200, overlap=0))
    assert all(c.page is not None for c in chunks)
    assert {c.page for c in chunks} == set(range(1, 7))
