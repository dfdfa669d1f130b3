"""What goes into the index beside a chunk's own text: the context modes (docs/gate.md).

Contextual retrieval writes a short context for each chunk with a model and
indexes it with the chunk. The lab's stand-in is structure the document already
has, so it runs offline:

* ``none``: the chunk's text alone (overlap prefix and body);
* ``path``: its heading path first (what the lab indexes by default);
* ``title+path``: the document's title, then the heading path (the title once:
  a path that already opens with it is left as it is).

The title is the document's first top-level heading near its top; a document with
none gets its file name, and the run says so once. An imported chunk's own text is
what its pipeline embedded (its heading path is on it only when the pipeline embeds
it too: ``--embeds-headings``); a mode then says what is added to that text.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from chunkers.model import HEADING_SEPARATOR, Chunk
from chunkers.structural.blocks import parse
from lab.retrieval.tokenize import tokenize

NONE = "none"
PATH = "path"
TITLE_PATH = "title+path"
CONTEXTS = (NONE, PATH, TITLE_PATH)
DEFAULT_CONTEXT = PATH


# -- a title stands near the top: only the start is parsed, so naming a corpus's titles
# -- costs little beside chunking it
TITLE_WINDOW = 1_500


def document_title(text: str) -> str | None:
    """The document's first top-level heading (# or a === underline) in its first
    TITLE_WINDOW characters, or None."""
    top = parse(text[:TITLE_WINDOW]).sections
    return next((s.heading for s in top if s.level == 1 and s.heading), None)


@dataclass(frozen=True, slots=True)
class Titles:
    """Each document's title, and the documents that had none (their file name stands in)."""

    by_document: dict[str, str]
    from_file_name: tuple[str, ...]

    def note(self) -> str | None:
        """The one line a run says when a file name stood in for a title."""
        if not self.from_file_name:
            return None
        names = self.from_file_name
        if len(names) == 1:
            return (
                f"context title+path: {names[0] or 'the document'} has no title (no top-level "
                f"heading); its file name {self.by_document[names[0]]!r} is used as its title"
            )
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        return (
            f"context title+path: {len(names)} documents have no title (no top-level "
            f"heading); their file names are used as titles ({shown})"
        )


def titles(documents: Mapping[str, str]) -> Titles:
    """Every document's title, its file name (without the extension) when it has none."""
    found: dict[str, str] = {}
    missing: list[str] = []
    for name, text in documents.items():
        title = document_title(text)
        if title is None:
            missing.append(name)
            title = PurePath(name).stem or name or "document"
        found[name] = title
    return Titles(found, tuple(missing))


def context_parts(chunk: Chunk, context: str, title: str = "") -> tuple[str, str]:
    """What is indexed for ``chunk`` under ``context``, as (context, own text): the context
    (title and heading path, "" for none) goes first, on a line of its own."""
    if context not in CONTEXTS:
        raise ValueError(f"context must be one of {', '.join(CONTEXTS)}, got {context!r}")
    path = HEADING_SEPARATOR.join(chunk.heading_path) if context != NONE else ""
    if context == TITLE_PATH and title and chunk.heading_path[:1] != (title,):
        path = f"{title}\n{path}" if path else title
    return path, chunk.retrievable_text


def context_text(chunk: Chunk, context: str, title: str = "") -> str:
    """The text indexed for ``chunk`` under ``context``: for ``path``, ``indexed_text``'s."""
    return joined(*context_parts(chunk, context, title))


def joined(head: str, body: str) -> str:
    """What an index reads: the context on a line of its own above the chunk's text."""
    return f"{head}\n{body}" if head else body


class IndexTexts:
    """Every chunk's indexed text under one context, in index order, and its tokens for
    BM25, made from the parts: a chunk's own text is tokenized once for every context
    that shares ``cache``, a heading path once for every chunk that carries it."""

    def __init__(self, parts: list[tuple[str, str]], cache: TokenCache) -> None:
        self.parts = parts
        self._cache = cache

    @property
    def texts(self) -> list[str]:
        return [joined(head, body) for head, body in self.parts]

    def tokens(self) -> Iterator[list[str]]:
        """Each text's tokens (a separator never joins two words, so a text's tokens are
        its context's followed by its own text's)."""
        for position, (head, body) in enumerate(self.parts):
            yield self._cache.head(head) + self._cache.body(position, body)


class TokenCache:
    """Tokens of heading paths and of chunks' own texts, kept across context modes."""

    def __init__(self) -> None:
        self._heads: dict[str, list[str]] = {"": []}
        self._bodies: dict[int, list[str]] = {}

    def head(self, text: str) -> list[str]:
        if text not in self._heads:
            self._heads[text] = tokenize(text)
        return self._heads[text]

    def body(self, position: int, text: str) -> list[str]:
        if position not in self._bodies:
            self._bodies[position] = tokenize(text)
        return self._bodies[position]


def context_texts(
    documents: Mapping[str, str],
    chunked: Mapping[str, Sequence[Chunk]],
    context: str,
    cache: TokenCache | None = None,
) -> tuple[IndexTexts, Titles | None]:
    """Every chunk's indexed text in index order (documents in order, chunks in
    order), and the titles used (None unless the mode uses them)."""
    named = titles(documents) if context == TITLE_PATH else None
    parts: list[tuple[str, str]] = []
    for name in documents:
        title = named.by_document[name] if named else ""
        parts.extend(context_parts(c, context, title) for c in chunked[name])
    return IndexTexts(parts, cache or TokenCache()), named
