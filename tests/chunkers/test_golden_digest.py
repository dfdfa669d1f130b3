"""The structural chunker's exact output, pinned by a digest.

Speed work must not change a single chunk: every field of every chunk (JSON,
sorted keys) over the whole corpus is hashed and compared to the digest taken
before any optimisation, once as given and once with CRLF line endings (the
offset map back to the caller's text is pinned too). The corpus is read-only
and shared, so the digests cannot drift with edits to this project's files.

If a digest changes on purpose (a rule changed, not a speed-up), regenerate
it with ``python -m tests.chunkers.test_golden_digest`` and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from chunkers import chunk
from tests.support import SHARED_CORPUS as CORPUS

# digests of the shared corpus itself: a corpus of your own has other digests
pytestmark = pytest.mark.shared_corpus

CONFIGS = {"chars": (1800, 150), "words": (200, 20)}

GOLDEN = {
    ("corpus", "chars"): "ef7b9645662a64f261648d1d6b3cc9676a234eedc7ba4cc524e720a72141d9a4",
    ("corpus", "words"): "3c4c4665ed974de26a59f1d8abdaa75fd7d74fcf91f104978a58c4087fdebc66",
    ("corpus-crlf", "chars"): "c144a1e644448626f1148abd32b7e87385f5f84d2e114c9ebdc48158614d3e20",
    ("corpus-crlf", "words"): "aeb96aadbe48940a6e32154550842615fd836f2846d99ed15ce363eb197b4735",
}


def _documents(kind: str) -> list[tuple[str, str]]:
    # bytes decoded as given: no newline translation
    docs = [
        (p.relative_to(CORPUS).as_posix(), p.read_bytes().decode("utf-8"))
        for p in sorted(CORPUS.rglob("*.md"))
    ]
    if kind == "corpus-crlf":
        docs = [(name, text.replace("\n", "\r\n")) for name, text in docs]
    return docs


def digest(kind: str, unit: str) -> str:
    size, overlap = CONFIGS[unit]
    h = hashlib.sha256()
    for name, text in _documents(kind):
        h.update(name.encode("utf-8") + b"\0")
        for c in chunk(text, "structural", size, overlap, unit=unit):
            h.update(json.dumps(c.to_dict(), sort_keys=True, ensure_ascii=False).encode("utf-8"))
            h.update(b"\n")
    return h.hexdigest()


@pytest.mark.parametrize("kind,unit", list(GOLDEN))
def test_structural_output_is_unchanged(kind: str, unit: str) -> None:
    assert digest(kind, unit) == GOLDEN[(kind, unit)]


if __name__ == "__main__":  # print the current digests, to paste into GOLDEN
    for kind, unit in GOLDEN:
        print(f'    ("{kind}", "{unit}"): "{digest(kind, unit)}",')
