"""LangChain's RecursiveCharacterTextSplitter with its markdown separators.

This is the baseline most production pipelines run, so it is the real
splitter, not a re-implementation. Its ``start_index`` comes from
``str.find`` and can land on an earlier copy of repeated text, so every
offset is checked against the source and re-found past the previous chunk
when it is wrong (drafts_from_pieces, which the other libraries' splitters in
peers.py use too).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from .options import ChunkOptions
from .spans import Draft
from .text import SourceText, count_units

if TYPE_CHECKING:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

_NON_SPACE = re.compile(r"\S")


def _splitter(opts: ChunkOptions) -> RecursiveCharacterTextSplitter:
    # LangChain is imported here, when the strategy is first used: importing chunkers
    # (every chunk-lab command) does not pay for it.
    from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

    # -- in tokens, the counts of from_tiktoken_encoder(encoding_name=...) without
    # -- tiktoken's download (or a tokenizer.json's, as from_huggingface_tokenizer)
    length: Callable[[str], int]
    if opts.unit == "chars":
        length = len
    elif opts.counter is not None:
        length = opts.counter.count
    else:
        length = _words

    return RecursiveCharacterTextSplitter.from_language(
        Language.MARKDOWN,
        chunk_size=opts.size,
        chunk_overlap=opts.overlap,
        length_function=length,
        add_start_index=True,
    )


def _words(s: str) -> int:
    return count_units(s, "words")


def recursive_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    text = src.norm
    if not text.strip():
        return []
    docs = _splitter(opts).create_documents([text])
    return drafts_from_pieces(
        text, [(d.page_content, d.metadata.get("start_index", -1)) for d in docs]
    )


def drafts_from_pieces(text: str, pieces: Iterable[tuple[str, int]]) -> list[Draft]:
    """Drafts for a splitter's pieces of ``text``, in order, each with the start the
    splitter claims for it (-1 for none). A claim is kept when the piece is there and
    follows the previous piece; otherwise the piece is found again. A piece's text
    that the previous piece already holds becomes its overlap."""
    drafts: list[Draft] = []
    prev_start, prev_end = -1, 0
    for piece, s in pieces:
        if not _plausible(text, piece, s, prev_start, prev_end):
            # in words mode the splitter's overlap can re-emit text that earlier
            # chunks already hold (it ends before the previous chunk does): skip it
            covered = text.rfind(piece, 0, prev_end) >= 0
            if covered and _refind(text, piece, prev_start, prev_end, strict=False) < 0:
                continue
            s = _refind(text, piece, prev_start, prev_end)
        e = s + len(piece)
        body_start = max(s, prev_end)
        if body_start >= e:  # wholly inside the previous chunk: nothing new to show
            prev_start = s
            continue
        d = Draft(body_start, e)
        if s < prev_end:
            d.overlap_start, d.overlap_end = s, prev_end
        drafts.append(d)
        prev_start, prev_end = s, e
    return drafts


def _plausible(text: str, piece: str, s: int, prev_start: int, prev_end: int) -> bool:
    """The next piece starts no earlier than the previous one, reaches past its end,
    and leaves nothing but whitespace between them. (At tiny sizes the splitter may
    emit a piece and then a longer one from the same start.)"""
    return (
        s >= prev_start
        and text[s : s + len(piece)] == piece
        and s + len(piece) > prev_end
        and not text[prev_end:s].strip()
    )


def _refind(text: str, piece: str, prev_start: int, prev_end: int, strict: bool = True) -> int:
    """The latest plausible start: on repetitive text several copies qualify, and
    the one nearest the previous chunk's end is where the splitter's own walk
    through the text stands (an earlier copy would leave text in no chunk)."""
    m = _NON_SPACE.search(text, prev_end)
    first_new = m.start() if m else len(text)
    best = -1
    s = text.find(piece, max(prev_start, 0))
    while 0 <= s <= first_new:
        if _plausible(text, piece, s, prev_start, prev_end):
            best = s
        s = text.find(piece, s + 1)
    if best < 0 and strict:  # the splitter returned text that is not where it must be: refuse
        raise RuntimeError("the splitter returned a chunk that does not follow the previous one")
    return best
