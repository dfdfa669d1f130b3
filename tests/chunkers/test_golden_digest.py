"""The structural chunker's exact output, pinned by a digest, chunk by chunk.

Speed work must not change a single chunk: every field of every chunk (JSON,
sorted keys) over the whole corpus is hashed and compared to the digest taken
before any optimisation, once as given and once with CRLF line endings (the
offset map back to the caller's text is pinned too). The corpus is read-only
and shared, so the digests cannot drift with edits to this project's files.

A short digest of each chunk is kept beside them (tests/data/golden_chunks.json),
so a failure names the chunks that changed, with the first line of each, instead
of showing two hashes.

If the output changes on purpose (a rule changed, not a speed-up), run
``python -m tests.chunkers.test_golden_digest``: it rewrites the chunk digests
and prints the corpus digests to paste into GOLDEN. Say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

import pytest

from chunkers import chunk
from tests.support import ROOT
from tests.support import SHARED_CORPUS as CORPUS

# digests of the shared corpus itself: a corpus of your own has other digests
pytestmark = pytest.mark.shared_corpus

CONFIGS = {"chars": (1800, 150), "words": (200, 20)}

GOLDEN = {
    ("corpus", "chars"): "3196e79a0f0a20ae0f02c9ed1044ad15e31259c3bd93f95a977527d8875e2285",
    ("corpus", "words"): "c29e26004b3eecc7c6ede79a817f347bbe4a27442dffb9a056733da211f6eb8b",
    ("corpus-crlf", "chars"): "c42e5ebd9ababdc8f0b94270f44515157ad6462722ed7421f9619fc49819db9f",
    ("corpus-crlf", "words"): "a5475702702d0efc23fc3d2a6d390694959b2f40a167d9ac87fd2e16ef9c94c2",
}

CHUNK_DIGESTS = ROOT / "tests" / "data" / "golden_chunks.json"
SHORT = 8  # hex digits kept per chunk: enough to tell a changed chunk, small on disk
SHOWN = 20  # changed chunks listed in a failure


def _documents(kind: str) -> list[tuple[str, str]]:
    # bytes decoded as given: no newline translation
    docs = [
        (p.relative_to(CORPUS).as_posix(), p.read_bytes().decode("utf-8"))
        for p in sorted(CORPUS.rglob("*.md"))
    ]
    if kind == "corpus-crlf":
        docs = [(name, text.replace("\n", "\r\n")) for name, text in docs]
    return docs


@dataclass
class Output:
    """The chunker's output over the corpus: its digest, and each chunk's."""

    digest: str
    chunks: dict[str, list[str]] = field(default_factory=dict)  # document -> short digests
    first_lines: dict[str, list[str]] = field(default_factory=dict)


def output(kind: str, unit: str) -> Output:
    size, overlap = CONFIGS[unit]
    h = hashlib.sha256()
    out = Output("")
    for name, text in _documents(kind):
        h.update(name.encode("utf-8") + b"\0")
        digests, firsts = out.chunks.setdefault(name, []), out.first_lines.setdefault(name, [])
        for c in chunk(text, "structural", size, overlap, unit=unit):
            record = json.dumps(c.to_dict(), sort_keys=True, ensure_ascii=False).encode("utf-8")
            h.update(record)
            h.update(b"\n")
            digests.append(hashlib.sha256(record).hexdigest()[:SHORT])
            firsts.append(next((line for line in c.body.splitlines() if line.strip()), ""))
    out.digest = h.hexdigest()
    return out


def changed_chunks(now: Output, pinned: dict[str, list[str]]) -> list[str]:
    """One line per chunk whose output differs from the pinned one."""
    lines = []
    for name in sorted(set(now.chunks) | set(pinned)):
        if name not in pinned:
            lines.append(f"{name}: a document the pinned output does not have")
            continue
        if name not in now.chunks:
            lines.append(f"{name}: not chunked any more")
            continue
        old, new = pinned[name], now.chunks[name]
        for i in range(max(len(old), len(new))):
            if i >= len(new):
                lines.append(f"{name} chunk index {i}: no longer made")
            elif i >= len(old) or old[i] != new[i]:
                extra = " (a new chunk)" if i >= len(old) else ""
                lines.append(f"{name} chunk index {i}{extra}: {now.first_lines[name][i][:80]!r}")
    return lines


def _pinned(kind: str, unit: str) -> dict[str, list[str]]:
    data = json.loads(CHUNK_DIGESTS.read_text(encoding="utf-8"))[f"{kind} {unit}"]
    return {name: digests.split() for name, digests in data.items()}


@pytest.mark.parametrize("kind,unit", list(GOLDEN))
def test_structural_output_is_unchanged(kind: str, unit: str) -> None:
    now = output(kind, unit)
    changed = changed_chunks(now, _pinned(kind, unit))
    if (now.digest == GOLDEN[(kind, unit)]) == bool(changed):  # one record is older
        pytest.fail(
            f"{CHUNK_DIGESTS.name} and GOLDEN disagree on ({kind}, {unit}): "
            "pin both again (see this module's docstring)",
            pytrace=False,
        )
    if not changed:
        return
    more = f"\n... and {len(changed) - SHOWN} more" if len(changed) > SHOWN else ""
    pytest.fail(
        f"{len(changed)} chunk(s) of the structural output changed ({kind}, {unit}; "
        "the first line of each as it is now):\n" + "\n".join(changed[:SHOWN]) + more,
        pytrace=False,
    )


if __name__ == "__main__":  # pin the current output: paste the digests into GOLDEN
    pinned = {}
    for kind, unit in GOLDEN:
        now = output(kind, unit)
        pinned[f"{kind} {unit}"] = {name: " ".join(d) for name, d in now.chunks.items()}
        print(f'    ("{kind}", "{unit}"): "{now.digest}",')
    CHUNK_DIGESTS.write_text(json.dumps(pinned, indent=0, sort_keys=True) + "\n", encoding="utf-8")
