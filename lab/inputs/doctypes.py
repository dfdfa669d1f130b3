"""Each document's type: by the classifier's rules, or by the folder's say.

A folder may hold a small mapping file, ``doctypes.json``, naming the type of
any document the rules get wrong: ``{"minutes/march.md": "transcript"}``, keyed
by the document's path in the folder as every command names it. A mapping that
names an unknown type, or a document the folder does not hold, is refused with
one line: a wrong override would route silently.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from chunkers.doctype import DOC_TYPES, Classified, classify

MAPPING_FILE = "doctypes.json"


class MappingError(ValueError):
    """The folder's mapping file cannot be used (one line, for the user)."""


def read_mapping(folder: Path, names: Mapping[str, object]) -> dict[str, str]:
    """The folder's mapping file as document -> type ({} when there is none).

    Raises:
        MappingError: it is not a JSON object of names to types, names an unknown
            type, or names a document that is not among ``names``.
    """
    path = folder / MAPPING_FILE
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MappingError(f"{MAPPING_FILE}: not JSON ({exc})") from None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise MappingError(
            f'{MAPPING_FILE}: must map document names to types, e.g. {{"notes.md": "faq"}}'
        )
    for name, doc_type in data.items():
        if doc_type not in DOC_TYPES:
            raise MappingError(
                f"{MAPPING_FILE}: {name!r} has type {doc_type!r}; types are {', '.join(DOC_TYPES)}"
            )
        if name not in names:
            raise MappingError(f"{MAPPING_FILE}: no document {name!r} in the folder")
    return dict(data)


def document_types(
    docs: Mapping[str, str], mapping: Mapping[str, str] | None = None
) -> dict[str, Classified]:
    """Every document's type: the mapping's where it says one, else the rules'."""
    mapping = mapping or {}
    out: dict[str, Classified] = {}
    for name, text in docs.items():
        said = mapping.get(name)
        if said is None:
            out[name] = classify(text)
        else:
            out[name] = Classified(said, f"set in {MAPPING_FILE}", source="mapping")
    return out
