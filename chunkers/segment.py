"""Sentence segmentation with offsets, from the sentencex package.

sentencex (Wikimedia's rule-based segmenter) runs offline, needs no model
download, and returns pieces that concatenate back to the input, so offsets
come from running lengths rather than from searching the text. It keeps
"4.2%", "e.g.", "v3.2" and "Dr." inside their sentences.

A sentence ends where whitespace follows it, and in Chinese and Japanese
text at ``。！？`` and their closers whatever follows (chunkers.scripts).
Elsewhere sentencex also breaks inside a token ("Media.Vision", "./app",
tokenised "7 @.@ 5", a code span's backticks), and a cut there would split a
word, so such pieces are joined.
"""

from __future__ import annotations

from sentencex import segment

from .scripts import cjk_sentence_cuts, has_cjk


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of each sentence in text[start:end], whitespace trimmed."""
    if end is None:
        end = len(text)
    piece_text = text[start:end]
    spans: list[tuple[int, int]] = []
    pos = start
    pieces = list(segment("en", piece_text))
    if "".join(pieces) != piece_text:  # never trust a segmenter with offsets blindly
        pieces = [piece_text]
    joined = _joined_inside_tokens(pieces)
    if has_cjk(piece_text):
        joined = [text[s:e] for s, e in _cut_at_cjk_ends(text, pos, joined)]
    for piece in joined:
        s, e = pos, pos + len(piece)
        pos = e
        stripped = piece.strip()
        if not stripped:
            continue
        lead = len(piece) - len(piece.lstrip())
        spans.append((s + lead, s + lead + len(stripped)))
    return spans


def _cut_at_cjk_ends(text: str, pos: int, pieces: list[str]) -> list[tuple[int, int]]:
    """The pieces' spans from ``pos``, each cut again where a CJK sentence ends in it."""
    out: list[tuple[int, int]] = []
    for piece in pieces:
        s, e = pos, pos + len(piece)
        pos = e
        for cut in cjk_sentence_cuts(text, s, e):
            out.append((s, cut))
            s = cut
        out.append((s, e))
    return out


def _joined_inside_tokens(pieces: list[str]) -> list[str]:
    """The pieces, each one that ends inside a token joined to the next."""
    if len(pieces) < 2:
        return pieces
    out: list[str] = []
    for piece in pieces:
        if out and piece and out[-1] and not out[-1][-1].isspace() and not piece[0].isspace():
            out[-1] += piece
        else:
            out.append(piece)
    return out
