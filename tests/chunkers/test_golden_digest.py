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
    ("corpus", "chars"): "37fdafc0b7669bfed7e724a669885271b4408c531464c831d5e5d9a3f1693bd6",
    ("corpus", "words"): "360ac8e806864e25eda21e10a6114cdd4fea5d4933979fbdaee951b30a3b3df1",
    ("corpus-crlf", "chars"): "17e9140e8187c9052fffe77ae081d898c7bc2f7b1428fce590e6237d4520cc5d",
    ("corpus-crlf", "words"): "f15be47ec22871e217ef939af22b52d96a98ac1175e6c4ba7f38c6b7abf2f3a7",
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
