"""What a file may become, not only what it weighs: a small upload can unpack to
gigabytes (a zip bomb), nest elements past any parser's recursion, or declare
thousands of pages. Each limit is checked before the work it bounds, so a refusal
is one line, fast, with the memory it would have cost never spent."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable

from lab.inputs.convert.result import ConversionError

MB = 1024 * 1024
# a Word file's parts, unpacked (its pictures are never unpacked): a 500-page
# report's XML is a few megabytes; past this the XML reader needs gigabytes
MAX_EXPANDED_BYTES = 25 * MB
# characters of text a document may convert to: several thousand pages of prose
MAX_TEXT_CHARS = 20_000_000
# elements inside elements: real pages stay under 60; the HTML-to-markdown walk
# recurses once or twice a level, and Python's stack holds about 1,000 frames
MAX_DEPTH = 256
MAX_PAGES = 10_000

_TAG = re.compile(r"<(/?)([A-Za-z][\w:.-]*)[^>]*?(/?)>")
# HTML elements that never close, or whose end tag may be left out: not counted
HTML_OPEN_ENDED = frozenset(
    "area base br col embed hr img input link meta source track wbr "
    "p li dt dd tr td th thead tbody tfoot option optgroup rb rt rp colgroup caption".split()
)


def nesting(markup: str, open_ended: frozenset[str] = frozenset()) -> int:
    """How deep the tags nest, from the tags alone (a scan, no tree): exact for
    XML, a floor for HTML when the elements that may stay open are given."""
    depth = deepest = 0
    for tag in _TAG.finditer(markup):
        closing, element, empty = tag.groups()
        if empty or element.lower() in open_ended:
            continue
        if closing:
            depth = max(depth - 1, 0)
        else:
            depth += 1
            deepest = max(deepest, depth)
    return deepest


def _refuse_over(amount: int, limit: int, says: str) -> None:
    """The one refusal every limit makes: ``says`` when ``amount`` passes ``limit``."""
    if amount > limit:
        raise ConversionError(says)


def check_unpacked(parts: Iterable[zipfile.ZipInfo], name: str, skip: str = "") -> None:
    """Refuse a zip whose parts (those not under ``skip``) unpack to more than the
    limit, from the sizes its directory declares. A part that lies about its size
    stops at the size it declared when read (Python's zipfile), so the sum bounds
    what is read."""
    total = sum(p.file_size for p in parts if not (skip and p.filename.startswith(skip)))
    _refuse_over(
        total,
        MAX_EXPANDED_BYTES,
        f"{name} expands to {total / MB:.0f} MB when unpacked, over the "
        f"{MAX_EXPANDED_BYTES / MB:.0f} MB limit; is it a zip bomb? Save a smaller copy",
    )


def check_depth(depth: int, name: str) -> None:
    _refuse_over(
        depth,
        MAX_DEPTH,
        f"{name} nests its elements {depth} deep, over the {MAX_DEPTH} limit; "
        "is it a generated or hostile page?",
    )


def check_text(chars: int, name: str, *, more: bool = False) -> None:
    """``more``: counted while converting, so the whole would be larger still."""
    amount = f"more than {MAX_TEXT_CHARS:,}" if more else f"{chars:,}"
    _refuse_over(
        chars,
        MAX_TEXT_CHARS,
        f"{name} converts to {amount} characters of text, over the "
        f"{MAX_TEXT_CHARS:,} limit; split it",
    )


def check_pages(pages: int, name: str) -> None:
    _refuse_over(
        pages, MAX_PAGES, f"{name} has {pages} pages, over the {MAX_PAGES}-page limit; split it"
    )
