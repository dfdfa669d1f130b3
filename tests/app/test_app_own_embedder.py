"""A server that offers its own model (CHUNK_LAB_EMBEDDERS): a link names it, Lab 11
judges with it, and a model that breaks its promise is one line on the page.

The app reads the variable when it starts, so each run is a child process with it set."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from chunkers import chunk, indexed_text
from lab.retrieval.dense import DenseRetriever
from lab.retrieval.embedders import EmbeddingCache, load_embedder
from tests.support import ROOT, SAMPLES

TOY = "tests.retrieval.toy_embedder:embed"
FLAT = "tests.retrieval.toy_embedder:flat"

CHILD = """
import json, sys
from tests.app.app_harness import all_text, dataframes, open_app
at = open_app(lab="judges", doc="support_kb", q="0", strategy="structural", unit="chars",
              size="1000", overlap="100", embedder=sys.argv[1])
tables = [d for d in dataframes(at) if "dense rank" in d.columns]
print(json.dumps({
    "options": list(at.selectbox(key="embedder").options),
    "chosen": at.selectbox(key="embedder").value,
    "link": at.query_params.get("embedder"),
    "dense": [int(r) for r in tables[0]["dense rank"]] if tables else None,
    "errors": [e.value for e in at.error],
    "warnings": [w.value for w in at.warning],
    "text": all_text(at),
}))
"""


def run_app(offered: str, chosen: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CHUNK_LAB_EMBEDDERS": offered}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, chosen],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_link_opens_lab_11_judged_by_the_servers_own_model() -> None:
    got = run_app(TOY, TOY)
    assert got["options"] == ["wordllama", TOY] and got["chosen"] == TOY
    assert got["link"] == TOY and got["warnings"] == []
    text = (SAMPLES / "support_kb.md").read_text(encoding="utf-8")
    question = json.loads((SAMPLES / "support_kb.gold.jsonl").read_text().splitlines()[0])
    texts = [indexed_text(c) for c in chunk(text, "structural", 1000, 100)]
    judge = DenseRetriever(load_embedder(TOY, cache=EmbeddingCache()))
    assert got["dense"] == list(judge.score(texts, question["question"]).ranks)


def test_a_model_that_returns_the_wrong_shape_is_one_line() -> None:
    got = run_app(FLAT, FLAT)
    [error] = got["errors"]
    assert error.startswith("The embedder cannot judge: embedder tests.retrieval.toy_embedder:flat")
    assert "returned shape" in error and "Traceback" not in got["text"]
    assert "chunks: 8 from" in got["text"]  # the chunk view stays
