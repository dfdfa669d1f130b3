"""What goes into the index beside a chunk's own text: the context modes (docs/gate.md).

Contextual retrieval writes a short context for each chunk with a model and
indexes it with the chunk. The lab's stand-in is structure the document already
has, so it runs offline:

* ``none``: the chunk's text alone (overlap prefix and body);
* ``path``: its heading path first (what the lab indexes by default);
* ``title+path``: the document's title, then the heading path (the title once:
  a path that already opens with it is left as it is).

The title is the document's first top-level heading near its top; a document with
none gets its file name, and the run says so once. Imported chunks keep what their pipeline
embedded; a mode then says what is added to that text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from chunkers.model import HEADING_SEPARATOR, Chunk, indexed_text
from chunkers.structural.blocks import parse

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


def context_text(chunk: Chunk, context: str, title: str = "", own: str | None = None) -> str:
    """The text indexed for ``chunk`` under ``context`` (``own``: the text its pipeline
    embedded, for an imported chunk: the mode adds to it)."""
    if context not in CONTEXTS:
        raise ValueError(f"context must be one of {', '.join(CONTEXTS)}, got {context!r}")
    if own is not None:
        path = HEADING_SEPARATOR.join(chunk.heading_path)
        parts = [
            title if context == TITLE_PATH else "",
            path if context != NONE and path and path not in own else "",
            own,
        ]
        return "\n".join(p for p in parts if p)
    text = indexed_text(chunk, heading_path=context != NONE)
    if context == TITLE_PATH and title and chunk.heading_path[:1] != (title,):
        return f"{title}\n{text}"
    return text


def context_texts(
    documents: Mapping[str, str],
    chunked: Mapping[str, Sequence[Chunk]],
    context: str,
    own: Mapping[str, Sequence[str]] | None = None,
) -> tuple[list[str], Titles | None]:
    """Every chunk's indexed text in index order (documents in order, chunks in
    order), and the titles used (None unless the mode uses them)."""
    named = titles(documents) if context == TITLE_PATH else None
    texts: list[str] = []
    for name in documents:
        title = named.by_document[name] if named else ""
        mine = own.get(name) if own else None
        for i, c in enumerate(chunked[name]):
            texts.append(context_text(c, context, title, None if mine is None else mine[i]))
    return texts, named
