"""The sidebar's settings as the few lines of Python that make the same chunks.

With this library (``chunkers.chunk``), and, when the strategy is a library's
own (LangChain's splitter, Chonkie, semchunk), with that library's API set up
as the lab runs it, so a pipeline can take the configuration as it is. Each
snippet is plain text; nothing here runs it.
"""

from __future__ import annotations

from dataclasses import dataclass

from chunkers.options import Unit
from chunkers.tokens import DEFAULT_TOKENIZER
from lab.inputs.placement import ChunkOrigin


@dataclass(frozen=True, slots=True)
class Snippet:
    title: str
    code: str


def snippets(strategy: str, unit: str, size: int, overlap: int, document: str) -> list[Snippet]:
    """Python that makes the chunks the settings make: ours first, then the peer's own."""
    if ChunkOrigin.named(strategy).imported:
        return [_imported(document)]
    u = Unit.named(unit)
    out = [_ours(strategy, u.base, u.tokenizer, size, overlap, document)]
    own = _PEERS.get(strategy)
    if own is not None:
        out.append(own(u.base, u.tokenizer, size, overlap))
    return out


def _read(document: str) -> str:
    return f'text = open({document!r}, encoding="utf-8").read()'


def _ours(strategy: str, unit: str, tokenizer: str, size: int, overlap: int, doc: str) -> Snippet:
    args = f"text, {strategy!r}, {size}, {overlap}, unit={unit!r}"
    if unit == "tokens" and tokenizer != DEFAULT_TOKENIZER:
        args += f", tokenizer={tokenizer!r}"
    code = "\n".join(
        [
            "from chunkers import chunk",
            "",
            _read(doc),
            f"chunks = chunk({args})",
            "for c in chunks:",
            "    print(c.index, c.length, c.start, c.end)",
        ]
    )
    return Snippet("With this library", code)


def _counter(unit: str, tokenizer: str) -> tuple[list[str], str]:
    """Imports and the expression that counts a text's length in the unit, as
    the library that takes a counting function would be given it."""
    if unit == "tokens":
        return ["import tiktoken"], f"tiktoken.get_encoding({tokenizer!r})"
    if unit == "words":
        # -- the words unit's own count: an ideograph or kana is a word, as whitespace
        # -- splitting does not see (the same chunks on Chinese and Japanese text too)
        return ["from chunkers.scripts import count_words"], "count_words"
    return [], "len"


def _langchain(unit: str, tokenizer: str, size: int, overlap: int) -> Snippet:
    head = ["from langchain_text_splitters import Language, RecursiveCharacterTextSplitter", ""]
    if unit == "tokens":
        make = [
            "splitter = RecursiveCharacterTextSplitter.from_tiktoken_encoder(",
            f"    encoding_name={tokenizer!r},",
            f"    chunk_size={size},",
            f"    chunk_overlap={overlap},",
            "    separators=RecursiveCharacterTextSplitter.get_separators_for_language(",
            "        Language.MARKDOWN",
            "    ),",
            "    is_separator_regex=True,",
            "    add_start_index=True,",
            ")",
        ]
    else:
        imports, counter = _counter(unit, tokenizer)
        head = [*imports, *head]
        length = "" if unit == "chars" else f"    length_function={counter},\n"
        make = [
            "splitter = RecursiveCharacterTextSplitter.from_language(",
            "    Language.MARKDOWN,",
            f"    chunk_size={size},",
            f"    chunk_overlap={overlap},",
            *([length.rstrip("\n")] if length else []),
            "    add_start_index=True,",
            ")",
        ]
    code = "\n".join([*head, *make, "docs = splitter.create_documents([text])"])
    return Snippet("With LangChain", code)


def _semchunk(unit: str, tokenizer: str, size: int, overlap: int) -> Snippet:
    imports, counter = _counter(unit, tokenizer)
    lines = [
        "import semchunk",
        *imports,
        "",
        f"chunker = semchunk.chunkerify({counter}, {size})",
        f"chunks, offsets = chunker(text, offsets=True, overlap={overlap or None})",
    ]
    return Snippet("With semchunk", "\n".join(lines))


def _chonkie_tokenizer(unit: str, tokenizer: str) -> str:
    return {"chars": "character", "words": "word"}.get(unit, tokenizer)


def _chonkie_note(unit: str) -> list[str]:
    if unit != "words":
        return []
    return ["# (Chonkie's words are split at spaces; the lab's at any whitespace)"]


def _chonkie(chunker: str, unit: str, tokenizer: str, settings: str, call: str) -> Snippet:
    """A Chonkie chunker's snippet: ``settings`` after its tokenizer, then ``call``."""
    lines = [
        f"from chonkie import {chunker}",
        "",
        *_chonkie_note(unit),
        f"chunker = {chunker}(tokenizer={_chonkie_tokenizer(unit, tokenizer)!r}, {settings})",
        call,
    ]
    return Snippet("With Chonkie", "\n".join(lines))


def _chonkie_recursive(unit: str, tokenizer: str, size: int, overlap: int) -> Snippet:
    call = "chunks = chunker.chunk(text)  # no overlap: the chunker has none"
    return _chonkie("RecursiveChunker", unit, tokenizer, f"chunk_size={size}", call)


def _chonkie_token(unit: str, tokenizer: str, size: int, overlap: int) -> Snippet:
    settings = f"chunk_size={size}, chunk_overlap={overlap}"
    return _chonkie("TokenChunker", unit, tokenizer, settings, "chunks = chunker.chunk(text)")


_PEERS = {
    "recursive": _langchain,
    "semchunk": _semchunk,
    "chonkie-recursive": _chonkie_recursive,
    "chonkie-token": _chonkie_token,
}


def _imported(document: str) -> Snippet:
    code = "\n".join(
        [
            "from lab.inputs.placement import import_chunks",
            "",
            _read(document),
            'placement = import_chunks(open("chunks.jsonl", "rb").read(), text, "chunks.jsonl")',
            "chunks = placement.chunks  # in document order, overlap apart",
            'print("\\n".join(placement.report(text)))  # not placed, not covered, shared',
        ]
    )
    return Snippet("Your chunks, placed in the document", code)
