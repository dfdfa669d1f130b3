"""Rank chunks with SQLite FTS5's own bm25(), and compare with rank-bm25.

Mirrors the structural chunker's index: heading_path, overlap_prefix and body each in their
own column (so they can be weighted separately), tokenize='unicode61'.
FTS5 differs from rank-bm25 in ways worth seeing: it normalises length per
column (each column has its own avgdl), clamps non-positive IDF to 1e-6
instead of an epsilon floor, and returns negative scores (lower is better).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from chunkers.model import HEADING_SEPARATOR, Chunk

from .bm25 import ChunkScore, query_tokens


class Fts5Unavailable(RuntimeError):
    """This Python's SQLite was built without the FTS5 extension."""


@dataclass(frozen=True, slots=True)
class Fts5Score:
    index: int
    score: float | None  # FTS5 bm25(): negative, lower is better; None = no match
    rank: int | None  # 1 = best; None when the chunk matches no query term


@dataclass(frozen=True, slots=True)
class Agreement:
    top1: bool  # both put the same chunk first
    k: int  # the k actually used: min(k, number of chunks)
    topk_overlap: int  # chunks in both top-k sets
    topk_fraction: float  # topk_overlap / k (1.0 when k is 0)
    kendall_tau: float | None  # over chunks both ranked; None if fewer than 2
    compared: int  # how many chunks FTS5 ranked (tau's sample)


def match_expression(query: str) -> str:
    """An OR of double-quoted tokens: only ever FTS5 strings, never operators.

    Tokens contain only letters and numbers, so quoting alone already blocks
    AND/OR/NEAR/*/^/column filters; doubling quotes is belt and braces.
    """
    unique = dict.fromkeys(query_tokens(query))  # dedupe, keep order
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in unique)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _sqlite_text(text: str) -> str:
    """SQLite stores UTF-8, which cannot hold a lone surrogate (a lossy decode
    leaves them): U+FFFD stands in. Neither is a token character for unicode61
    nor for lab.retrieval.tokenize, so no token changes."""
    return _SURROGATE.sub("\ufffd", text)


def _connect() -> sqlite3.Connection:
    # -- an index may be built in one thread and asked in another (the app's
    # -- threads); it is only read after it is built, so sharing it is safe
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    try:
        conn.execute(
            "CREATE VIRTUAL TABLE chunks USING fts5("
            "heading_path, overlap_prefix, body, tokenize='unicode61')"
        )
    except sqlite3.OperationalError as exc:
        conn.close()
        raise Fts5Unavailable(
            f"SQLite {sqlite3.sqlite_version} here has no FTS5 extension ({exc})"
        ) from None
    return conn


def fts5_available() -> bool:
    try:
        _connect().close()
    except Fts5Unavailable:
        return False
    return True


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


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-a for paired values without ties (ranks), O(n log n).

    tau = 1 - 2 * discordant / pairs; discordant pairs are the inversions of y
    once the pairs are sorted by x, counted with a merge sort.
    """
    if len(x) != len(y):
        raise ValueError("x and y must have the same length")
    n = len(x)
    if n < 2:
        return None
    seq = [yy for _, yy in sorted(zip(x, y, strict=True))]

    def sort_count(a: list[float]) -> tuple[list[float], int]:
        if len(a) < 2:
            return a, 0
        left, inv_l = sort_count(a[: len(a) // 2])
        right, inv_r = sort_count(a[len(a) // 2 :])
        merged, inv, i, j = [], inv_l + inv_r, 0, 0
        while i < len(left) and j < len(right):
            if right[j] < left[i]:
                merged.append(right[j])
                inv += len(left) - i  # right[j] jumps every remaining left item
                j += 1
            else:
                merged.append(left[i])
                i += 1
        return merged + left[i:] + right[j:], inv

    _, discordant = sort_count(seq)
    return 1.0 - 2.0 * discordant / (n * (n - 1) / 2)


def agreement(bm25: Sequence[ChunkScore], fts5: Sequence[Fts5Score], *, k: int = 5) -> Agreement:
    """How far rank-bm25 and FTS5 agree on one question over the same chunks."""
    bm25_rank = {s.index: s.rank for s in bm25}
    fts5_rank = {s.index: s.rank for s in fts5 if s.rank is not None}
    if set(bm25_rank) != {s.index for s in fts5}:
        raise ValueError("the two score lists are not over the same chunks")
    k = max(0, min(k, len(bm25_rank)))
    top_bm25 = {i for i, r in bm25_rank.items() if r <= k}
    top_fts5 = {i for i, r in fts5_rank.items() if r <= k}
    first_bm25 = [i for i, r in bm25_rank.items() if r == 1]
    first_fts5 = [i for i, r in fts5_rank.items() if r == 1]
    both = sorted(fts5_rank)
    overlap = len(top_bm25 & top_fts5)
    return Agreement(
        top1=bool(first_fts5) and first_bm25 == first_fts5,
        k=k,
        topk_overlap=overlap,
        topk_fraction=overlap / k if k else 1.0,
        kendall_tau=kendall_tau([bm25_rank[i] for i in both], [fts5_rank[i] for i in both]),
        compared=len(both),
    )
