"""The default embedder loads and embeds with no network: here with Python's sockets
refused (this folder's conftest), and in a child process inside a network namespace
of its own, where nothing, Python or not (the tokenizer is Rust), could connect."""

from __future__ import annotations

import shutil
import socket
import subprocess

import pytest

from lab.retrieval.embedders import WORDLLAMA_DIM, load_wordllama, wordllama_model
from tests.support import last_json, run_python

CHILD = """
import json, logging, socket
from lab.retrieval.embedders import load_embedder
embedder = load_embedder()
dim = embedder.dimension()
print(json.dumps({
    "dim": dim,
    "interfaces": sorted(name for _, name in socket.if_nameindex()),
    "handlers": len(logging.getLogger().handlers),
    "level": logging.getLogger().level,
}))
"""


def run_child(*prefix: str) -> dict:
    return last_json(run_python("-c", CHILD, prefix=prefix, timeout=120))


def test_the_sockets_really_are_refused_here():
    with pytest.raises(OSError, match="no network in the retrieval tests"):
        socket.create_connection(("127.0.0.1", 9), timeout=1)


def test_a_fresh_wordllama_loads_and_embeds_with_sockets_refused():
    model = load_wordllama()
    assert model is not wordllama_model()  # a load of its own, not the process's copy
    vectors = model.embed(["how many vacation days do new staff get?"], norm=False)
    assert vectors.shape == (1, WORDLLAMA_DIM)
    assert float(abs(vectors).sum()) > 0


def _can_unshare() -> bool:
    if not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0


def test_the_default_embedder_works_in_a_namespace_with_no_network():
    if not _can_unshare():
        pytest.skip("`unshare -n` is not available here (needs util-linux and root)")
    got = run_child("unshare", "-n")
    assert got["interfaces"] == ["lo"]  # nothing but loopback (and that is down)
    assert got["dim"] == WORDLLAMA_DIM


def test_loading_wordllama_leaves_the_process_logging_alone():
    # wordllama switches on INFO logging when imported; the loader undoes that
    got = run_child()
    assert got["dim"] == WORDLLAMA_DIM
    assert (got["handlers"], got["level"]) == (0, 30)  # no handler, WARNING: Python's own
