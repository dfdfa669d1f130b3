"""The command line in tokens, and over chunks made elsewhere: `--unit tokens`,
`--tokenizer`, token configurations in `lab diff`, `check --chunks` and
`diff --b chunks:FILE`; every bad input exits 2 with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunkers import chunk
from lab.inputs.placement import import_chunk_file
from lab.measure.diff import parse_config
from tests.support import ROOT, SAMPLES, block_network, reference_encoding
from tests.support import run_cli as run

KB = str(SAMPLES / "support_kb.md")
KB_GOLD = str(SAMPLES / "support_kb.gold.jsonl")
KB_TEXT = (SAMPLES / "support_kb.md").read_text(encoding="utf-8")
SAMPLES_GOLD = str(ROOT / "tests" / "data" / "samples.gold.jsonl")


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    block_network(monkeypatch, "the command line's token tests")


def _jsonl(path: Path, rows) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


# -- the token unit -----------------------------------------------------------------


def test_chunk_in_tokens_counts_with_the_named_tokenizer(capsys):
    code, out, _ = run(
        capsys, "chunk", KB, "--unit", "tokens", "--tokenizer", "o200k_base", "--size", "128"
    )
    assert code == 0
    assert out.splitlines()[0].endswith("size 128 o200k_base tokens, overlap 0")
    code, out, _ = run(
        capsys, "chunk", KB, "--unit", "tokens", "--tokenizer", "o200k_base", "--size", "128",
        "--json",
    )  # fmt: skip
    enc = reference_encoding("o200k_base")
    chunks = json.loads(out)
    assert [c["length"] for c in chunks] == [len(enc.encode_ordinary(c["body"])) for c in chunks]
    assert max(c["length"] for c in chunks) <= 128 + 32 - 1


def test_survival_sweeps_sizes_in_tokens(capsys):
    answer = "Refunds are available within 30 days of purchase"
    code, out, _ = run(
        capsys, "survival", KB, "--answer", answer, "--strategy", "fixed", "--unit", "tokens",
        "--sizes", "8:64:8", "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["sizes"] == list(range(8, 65, 8))
    from lab.measure.survival import survival_curve

    assert (
        data["intact"]
        == survival_curve(KB_TEXT, answer, "fixed", data["sizes"], unit="tokens").intact
    )
    code, out, _ = run(capsys, "survival", KB, "--answer", answer, "--unit", "tokens")
    assert "(structural, cl100k_base tokens)" in out.splitlines()[0]


def test_check_in_tokens_names_the_tokenizer(capsys):
    code, out, _ = run(
        capsys, "check", KB, "--gold", KB_GOLD, "--unit", "tokens", "--size", "256",
        "--overlap", "32",
    )  # fmt: skip
    assert code == 0, out
    assert "size 256 cl100k_base tokens, overlap 32" in out.splitlines()[0]
    assert out.splitlines()[-1] == "PASS"


def test_a_peer_is_a_strategy_on_the_command_line(capsys):
    code, out, _ = run(
        capsys, "chunk", KB, "--strategy", "semchunk", "--unit", "tokens", "--size", "64"
    )
    assert code == 0
    assert "semchunk, size 64 cl100k_base tokens" in out.splitlines()[0]


@pytest.mark.parametrize(
    "spec",
    [
        "structural:tokens:512:50",
        "structural:tokens:512:50:o200k_base",
        "fixed:tokens:24:0",
        "semchunk:tokens:256:32:o200k_base",
        "structural:chars:1800:150",
        "sentence:words:120:20",
        "chunks:exports/my chunks.jsonl",
    ],
)
def test_a_configuration_round_trips(spec):
    assert str(parse_config(spec)) == spec


def test_the_default_tokenizer_is_not_written_out():
    config = parse_config("structural:tokens:512:50:cl100k_base")
    assert str(config) == "structural:tokens:512:50"
    assert config.options.tokenizer == "cl100k_base"


def test_a_tokenizer_json_path_with_colons_is_kept_whole(tmp_path):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator([KB_TEXT], trainers.BpeTrainer(vocab_size=200))
    folder = tmp_path / "models:v2"
    folder.mkdir()
    tok.save(str(folder / "tokenizer.json"))
    spec = f"structural:tokens:128:16:{folder / 'tokenizer.json'}"
    config = parse_config(spec)
    assert str(config) == spec and config.tokenizer == str(folder / "tokenizer.json")


def test_diff_compares_two_token_configurations(capsys):
    code, out, _ = run(
        capsys, "diff", KB, "--a", "structural:tokens:512:50", "--b",
        "fixed:tokens:512:50:o200k_base", "--gold", KB_GOLD, "--format", "json",
    )  # fmt: skip
    data = json.loads(out)
    assert data["a"]["config"] == "structural:tokens:512:50"
    assert data["b"]["config"] == "fixed:tokens:512:50:o200k_base"
    assert code in (0, 1)


# -- chunks made elsewhere ------------------------------------------------------------


def langchain_dump(tmp_path: Path) -> str:
    """A LangChain Document dump of a sample, made by LangChain's own splitter."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(
        chunk_size=400, chunk_overlap=60, add_start_index=True
    )
    docs = splitter.create_documents([KB_TEXT], metadatas=[{"source": "support_kb.md"}])
    return _jsonl(tmp_path / "langchain.jsonl", (d.model_dump() for d in docs))


def chonkie_dump(tmp_path: Path) -> str:
    """A Chonkie chunk dump of a sample, made by Chonkie's own chunker."""
    from chonkie import TokenChunker

    chunks = TokenChunker(chunk_size=120, chunk_overlap=20).chunk(KB_TEXT)
    return _jsonl(tmp_path / "chonkie.jsonl", (c.to_dict() for c in chunks))


@pytest.mark.parametrize("dump", [langchain_dump, chonkie_dump], ids=["langchain", "chonkie"])
def test_chunks_made_by_a_library_import_and_gate_through_check(tmp_path, capsys, dump):
    path = dump(tmp_path)
    code, out, err = run(capsys, "check", KB, "--gold", KB_GOLD, "--chunks", path)
    lines = out.splitlines()
    assert code in (0, 1), err
    assert f"(chunks:{path}, lengths in chars)" in lines[0]
    assert "runts: not judged" in out
    assert f"imported {path}: " in out and ", 0 not placed" in out
    assert lines[-1] == "PASS" or lines[-1].startswith("FAIL: ")
    code, out, _ = run(capsys, "check", KB, "--gold", KB_GOLD, "--chunks", path, "--json")
    data = json.loads(out)
    assert data["strategy"] == f"chunks:{path}"
    assert data["imported"]["unplaced"] == 0 and data["chunks"] == data["imported"]["chunks"]
    assert data["questions"] == len(KB_GOLD_LINES)
    # the gate says what the check says: an answer not intact in their chunks fails it
    assert data["passed"] == (data["chunk_does_not_exist"] == 0 and data["chunk_ranks_poorly"] == 0)


def test_a_folders_chunks_gate_through_check_each_in_the_document_its_row_names(tmp_path, capsys):
    # -- as LangChain's DirectoryLoader leaves them: an absolute path under "source",
    # -- from the machine that made them; documents of the same name are found here
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(chunk_size=500, chunk_overlap=0)
    names = sorted(p.name for p in SAMPLES.glob("*.md"))
    texts = [(SAMPLES / n).read_text(encoding="utf-8") for n in names]
    metas = [{"source": f"/home/ci/pipeline/docs/{n}"} for n in names]
    docs = splitter.create_documents(texts, metadatas=metas)
    path = _jsonl(tmp_path / "folder.jsonl", (d.model_dump() for d in docs))
    argv = ["check", str(SAMPLES), "--gold", SAMPLES_GOLD, "--chunks", path, "--json"]
    code, out, err = run(capsys, *argv)
    data = json.loads(out)
    assert code in (0, 1), err
    assert data["documents"] == len(names) == 13
    assert data["imported"]["chunks"] == data["chunks"] == len(docs)
    assert data["imported"]["unplaced"] == 0
    # each chunk was placed in its own document: the same chunks as one document at a time
    one = [
        len(import_chunk_file(_one(tmp_path, n, docs), t).chunks)
        for n, t in zip(names, texts, strict=True)
    ]
    assert sum(one) == len(docs)


def _one(tmp_path: Path, name: str, docs) -> str:
    mine = (d.model_dump() for d in docs if d.metadata["source"].endswith("/" + name))
    return _jsonl(tmp_path / f"{name}.jsonl", mine)


KB_GOLD_LINES = [ln for ln in Path(KB_GOLD).read_text(encoding="utf-8").splitlines() if ln.strip()]


def test_imported_chunks_measured_in_tokens_and_judged_at_a_size(tmp_path, capsys):
    ours = chunk(KB_TEXT, "fixed", 40, 0, unit="words")  # tiny chunks: some are runts at 256
    path = _jsonl(tmp_path / "mine.jsonl", ({"text": c.body} for c in ours))
    code, out, _ = run(
        capsys, "check", KB, "--gold", KB_GOLD, "--chunks", path, "--unit", "tokens",
        "--size", "256", "--json",
    )  # fmt: skip
    data = json.loads(out)
    enc = reference_encoding("cl100k_base")
    assert data["options"]["unit"] == "tokens"
    assert data["runts"]["floor"] == 64
    assert data["runts"]["below_floor"] == sum(len(enc.encode_ordinary(c.body)) < 64 for c in ours)


def test_imported_text_in_no_chunk_is_reported_with_row_numbers(tmp_path, capsys):
    paragraphs = [p for p in KB_TEXT.split("\n\n") if p.strip()]
    rows = [{"text": p} for p in paragraphs[:3]] + [{"text": "text from another document"}]
    path = _jsonl(tmp_path / "partial.jsonl", rows)
    code, out, _ = run(capsys, "check", KB, "--gold", KB_GOLD, "--chunks", path)
    assert code == 1
    assert "row 4: not placed: its text is not in the document" in out
    assert "are in no chunk" in out
    assert out.splitlines()[-1].startswith("FAIL: ")


def test_diff_against_chunks_made_elsewhere(tmp_path, capsys):
    path = langchain_dump(tmp_path)
    code, out, _ = run(
        capsys, "diff", KB, "--a", "structural:chars:1800:150", "--b", f"chunks:{path}",
        "--gold", KB_GOLD, "--format", "json",
    )  # fmt: skip
    data = json.loads(out)
    assert data["b"]["config"] == f"chunks:{path}"
    assert data["b"]["sizes"]["count"] > data["a"]["sizes"]["count"]  # 400-char pieces
    assert code in (0, 1)
    code, out, _ = run(
        capsys, "diff", KB, "--a", "structural:tokens:512:50", "--b", f"chunks:{path}",
        "--format", "json",
    )  # fmt: skip
    enc = reference_encoding("cl100k_base")
    longest = max(len(enc.encode_ordinary(c["page_content"])) for c in map(json.loads, open(path)))
    assert json.loads(out)["b"]["sizes"]["max"] <= longest  # measured in A's unit: tokens


# -- bad input: one line, exit 2 ------------------------------------------------------------


def _bad_files(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "bad_tokenizer.json").write_text('{"model": ', encoding="utf-8")
    (tmp_path / "no_text.jsonl").write_text('{"body": "x", "start": 0}\n', encoding="utf-8")
    (tmp_path / "long.jsonl").write_text(json.dumps({"text": KB_TEXT * 2}) + "\n", "utf-8")
    (tmp_path / "latin1.csv").write_bytes("text\nCaf\xe9 cr\xe8me\n".encode("latin-1"))
    (tmp_path / "elsewhere.jsonl").write_text('{"text": "not in it"}\n', encoding="utf-8")
    row = {"page_content": "x", "metadata": {"source": "notes/todo.md"}}
    (tmp_path / "other_folder.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    return {p.name: str(p) for p in tmp_path.iterdir()}


@pytest.mark.parametrize(
    "argv, says",
    [
        (["chunk", KB, "--unit", "tokens", "--tokenizer", "gpt-9"], "unknown tokenizer 'gpt-9'"),
        (
            ["chunk", KB, "--unit", "tokens", "--tokenizer", "{bad_tokenizer.json}"],
            "is not a Hugging Face tokenizer.json",
        ),
        (["chunk", KB, "--tokenizer", "o200k_base"], "add --unit tokens"),
        (["check", KB, "--gold", KB_GOLD, "--chunks", "{no_text.jsonl}"], "no chunk text"),
        (["check", KB, "--gold", KB_GOLD, "--chunks", "{long.jsonl}"], "longer than the document"),
        (["check", KB, "--gold", KB_GOLD, "--chunks", "{latin1.csv}"], "is not UTF-8"),
        (["check", KB, "--gold", KB_GOLD, "--chunks", "{elsewhere.jsonl}"], "none of its chunks"),
        (["check", KB, "--gold", KB_GOLD, "--chunks", "missing.jsonl"], "cannot be read"),
        (
            ["check", str(SAMPLES), "--gold", SAMPLES_GOLD, "--chunks", "{elsewhere.jsonl}"],
            "row 1: says no document (metadata source, file_path, file_name)",
        ),
        (
            ["check", str(SAMPLES), "--gold", SAMPLES_GOLD, "--chunks", "{other_folder.jsonl}"],
            "row 1: its document 'notes/todo.md' is none of the 13 in this folder",
        ),
        (
            ["diff", KB, "--a", "structural:tokens:512:50:gpt-9", "--b", "fixed:chars:100:0"],
            "unknown tokenizer 'gpt-9'",
        ),
        (
            ["diff", KB, "--a", "structural:words:512:50:o200k_base", "--b", "fixed:chars:1:0"],
            "applies only to the unit tokens",
        ),
        (
            ["diff", KB, "--a", "structural:chars:1800:0", "--b", "chunks:{no_text.jsonl}"],
            "no chunk text",
        ),
    ],
)
def test_bad_input_is_one_line_naming_the_fix(tmp_path, capsys, argv, says):
    files = _bad_files(tmp_path)
    for name, path in files.items():
        argv = [a.replace("{" + name + "}", path) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert says in err
