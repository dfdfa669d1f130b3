"""Rank chunks with SQLite FTS5's own bm25(), the third BM25 variant.

Mirrors the structural chunker's index: heading_path, overlap_prefix and body each in their
own column (so they can be weighted separately). Each column holds the lab's own tokens
(``lab.retrieval.tokenize``) joined by spaces, and FTS5's ``ascii`` tokenizer splits them
at those spaces only (it treats every non-ASCII character as part of a word, and the
tokens hold no ASCII punctuation): FTS5 indexes exactly the tokens rank-bm25 and the
sparse index see, CJK bigrams included. Its own ``unicode61`` would make a run of Chinese
one token, and its ``trigram`` cannot match a word of one or two characters.
FTS5 differs from rank-bm25 in ways worth seeing: it normalises length per
column (each column has its own avgdl), clamps non-positive IDF to 1e-6
instead of an epsilon floor, and returns negative scores (lower is better).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from chunkers.model import HEADING_SEPARATOR, Chunk

from .bm25 import query_tokens
from .tokenize import tokenize


class Fts5Unavailable(RuntimeError):
    """This Python's SQLite was built without the FTS5 extension."""


@dataclass(frozen=True, slots=True)
class Fts5Score:
    index: int
    score: float | None  # FTS5 bm25(): negative, lower is better; None = no match
    rank: int | None  # 1 = best; None when the chunk matches no query term


def match_expression(query: str) -> str:
    """An OR of double-quoted tokens: only ever FTS5 strings, never operators.

    Tokens contain only letters and numbers, so quoting alone already blocks
    AND/OR/NEAR/*/^/column filters; doubling quotes is belt and braces.
    """
    unique = dict.fromkeys(query_tokens(query))  # dedupe, keep order
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in unique)


def _sqlite_text(text: str) -> str:
    """The lab's tokens of ``text``, space-separated, for the ``ascii`` tokenizer to split.

    (A lone surrogate, which SQLite's UTF-8 cannot hold, is never in a token.)"""
    return " ".join(tokenize(text))


def _connect() -> sqlite3.Connection:
    # -- an index may be built in one thread and asked in another (the app's
    # -- threads); it is only read after it is built, so sharing it is safe
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    try:
        conn.execute(
            "CREATE VIRTUAL TABLE chunks USING fts5("
            "heading_path, overlap_prefix, body, tokenize='ascii')"
        )
    except sqlite3.OperationalError as exc:
        conn.close()
        raise Fts5Unavailable(
            f"SQLite {sqlite3.sqlite_version} here has no FTS5 extension ({exc})"
        ) from None
    return conn


def fts5_scores(
    chunks: Sequence[Chunk],
    query: str,
    *,
    weights: tuple[float, float, float] = (1.0, 1.0, 1.0),
    heading_path: bool = True,
    overlap: bool = True,
) -> list[Fts5Score]:
    """One Fts5Score per chunk, in the order given.

    ``weights`` are bm25()'s per-column weights for (heading_path,
    overlap_prefix, body). The switches blank a column, as ``indexed_text`` does.
    """
    expr = match_expression(query)  # ValueError on a no-token question
    if not chunks:
        return []
    conn = _connect()
    try:
        conn.executemany(
            "INSERT INTO chunks(rowid, heading_path, overlap_prefix, body) VALUES (?, ?, ?, ?)",
            [
                (
                    pos,
                    _sqlite_text(HEADING_SEPARATOR.join(c.heading_path)) if heading_path else "",
                    _sqlite_text(c.overlap_prefix) if overlap else "",
                    _sqlite_text(c.body),
                )
                for pos, c in enumerate(chunks)
            ],
        )
        rows = conn.execute(
            "SELECT rowid, bm25(chunks, ?, ?, ?) FROM chunks WHERE chunks MATCH ?",
            (*weights, expr),
        ).fetchall()
    finally:
        conn.close()
    matched = {int(pos): float(s) for pos, s in rows}
    # Rank in Python so ties break exactly as rank-bm25's do (chunk index, then position).
    order = sorted(matched, key=lambda p: (matched[p], chunks[p].index, p))
    rank = {pos: r for r, pos in enumerate(order, start=1)}
    return [Fts5Score(c.index, matched.get(p), rank.get(p)) for p, c in enumerate(chunks)]


class Fts5Index:
    """FTS5 over fixed texts, each whole in the body column: built once, asked many
    questions (a gold set), as ``fts5_scores`` with both switches off would score it."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.size = len(texts)
        self._conn = _connect()
        self._conn.executemany(
            "INSERT INTO chunks(rowid, heading_path, overlap_prefix, body) VALUES (?, '', '', ?)",
            [(pos, _sqlite_text(t)) for pos, t in enumerate(texts)],
        )

    def raw(self, query: str) -> dict[int, float]:
        """SQLite's bm25() (negative, lower is better) of each matching position."""
        expr = match_expression(query)  # ValueError on a no-token question
        rows = self._conn.execute(
            "SELECT rowid, bm25(chunks) FROM chunks WHERE chunks MATCH ?", (expr,)
        ).fetchall()
        return {int(pos): float(s) for pos, s in rows}

    def close(self) -> None:
        self._conn.close()
