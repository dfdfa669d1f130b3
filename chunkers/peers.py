"""The chunkers people run instead, as strategies: Chonkie's RecursiveChunker and
TokenChunker, and semchunk.

Each runs as its library runs it, with its own defaults, and is measured in
the lab's units: the size is counted by the same rule as every other strategy
(characters, words (as the words unit counts them), or the tokenizer's tokens), handed
to the library as its token counter. Where a library works on tokens it decodes back to text
(Chonkie's TokenChunker), its tokens are the text's own pieces, so every chunk
it returns is a slice of the text. Offsets are found as for LangChain's
splitter (recursive.drafts_from_pieces): the library's claimed start is kept
when the piece is there, else the piece is found again.

semchunk is a runtime requirement; Chonkie is an optional extra (it brings
compiled extensions and an HTTP client), and its strategies say so when it is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, cast

from .options import ChunkOptions
from .recursive import drafts_from_pieces
from .scripts import word_spans
from .spans import Draft
from .text import SourceText, count_units
from .tokens import DEFAULT_TOKENIZER, tokenizer_for


def _pieces_of(unit: str, tokenizer: str = DEFAULT_TOKENIZER) -> Callable[[str], list[str]]:
    """The text cut into its units, whitespace kept, so the pieces join back into it:
    characters; words, each with the whitespace after it (the first also with the
    whitespace before it); or tokens, each the text its offsets cover (an empty
    piece kept for a token that holds only a character's later bytes, so a window
    of N pieces is N tokens)."""
    if unit == "chars":
        return list
    if unit == "tokens":
        offsets = tokenizer_for(tokenizer).offsets

        def tokens(text: str) -> list[str]:
            starts, ends = offsets(text)
            return [text[a:b] for a, b in zip(starts.tolist(), ends.tolist(), strict=True)]

        return tokens

    def words(text: str) -> list[str]:
        # -- the words unit's one rule (chunkers.scripts): an ideograph or kana is a word
        starts = [a for a, _ in word_spans(text)]
        if not starts:
            return [text] if text else []
        starts[0] = 0
        return [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)], strict=True)]

    return words


def _counter(unit: str, tokenizer: str = DEFAULT_TOKENIZER) -> Callable[[str], int]:
    if unit == "tokens":
        return tokenizer_for(tokenizer).count

    def count(text: str) -> int:
        return count_units(text, unit)

    return count


def _chonkie(strategy: str) -> Any:
    try:
        import chonkie
    except ImportError:
        raise ValueError(
            f"the {strategy} strategy needs Chonkie, an optional extra: "
            "pip install 'chunk-lab[peers]' (or pip install chonkie)"
        ) from None
    return chonkie


@cache
def _unit_tokenizer_class() -> type:
    """A Chonkie tokenizer whose tokens are the text's own units (made on first use,
    since Chonkie is optional)."""
    from chonkie.tokenizer import Tokenizer

    class UnitTokenizer(Tokenizer):
        def __init__(self, unit: str, tokenizer: str) -> None:
            super().__init__()
            self.unit = unit
            self._pieces = _pieces_of(unit, tokenizer)
            self._count = _counter(unit, tokenizer)
            self._name = tokenizer if unit == "tokens" else unit

        def __repr__(self) -> str:
            return f"UnitTokenizer({self._name})"

        def tokenize(self, text: str) -> list[str]:
            return self._pieces(text)

        def encode(self, text: str) -> list[int]:
            ids = []
            for piece in self._pieces(text):
                i = self.token2id[piece]
                if i == len(self.vocab):
                    self.vocab.append(piece)
                ids.append(i)
            return ids

        def decode(self, tokens: Any) -> str:
            return "".join(self.vocab[t] for t in tokens)

        def count_tokens(self, text: str) -> int:
            return self._count(text)

    return UnitTokenizer


def _unit_tokenizer(opts: ChunkOptions) -> Any:
    return _unit_tokenizer_class()(opts.unit, opts.tokenizer)


def _text_pieces(chunks: Any) -> list[tuple[str, int]]:
    """(text, claimed start) of each chunk that holds more than whitespace."""
    return [(c.text, c.start_index) for c in chunks if c.text.strip()]


def chonkie_recursive_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    chonkie = _chonkie("chonkie-recursive")
    text = src.norm
    if not text.strip():
        return []
    chunker = chonkie.RecursiveChunker(tokenizer=_unit_tokenizer(opts), chunk_size=opts.size)
    return drafts_from_pieces(text, _text_pieces(chunker.chunk(text)))


def chonkie_token_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    chonkie = _chonkie("chonkie-token")
    text = src.norm
    if not text.strip():
        return []
    chunker = chonkie.TokenChunker(
        tokenizer=_unit_tokenizer(opts), chunk_size=opts.size, chunk_overlap=opts.overlap
    )
    return drafts_from_pieces(text, _text_pieces(chunker.chunk(text)))


def semchunk_drafts(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    import semchunk

    text = src.norm
    if not text.strip():
        return []
    chunker = semchunk.chunkerify(_counter(opts.unit, opts.tokenizer), opts.size)
    # semchunk declares the union of its four result shapes; one text with offsets
    # gives this one
    pieces, offsets = cast(
        tuple[list[str], list[tuple[int, int]]],
        chunker(text, offsets=True, overlap=opts.overlap or None),
    )
    return drafts_from_pieces(text, [(p, s) for p, (s, _) in zip(pieces, offsets, strict=True)])
