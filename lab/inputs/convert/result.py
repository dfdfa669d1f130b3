"""What every converter returns, and how it refuses: one line."""

from __future__ import annotations

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


def missing(kind: str, package: str) -> ConversionError:
    return ConversionError(f"reading {kind} files needs {package}: {INSTALL}")
