import json
from pathlib import Path

import pytest

from chunkers import STRATEGIES, ChunkOptions, chunk_with
from lab.exports import ExportError, chunking_config, from_csv, from_jsonl, to_csv, to_jsonl

SAMPLES = Path(__file__).resolve().parents[2] / "sample_docs"


@pytest.mark.parametrize("doc", ["compute_pricing", "inspection_manual", "regional_revenue"])
@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_round_trip_gives_the_same_chunks_and_config(doc, strategy):
    text = (SAMPLES / f"{doc}.md").read_text()
    opts = ChunkOptions(size=600, overlap=100, unit="chars")
    chunks = chunk_with(text, strategy, opts)
    cfg = chunking_config(f"{doc}.md", text, strategy, opts)
    assert from_jsonl(to_jsonl(chunks, cfg)) == (cfg, chunks)
    assert from_csv(to_csv(chunks, cfg)) == (cfg, chunks)


def test_config_travels_on_every_line():
    text = "Alpha beta gamma. Delta epsilon zeta.\r\nEta theta."
    opts = ChunkOptions(size=3, overlap=1, unit="words")
    chunks = chunk_with(text, "fixed", opts)
    cfg = chunking_config("t.md", text, "fixed", opts)
    lines = to_jsonl(chunks, cfg).splitlines()
    assert len(lines) == len(chunks)
    assert all(json.loads(line)["config"]["size"] == 3 for line in lines)
    assert cfg["unit"] == "words" and len(cfg["document_sha256"]) == 64
    assert from_csv(to_csv(chunks, cfg))[1] == chunks  # CRLF inside bodies survives CSV


@pytest.mark.parametrize("text", ["nope", '{"chunk": {}}', '{"config": {}, "chunk": {"index": 0}}',
                                  '{"config": {}, "chunk": {"index": 0, "body": "", "start": 0, "end": 0, '
                                  '"length": 0, "evil": 1}}'])
def test_bad_jsonl_is_a_one_line_error(text):
    with pytest.raises(ExportError) as e:
        from_jsonl(text)
    assert "\n" not in str(e.value)


def test_bad_csv_is_a_one_line_error():
    with pytest.raises(ExportError):
        from_csv("a,b\n1,2\n")
