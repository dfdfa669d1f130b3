"""Progress bars for long command-line work (tqdm), on stderr and only for people.

A bar is drawn only when stderr is a terminal and the caller is not quiet, so
CI logs, pipes and ``--json`` output stay clean; stdout is never touched.

    from lab.cli.progress import track
    for doc in track(docs, "chunking", quiet=args.quiet):
        ...

    with bar(len(futures), "chunking", quiet=args.quiet) as b:
        for done in as_completed(futures):
            b.update(1)
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TextIO, TypeVar

from tqdm import tqdm

T = TypeVar("T")


def wanted(quiet: bool = False, stream: TextIO | None = None) -> bool:
    """True when a bar should be drawn: not quiet, and the stream is a terminal."""
    stream = sys.stderr if stream is None else stream
    if quiet:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or odd stream: no bar
        return False


def track(
    items: Iterable[T],
    desc: str,
    *,
    total: int | None = None,
    unit: str = "it",
    quiet: bool = False,
    stream: TextIO | None = None,
) -> Iterator[T]:
    """Yield ``items``, drawing a bar on stderr when ``wanted``."""
    stream = sys.stderr if stream is None else stream
    if not wanted(quiet, stream):
        yield from items
        return
    yield from tqdm(items, desc=desc, total=total, unit=unit, file=stream, leave=False)


class _NoBar:
    def update(self, n: int = 1) -> None:
        """Nothing to draw."""


@contextmanager
def bar(
    total: int,
    desc: str,
    *,
    unit: str = "it",
    quiet: bool = False,
    stream: TextIO | None = None,
) -> Iterator[tqdm | _NoBar]:
    """A bar to ``update(n)`` by hand (e.g. as distributed work completes)."""
    stream = sys.stderr if stream is None else stream
    if not wanted(quiet, stream):
        yield _NoBar()
        return
    with tqdm(total=total, desc=desc, unit=unit, file=stream, leave=False) as b:
        yield b
