"""`chunk DOC|DIR --format ... --limit N`: a folder's chunks in the shapes LangChain and
LlamaIndex load, none over the embedder's limit, every character in some row, and
read back by the lab's own chunk importer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunkers import ChunkOptions, chunk_with
from chunkers.tokens import tokenizer_for
from lab.inputs.documents import read_folder
from lab.inputs.exports import from_csv, from_jsonl
from lab.inputs.placement import import_chunk_file, import_chunk_folder
from tests.support import ROOT, SAMPLES, SHARED_CORPORA, run_cli

KB = SAMPLES / "support_kb.md"


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _uncovered(text: str, spans: list[tuple[int, int]]) -> list[int]:
    covered = bytearray(len(text))
    for s, e in spans:
        covered[s:e] = b"\x01" * (e - s)
    return [i for i, ch in enumerate(text) if not covered[i] and not ch.isspace()]


@pytest.mark.shared_corpus
@pytest.mark.parametrize("folder", SHARED_CORPORA, ids=lambda f: f.name)
def test_a_corpus_at_limit_512_tokens_fits_and_covers_every_character(
    capsys, tmp_path: Path, folder: Path
) -> None:
    # -- the whole folder, every file: a second or two in tokens on either corpus
    out = tmp_path / "chunks.jsonl"
    code, _, err = run_cli(
        capsys, "chunk", str(folder), "--limit", "512", "--unit", "tokens",
        "--format", "langchain", "--output", str(out),
    )  # fmt: skip
    assert code == 0, err
    assert "for limit 512 cl100k_base tokens" in err
    rows = _rows(out)
    count = tokenizer_for("cl100k_base").count
    assert max(count(r["page_content"]) for r in rows) <= 512
    assert all(r["metadata"]["length"] == count(r["page_content"]) for r in rows)
    docs, _ = read_folder(folder)
    spans: dict[str, list[tuple[int, int]]] = {d.name: [] for d in docs}
    for r in rows:
        spans[r["metadata"]["source"]].append((r["metadata"]["start"], r["metadata"]["end"]))
    for d in docs:
        assert _uncovered(d.text, spans[d.name]) == [], d.name


def test_without_the_limit_the_same_size_passes_it() -> None:
    # -- what --limit is for: at size 100 the heading path and a merged runt pass 100
    text = KB.read_text(encoding="utf-8")
    opts = ChunkOptions(size=100, overlap=0, unit="tokens")
    count = tokenizer_for("cl100k_base").count
    from chunkers import indexed_text

    assert max(count(indexed_text(c)) for c in chunk_with(text, "structural", opts)) > 100


@pytest.mark.parametrize("fmt", ["langchain", "llamaindex"])
def test_a_folder_export_round_trips_through_the_importer(capsys, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"{fmt}.jsonl"
    argv = ["--limit", "160", "--unit", "tokens"]
    code, _, err = run_cli(capsys, "chunk", str(SAMPLES), *argv, "--format", fmt, "-o", str(out))
    assert code == 0, err
    docs = {d.name: d.text for d in read_folder(SAMPLES)[0]}
    placed = import_chunk_folder(out, docs, "tokens")
    rows = _rows(out)
    assert sum(len(p.chunks) for p in placed.values()) == len(rows)
    for name, p in placed.items():
        assert not p.unplaced and not p.gaps
        ours = chunk_with(
            docs[name], "structural", ChunkOptions(size=160, overlap=0, unit="tokens", limit=160)
        )
        assert [(c.start, c.end, c.heading_path) for c in p.chunks] == [
            (c.start, c.end, c.heading_path) for c in ours
        ]
    # -- and the gate reads it: every row placed, counted against the same limit
    code, report, err = run_cli(
        capsys, "check", str(SAMPLES), "--gold", str(ROOT / "tests/data/samples.gold.jsonl"),
        "--chunks", str(out), "--unit", "tokens", "--limit", "160",
    )  # fmt: skip
    assert code in (0, 1), err
    assert "0 not placed" in report
    # -- counted on the text the pipeline embeds: the export's rows hold the heading
    # -- path, overlap and body
    assert "over the embedder's limit (160 cl100k_base tokens, each row's own text): 0 of" in report


def test_the_shapes_are_what_the_libraries_load(capsys, tmp_path: Path) -> None:
    lc, li = tmp_path / "lc.jsonl", tmp_path / "li.jsonl"
    for fmt, out in (("langchain", lc), ("llamaindex", li)):
        assert run_cli(capsys, "chunk", str(KB), "--format", fmt, "--output", str(out))[0] == 0
    doc = _rows(lc)[1]
    assert set(doc) == {"id", "metadata", "page_content", "type"} and doc["type"] == "Document"
    meta = doc["metadata"]
    for key in ("source", "start", "end", "heading_path", "page", "kind", "length", "config"):
        assert key in meta
    text = KB.read_text(encoding="utf-8")
    assert doc["page_content"].endswith(text[meta["start"] : meta["end"]])
    assert doc["page_content"].startswith(" > ".join(meta["heading_path"]))
    node = _rows(li)[1]
    assert node["class_name"] == "TextNode" and node["text"] == doc["page_content"]
    assert (node["start_char_idx"], node["end_char_idx"]) == (meta["start"], meta["end"])
    # -- the metadata stays out of what the node embeds: it embeds the text alone
    assert set(node["excluded_embed_metadata_keys"]) == set(node["metadata"])


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_the_labs_own_formats_read_back(capsys, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"chunks.{fmt}"
    code, _, err = run_cli(
        capsys, "chunk", str(KB), "--limit", "300", "--format", fmt, "-o", str(out)
    )
    assert code == 0, err
    config, chunks = (from_jsonl if fmt == "jsonl" else from_csv)(out.read_text(encoding="utf-8"))
    assert config["limit"] == 300 and config["size"] <= 300
    text = KB.read_text(encoding="utf-8")
    assert chunks == chunk_with(text, "structural", ChunkOptions(size=300, limit=300, overlap=0))
    assert import_chunk_file(out, text).chunks[0].start == chunks[0].start


def test_chunk_says_the_size_it_chose(capsys) -> None:
    code, out, _ = run_cli(capsys, "chunk", str(KB), "--unit", "tokens", "--limit", "100")
    assert code == 0
    first, second = out.splitlines()[:2]
    size = int(first.split("size ")[1].split()[0])
    assert size < 100
    assert second.startswith(f"size chosen: {size} for limit 100 cl100k_base tokens;")
    assert second.endswith("): 0 of " + first.split()[0])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--limit", "0"], "--limit must be an integer >= 1, got 0"),
        (
            ["--limit", "20", "--size", "40", "--overlap", "20"],
            "--limit (20) must be larger than overlap (20)",
        ),
        # -- the heading path alone is longer than 3 tokens: no size meets it
        (["--limit", "3", "--unit", "tokens"], "limit 3 cl100k_base tokens cannot be met"),
    ],
)
def test_a_limit_no_chunk_can_keep_is_one_line_and_writes_nothing(
    capsys, tmp_path: Path, argv: list[str], message: str
) -> None:
    out = tmp_path / "chunks.jsonl"
    code, stdout, err = run_cli(
        capsys, "chunk", str(KB), *argv, "--format", "langchain", "-o", str(out)
    )
    assert code == 2
    assert message in err and err.count("\n") == 1
    assert stdout == "" and list(tmp_path.iterdir()) == []


def test_an_unwritable_output_is_one_line(capsys, tmp_path: Path) -> None:
    target = tmp_path / "no such folder" / "chunks.csv"
    code, _, err = run_cli(capsys, "chunk", str(KB), "--format", "csv", "--output", str(target))
    assert code == 2
    assert err.count("\n") == 1 and f"cannot write {target}" in err
    assert list(tmp_path.iterdir()) == []


def test_a_folder_needs_a_format(capsys) -> None:
    code, _, err = run_cli(capsys, "chunk", str(SAMPLES))
    assert code == 2 and "a folder's chunks are written with --format" in err
