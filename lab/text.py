"""Text in the two forms the lab compares and shows it: whitespace collapsed, and
clipped to fit one line of a message, a table or a picker."""

from __future__ import annotations

ELLIPSIS = "…"


def collapse_whitespace(text: str) -> str:
    """Runs of whitespace to one space, ends trimmed: the form answers are compared in
    (an answer is intact when its words stand in a chunk in order, line breaks aside).

    Words stay apart. To find another pipeline's chunk in its document, whose
    splitter may have dropped or re-joined the spaces themselves, use
    lab.inputs.placement.drop_whitespace (every whitespace character dropped)."""
    return " ".join(text.split())


# the former name, for callers not yet renamed
collapse = collapse_whitespace


def clip(text: str, n: int = 60) -> str:
    """``text`` on one line (whitespace collapsed), cut to at most ``n`` characters,
    the last of them an ellipsis when anything was cut."""
    flat = collapse_whitespace(text)
    return flat if len(flat) <= n else flat[: max(0, n - 1)] + ELLIPSIS
