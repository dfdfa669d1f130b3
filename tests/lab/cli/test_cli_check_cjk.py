"""`check --chunks` on a Japanese document: a pipeline that splits at 。 and joins the
book's wrapped lines without a space (as CJK-aware splitters do) still places every
chunk, and the gold set is judged over them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support import SAMPLES
from tests.support import run_cli as run

pytestmark = pytest.mark.usefixtures("no_network")

DOC = SAMPLES / "rust_variables_ja.md"
GOLD = SAMPLES / "rust_variables_ja.gold.jsonl"


def test_a_pipelines_japanese_chunks_place_and_keep_their_answers(tmp_path: Path, capsys) -> None:
    text = DOC.read_text(encoding="utf-8")
    # -- two sentences a chunk, each line stripped and joined with nothing between
    sentences = [s for s in re.split(r"(?<=。)", text) if s.strip()]
    pieces = ["".join(sentences[i : i + 2]) for i in range(0, len(sentences), 2)]
    rows = [{"text": "".join(ln.strip() for ln in p.splitlines())} for p in pieces]
    assert any("\n" in p and "\n" not in r["text"] for p, r in zip(pieces, rows, strict=True))
    chunks = tmp_path / "chunks.jsonl"
    chunks.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    code, out, err = run(
        capsys, "check", str(DOC), "--gold", str(GOLD), "--chunks", str(chunks), "--json"
    )
    assert code in (0, 1), err
    data = json.loads(out)
    assert data["imported"]["unplaced"] == 0 and data["imported"]["chunks"] == len(rows)
    assert {c["how"] for c in data["imported"]["placed"]} <= {"exact", "normalised"}
    # -- the wrapped gold answers are whole in some chunk or cut, never "not found"
    assert len(data["pairs"]) == 7
