"""Tokenizers for the token unit: OpenAI's encodings and any Hugging Face tokenizer.json.

``tokenizer_for(name)`` gives a Tokenizer for ``"cl100k_base"`` (the default),
``"o200k_base"``, or the path of a Hugging Face ``tokenizer.json``; each is
loaded once per process. Everything works offline:

- OpenAI's encodings come from quicktok, which ships their rank tables and
  counts token for token as tiktoken's ``encode_ordinary`` does (tiktoken itself
  downloads its tables on first use). Text that looks like a special token
  (``<|endoftext|>``) is counted as the text it is, as an index would see it.
- A ``tokenizer.json`` is read with Hugging Face's ``tokenizers``, without
  truncation, padding or added special tokens ([CLS], <s>): the count is the
  text's own tokens.

Offsets are exact character offsets in the text as given, computed from the
tokens themselves (their bytes, or the tokenizer's own character ranges),
never by decoding tokens and searching for them. Token i covers
``text[starts[i]:ends[i]]`` with ``ends[i] == starts[i + 1]``, from 0 to
``len(text)``, so the spans tile the text. A byte-level token can split a
character that takes several UTF-8 bytes: the character belongs to the token
that holds its first byte, and a token that begins inside a character starts
just after it (a token made only of a character's later bytes has an empty span).
A cut at token i, ``starts[i]``, therefore always falls between characters.
"""

from __future__ import annotations

import os
import re
import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

DEFAULT_TOKENIZER = "cl100k_base"
OPENAI_ENCODINGS = ("cl100k_base", "o200k_base")
HF_FILE = "tokenizer.json"

# -- lone surrogates (a lossy decode) cannot be encoded as UTF-8: like tiktoken,
# -- count each as U+FFFD, one character for one, so offsets still hold
_SURROGATE = re.compile("[\ud800-\udfff]")


class TokenOffsets(NamedTuple):
    """Character offsets of every token: token i is text[starts[i]:ends[i]]."""

    starts: np.ndarray  # int64, non-decreasing
    ends: np.ndarray  # int64, ends[i] == starts[i + 1]; the last is len(text)


class Tokenizer(ABC):
    """Counts and places the tokens of a text. Safe to share between threads."""

    name: str

    @abstractmethod
    def count(self, text: str) -> int:
        """How many tokens the text is."""

    def count_many(self, texts: Sequence[str]) -> list[int]:
        """The count of each text, in one call (batched where the library can)."""
        return [self.count(t) for t in texts]

    @abstractmethod
    def offsets(self, text: str) -> TokenOffsets:
        """Where each token of the text starts and ends (see the module's rule)."""

    def __repr__(self) -> str:
        return f"<Tokenizer {self.name}>"


def _encodable(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def _tile(starts: np.ndarray, n_chars: int) -> TokenOffsets:
    """Offsets that tile text of n_chars from non-decreasing token starts."""
    if not len(starts):
        return TokenOffsets(starts, starts.copy())
    starts = starts.copy()
    starts[0] = 0
    ends = np.empty_like(starts)
    ends[:-1] = starts[1:]
    ends[-1] = n_chars
    return TokenOffsets(starts, ends)


class OpenAIEncoding(Tokenizer):
    """cl100k_base or o200k_base, counted as tiktoken's encode_ordinary counts them."""

    def __init__(self, name: str) -> None:
        import quicktok

        self.name = name
        self._enc = quicktok.get_encoding(name)
        self._byte_lengths: np.ndarray | None = None
        self._lock = threading.Lock()

    def count(self, text: str) -> int:
        return self._enc.count(_encodable(text))

    # -- count_many stays the loop over count: quicktok's count builds no list of
    # -- ids, and its encode_batch is slower (docs/performance.md)

    def _lengths(self) -> np.ndarray:
        """Byte length of every token id, built when ``offsets`` first needs it
        (counting never does)."""
        if self._byte_lengths is None:
            with self._lock:
                if self._byte_lengths is None:
                    table = np.zeros(self._enc.max_token_value + 1, dtype=np.int64)
                    for i in range(len(table)):
                        try:
                            table[i] = len(self._enc.decode_single_token_bytes(i))
                        except KeyError:  # an id the encoding leaves unused
                            pass
                    self._byte_lengths = table
        return self._byte_lengths

    def offsets(self, text: str) -> TokenOffsets:
        text = _encodable(text)
        ids = np.asarray(self._enc.encode_ordinary(text), dtype=np.int64)
        byte_starts = np.zeros(len(ids), dtype=np.int64)
        if len(ids) > 1:
            np.cumsum(self._lengths()[ids[:-1]], out=byte_starts[1:])
        if text.isascii():  # one byte per character
            return _tile(byte_starts, len(text))
        data = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
        # characters begun before each byte offset: a token starting inside a
        # character starts after it, since the character's first byte came before
        begun = np.zeros(len(data) + 1, dtype=np.int64)
        np.cumsum((data & 0xC0) != 0x80, out=begun[1:])
        return _tile(begun[byte_starts], len(text))


class HuggingFaceTokenizer(Tokenizer):
    """A tokenizer.json read with Hugging Face's tokenizers library."""

    def __init__(self, name: str, path: str) -> None:
        self.name = name  # as given: a configuration names its tokenizer this way
        self._tok = _load_hf(path)

    def _encode(self, text: str):
        return self._tok.encode(_encodable(text), add_special_tokens=False)

    def count(self, text: str) -> int:
        return len(self._encode(text).ids)

    def count_many(self, texts: Sequence[str]) -> list[int]:
        batch = self._tok.encode_batch([_encodable(t) for t in texts], add_special_tokens=False)
        return [len(e.ids) for e in batch]

    def offsets(self, text: str) -> TokenOffsets:
        spans = np.asarray(self._encode(text).offsets, dtype=np.int64).reshape(-1, 2)
        if not len(spans):
            return _tile(np.zeros(0, dtype=np.int64), len(text))
        # a token whose range reaches back into characters an earlier token already
        # covers (the later bytes of a split character) starts after them
        covered = np.maximum.accumulate(spans[:, 1])
        starts = spans[:, 0].copy()
        starts[1:] = np.maximum(starts[1:], covered[:-1])
        return _tile(np.minimum(starts, len(text)), len(text))


def _one_line(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _load_hf(path: str):
    try:
        from tokenizers import Tokenizer as HFTokenizer
    except ImportError:  # pragma: no cover - a dependency; only a broken install lacks it
        raise ValueError(
            "reading a tokenizer.json needs the tokenizers package; pip install tokenizers"
        ) from None
    try:
        tok = HFTokenizer.from_file(path)
    except Exception as exc:  # the library raises a bare Exception for bad JSON
        raise ValueError(
            f"{path} is not a Hugging Face tokenizer.json ({_one_line(exc)}); "
            "point at the tokenizer.json saved with the model (tokenizer.save(path))"
        ) from None
    # -- count the whole text as text: no truncation or padding from the saved
    # -- configuration, and a special token's text (<s>) is just text
    tok.no_truncation()
    tok.no_padding()
    tok.encode_special_tokens = True
    return tok


def _hf_path(name: str) -> str | None:
    """The tokenizer.json a name points at (a file, or a folder holding one), else None."""
    if os.path.isdir(name) and os.path.isfile(os.path.join(name, HF_FILE)):
        return os.path.join(name, HF_FILE)
    if os.path.isfile(name):
        return name
    return None


_LOADED: dict[object, Tokenizer] = {}
_LOADING = threading.Lock()


def tokenizer_for(name: str = DEFAULT_TOKENIZER) -> Tokenizer:
    """The tokenizer a name stands for, loaded once per process.

    ``name`` is an OpenAI encoding (``cl100k_base``, ``o200k_base``) or the path of
    a Hugging Face tokenizer.json (or of a folder holding one). Raises ValueError
    with a one-line message for anything else.
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError(
            f"tokenizer must be a name or a path, got {name!r}; "
            f"use {' or '.join(OPENAI_ENCODINGS)}, or the path of a tokenizer.json"
        )
    path: str | None = None
    if name in OPENAI_ENCODINGS:
        key: object = name
    else:
        path = _hf_path(name)
        if path is None:
            looks_like_path = name.endswith(".json") or os.sep in name or "/" in name
            problem = "no such file" if looks_like_path else "unknown tokenizer"
            raise ValueError(
                f"{problem} {name!r}; use {' or '.join(OPENAI_ENCODINGS)}, "
                "or the path of a Hugging Face tokenizer.json"
            )
        stat = os.stat(path)
        # -- a file edited on disk is read again; an unchanged one is not
        key = (os.path.realpath(path), stat.st_mtime_ns, stat.st_size)
    tok = _LOADED.get(key)
    if tok is None:
        with _LOADING:
            tok = _LOADED.get(key)
            if tok is None:
                if path is None:
                    tok = OpenAIEncoding(name)
                else:
                    tok = HuggingFaceTokenizer(name, path)
                _LOADED[key] = tok
    return tok
