"""Questions and answers the sidebar offers: the gold set of a sample, or the
user's own question with an answer picked from the document's sentences."""

from __future__ import annotations

from chunkers.segment import sentence_spans
from lab.text import collapse_whitespace

MAX_SENTENCES = 2000  # a longer document asks for a pasted answer instead
MIN_SENTENCE_CHARS = 12


def answer_sentences(text: str, limit: int = MAX_SENTENCES) -> list[str]:
    """The document's sentences, whitespace collapsed, headings, table rules and
    duplicates left out, in document order; at most ``limit``."""
    out: list[str] = []
    seen: set[str] = set()
    for s, e in sentence_spans(text):
        for line in _pieces(text[s:e]):
            sentence = collapse_whitespace(line)
            if (
                len(sentence) < MIN_SENTENCE_CHARS
                or sentence.startswith("#")
                or set(sentence) <= set("|-: ")
                or sentence in seen
            ):
                continue
            seen.add(sentence)
            out.append(sentence)
            if len(out) >= limit:
                return out
    return out


def _pieces(span: str) -> list[str]:
    """A sentence span cut at blank lines, with each table row on its own."""
    out: list[str] = []
    para: list[str] = []
    for line in span.replace("\r\n", "\n").split("\n"):
        if line.lstrip().startswith("|") or not line.strip():
            if para:
                out.append(" ".join(para))
                para = []
            if line.strip():
                out.append(line)
        else:
            para.append(line)
    if para:
        out.append(" ".join(para))
    return out
