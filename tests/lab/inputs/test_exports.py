import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkers import STRATEGIES, ChunkOptions, chunk_with
from lab.inputs.documents import read_document
from lab.inputs.exports import ExportError, chunking_config, from_csv, from_jsonl, to_csv, to_jsonl
from lab.inputs.samples import sample_names
from tests.support import SAMPLES


@pytest.mark.parametrize("doc", sample_names())
@pytest.mark.parametrize("strategy", list(STRATEGIES))
@pytest.mark.parametrize(
    "opts",
    [
        ChunkOptions(size=600, overlap=100, unit="chars"),
        ChunkOptions(size=24, overlap=0, unit="words"),
        ChunkOptions(size=128, overlap=16, unit="tokens", tokenizer="o200k_base"),
    ],
    ids=["chars", "words", "tokens"],
)
def test_round_trip_gives_the_same_chunks_and_config(doc, strategy, opts):
    text = read_document(SAMPLES / f"{doc}.md").text
    chunks = chunk_with(text, strategy, opts)
    cfg = chunking_config(f"{doc}.md", text, strategy, opts)
    assert from_jsonl(to_jsonl(chunks, cfg)) == (cfg, chunks)
    assert from_csv(to_csv(chunks, cfg)) == (cfg, chunks)
    assert all(text[c.start : c.end] == c.body or c.header_repeated for c in chunks)


def test_the_config_names_the_tokenizer_only_in_tokens():
    text = read_document(SAMPLES / "support_kb.md").text
    tokens = ChunkOptions(size=512, overlap=50, unit="tokens", tokenizer="o200k_base")
    cfg = chunking_config("support_kb.md", text, "structural", tokens)
    assert (cfg["unit"], cfg["size"], cfg["overlap"], cfg["tokenizer"]) == (
        "tokens",
        512,
        50,
        "o200k_base",
    )
    words = chunking_config("support_kb.md", text, "structural", ChunkOptions(24, 0, "words"))
    assert words["unit"] == "words" and "tokenizer" not in words


HOSTILE = (
    '# T\u2028itle\ud800\x85\r\n\r\nNUL\x00 here, "quoted", a\tb;\x1c\x1d\u2029 =SUM(A1) \ufeff'
    "\r| a | b |\n|---|---|\n| <script>x</script> | \U0001f469\u200d\U0001f4bb |\n\n" * 20
)


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_round_trip_keeps_line_separators_controls_and_quotes(strategy):
    opts = ChunkOptions(size=12, overlap=3, unit="words")
    chunks = chunk_with(HOSTILE, strategy, opts)
    cfg = chunking_config("hostile.md", HOSTILE, strategy, opts)
    assert len(chunks) > 5
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


@pytest.mark.parametrize(
    "text",
    [
        "nope",
        '{"chunk": {}}',
        '{"config": {}, "chunk": {"index": 0}}',
        '{"config": {}, "chunk": {"index": 0, "body": "", "start": 0, "end": 0, '
        '"length": 0, "evil": 1}}',
    ],
)
def test_bad_jsonl_is_a_one_line_error(text):
    with pytest.raises(ExportError) as e:
        from_jsonl(text)
    assert "\n" not in str(e.value)


def test_bad_csv_is_a_one_line_error():
    with pytest.raises(ExportError):
        from_csv("a,b\n1,2\n")


@settings(max_examples=60, deadline=None)
@given(
    st.text(st.characters(codec=None, blacklist_categories=()), max_size=300),
    st.sampled_from(list(STRATEGIES)),
)
def test_round_trip_of_any_text(text, strategy):
    opts = ChunkOptions(size=5, overlap=1, unit="words")
    chunks = chunk_with(text, strategy, opts)
    cfg = chunking_config("any.md", text, strategy, opts)
    want = (cfg if chunks else {}, chunks)  # the configuration travels on each chunk's line
    assert from_jsonl(to_jsonl(chunks, cfg)) == want
    assert from_csv(to_csv(chunks, cfg)) == want


def test_a_chunk_that_spans_pages_keeps_its_last_page():
    prose = "The audit store keeps access logs for four hundred days before archiving them. "
    text = (
        "## Page 3\n\n"
        + prose * 50
        + "\n\n## Page 4\n\nMumbai FY24 revenue was 18,412 crores.\n\n## Page 5\n\n"
        + prose * 55
    )
    opts = ChunkOptions()
    chunks = chunk_with(text, "structural", opts)
    assert [(c.page, c.last_page) for c in chunks if c.last_page != c.page] == [(3, 4)]
    cfg = chunking_config("pages.md", text, "structural", opts)
    for write, read in ((to_jsonl, from_jsonl), (to_csv, from_csv)):
        assert read(write(chunks, cfg)) == (cfg, chunks)
