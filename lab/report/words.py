"""Counts in words: "1 document", "2 documents" (never "1 documents")."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in the number it takes: ``plural`` when given, else noun + "s"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
