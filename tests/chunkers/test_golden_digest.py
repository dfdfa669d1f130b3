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
    ("corpus", "chars"): "49ae19b428f482b2e7a1c11dd13999f7df2af0ce6f790cc72e4121ff57094eb8",
    ("corpus", "words"): "186728b106d273803cd6372b6165be32b8bfb5785a42c09e34b6aecbe111ceed",
    ("corpus-crlf", "chars"): "cd74a79d6ed7c6df819e281e796d6fbf01966aff0d54ceaa82da7ca58bb198cb",
    ("corpus-crlf", "words"): "69b942d7fa12bdea06cd8967850eafe0bfcb412a902ef60fc30e7c74a2c70171",
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
