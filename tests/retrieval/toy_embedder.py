"""Embedders the tests bring, loaded by name ("tests.retrieval.toy_embedder:embed") as a
user's own model would be: a hashed bag of words, and a few that break the rules."""

from __future__ import annotations

import zlib

import numpy as np

from lab.retrieval.tokenize import tokenize

DIM = 64


def embed(texts: list[str]) -> np.ndarray:
    """Each text as counts of its tokens, each token hashed to one of DIM places."""
    out = np.zeros((len(texts), DIM))
    for row, text in enumerate(texts):
        for token in tokenize(text):
            out[row, zlib.crc32(token.encode()) % DIM] += 1
    return out


def as_lists(texts: list[str]) -> list[list[float]]:
    """The same vectors as plain lists: any array-like is accepted."""
    return embed(texts).tolist()


NOT_CALLABLE = 42


def flat(texts: list[str]) -> np.ndarray:
    """One number per text: not a matrix."""
    return np.ones(len(texts))


def one_short(texts: list[str]) -> np.ndarray:
    """A vector too few."""
    return embed(texts)[:-1]


def not_numbers(texts: list[str]) -> list[str]:
    return ["vector"] * len(texts)


def with_nan(texts: list[str]) -> np.ndarray:
    out = embed(texts)
    out[:, 0] = np.nan
    return out


def raises(texts: list[str]) -> np.ndarray:
    raise RuntimeError("model server not reachable\nsecond line of the trace")


class Encoder:
    """A model object with an encode method: reached as "module:Encoder.encode"."""

    @staticmethod
    def encode(texts: list[str]) -> np.ndarray:
        return embed(texts)
