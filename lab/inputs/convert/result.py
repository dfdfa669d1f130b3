"""What every converter returns, and how it refuses: one line."""

from __future__ import annotations

import re
from dataclasses import dataclass

INSTALL = "pip install 'chunk-lab[documents]'"
UNREADABLE = "{name} is not a readable PDF (damaged or cut short)"


class ConversionError(ValueError):
    """A document that cannot be converted; the message is one line."""


@dataclass(frozen=True, slots=True)
class Converted:
    markdown: str
    # (page number, start, end): where each PDF page's section sits in the markdown
    pages: tuple[tuple[int, int, int], ...] = ()
    # what the reader should know about the conversion, a line each
    notes: tuple[str, ...] = ()


IMAGE = "image"  # a picture's placeholder target: ![its alt text](image), never its data
_PRIVATE_USE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010fffd]")


def image_placeholder(alt: str) -> str:
    """A picture as markdown: its alt text, whitespace collapsed, brackets escaped."""
    alt = " ".join(alt.split()).replace("[", "\\[").replace("]", "\\]")
    return f"![{alt}]({IMAGE})"


def private_use_note(markdown: str, name: str) -> str | None:
    """A line saying how many characters are private-use code points: glyphs of a
    symbol font (Wingdings' check mark is U+F0FC) that mean nothing as text."""
    found = _PRIVATE_USE.findall(markdown)
    if not found:
        return None
    codes = ", ".join(f"U+{ord(c):04X}" for c in sorted(set(found))[:3])
    return (
        f"{name}: {len(found)} character(s) are private-use glyphs of a symbol font "
        f"({codes}{', ...' if len(set(found)) > 3 else ''}); they carry no meaning as text"
    )


def missing(kind: str, package: str) -> ConversionError:
    return ConversionError(f"reading {kind} files needs {package}: {INSTALL}")
