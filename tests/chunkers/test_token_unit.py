"""The token unit in every strategy, held to an independent count.

The reference is stock tiktoken, loaded with the network off
(tests.support.reference_encoding); every test here runs with the network off
too. Chunk lengths are the reference's count of the body (a repeated table
header included), fixed windows are exactly ``size`` tokens of the reference's
own token stream, and the structural chunker's limits hold in the reference's
counts.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkers import STRATEGIES, ChunkOptions, chunk, chunk_parsed, parse
from chunkers.options import Unit
from chunkers.registry import PEERS
from chunkers.scripts import is_word_seam
from chunkers.tokens import DEFAULT_TOKENIZER, OPENAI_ENCODINGS
from tests.chunkers.invariants import over_max_breaks, runt_breaks
from tests.chunkers.test_properties import documents
from tests.support import (
    SAMPLES,
    assert_spans_true,
    block_network,
    corpus_files,
    lost_characters,
    reference_encoding,
)

CONFIGS = [(512, 50), (128, 16)]
SAMPLE_TEXTS = {p.stem: p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.md"))}


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    block_network(monkeypatch, "the token unit's tests")


def counter(name: str = DEFAULT_TOKENIZER):
    """The reference's count of a text."""
    enc = reference_encoding(name)
    return lambda text: len(enc.encode_ordinary(text))


def stream_starts(text: str, name: str = DEFAULT_TOKENIZER) -> list[int]:
    """Where each of the reference's tokens of ``text`` starts, in characters: a
    token that begins inside a character (its later UTF-8 bytes) starts after it."""
    enc = reference_encoding(name)
    data = text.encode("utf-8")
    starts, at = [], 0
    for token in enc.encode_ordinary(text):
        starts.append(sum(1 for b in data[:at] if b & 0xC0 != 0x80))
        at += len(enc.decode_single_token_bytes(token))
    return starts


def tokens_at(text: str, name: str = DEFAULT_TOKENIZER) -> dict[int, list[int]]:
    """The reference's tokens by where they start (the end of the text: one past the last)."""
    starts = stream_starts(text, name)
    at: dict[int, list[int]] = {}
    for i, s in enumerate(starts):
        at.setdefault(s, []).append(i)
    at.setdefault(len(text), []).append(len(starts))
    return at


# -- lengths ---------------------------------------------------------------------


@pytest.mark.parametrize("name", OPENAI_ENCODINGS)
@pytest.mark.parametrize("strategy", [*STRATEGIES, *PEERS])
def test_every_length_is_the_reference_count_of_the_body(strategy, name):
    count = counter(name)
    for doc, text in SAMPLE_TEXTS.items():
        for size, overlap in CONFIGS:
            chunks = chunk(text, strategy, size, overlap, unit="tokens", tokenizer=name)
            assert chunks, doc
            assert_spans_true(text, chunks)
            assert lost_characters(text, chunks) == []
            assert [c.length for c in chunks] == [count(c.body) for c in chunks], doc


def test_a_repeated_table_header_counts_in_the_length():
    rows = "\n".join(f"| region {i} | {i * 1204} EUR |" for i in range(200))
    text = f"# Revenue\n\n| region | revenue |\n|---|---:|\n{rows}\n"
    opts = ChunkOptions.sized(128, 0, unit="tokens")
    chunks = chunk(text, "structural", 128, 0, unit="tokens")
    repeated = [c for c in chunks if c.header_repeated]
    assert repeated
    count = counter()
    for c in repeated:
        assert c.body.startswith("| region | revenue |\n|---|---:|\n")
        assert c.length == count(c.body) > count(text[c.start : c.end])
        assert c.length <= opts.effective_max


# -- the structural chunker's limits -----------------------------------------------


def structural_breaks(text: str, size: int, overlap: int, name: str) -> list[str]:
    opts = ChunkOptions(size=size, overlap=overlap, unit="tokens", tokenizer=name)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    chunks = chunk(text, "structural", size, overlap, unit="tokens", tokenizer=name)
    count = counter(name)
    breaks = over_max_breaks(chunks, opts, count) + runt_breaks(chunks, opts, count)
    for c in chunks:
        if c.overlap_prefix:  # whole words, within the overlap
            if count(c.overlap_prefix) > overlap:
                breaks.append(f"chunk {c.index}: overlap of {count(c.overlap_prefix)} tokens")
            # (a word starts after whitespace, or between two ideographs)
            if c.overlap_start and not is_word_seam(text, c.overlap_start):
                breaks.append(f"chunk {c.index}: overlap starts inside a word")
    return breaks


@pytest.mark.parametrize("name", OPENAI_ENCODINGS)
@pytest.mark.parametrize("size, overlap", CONFIGS)
def test_structural_limits_hold_in_tokens_on_the_samples(size, overlap, name):
    failures = [
        f"{doc}: {b}"
        for doc, text in SAMPLE_TEXTS.items()
        for b in structural_breaks(text, size, overlap, name)
    ]
    assert failures == []


@pytest.mark.corpus
@pytest.mark.parametrize("name", OPENAI_ENCODINGS)
@pytest.mark.parametrize("size, overlap", CONFIGS)
def test_structural_limits_hold_in_tokens_on_the_corpus(size, overlap, name):
    """No chunk passes the effective maximum (by the reference's count) unless an
    unsplittable unit holds it up; no runt without an excuse; overlap in whole words."""
    failures = []
    for path in corpus_files():
        text = path.read_text(encoding="utf-8")
        failures += [f"{path.name}: {b}" for b in structural_breaks(text, size, overlap, name)]
    assert failures == []


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    documents(),
    st.integers(1, 300),
    st.floats(0, 0.5),
    st.sampled_from(OPENAI_ENCODINGS),
)
def test_structural_limits_hold_in_tokens_on_generated_markdown(text, size, frac, name):
    assert structural_breaks(text, size, min(size - 1, int(size * frac)), name) == []


# -- fixed windows -------------------------------------------------------------------


@pytest.mark.parametrize("name", OPENAI_ENCODINGS)
@pytest.mark.parametrize("size, overlap", [(512, 50), (100, 0), (37, 36), (64, 16)])
def test_fixed_windows_are_exactly_the_size_with_the_overlap(size, overlap, name):
    """Every window but the last is ``size`` tokens of the reference's token stream,
    its prefix exactly ``overlap``, cut where those tokens start."""
    for doc, text in SAMPLE_TEXTS.items():
        at = tokens_at(text, name)
        chunks = chunk(text, "fixed", size, overlap, unit="tokens", tokenizer=name)
        assert_spans_true(text, chunks)
        assert lost_characters(text, chunks) == [], doc  # (a window of whitespace is skipped)
        for c in chunks:
            begin = c.overlap_start if c.overlap_prefix else c.start
            assert c.retrievable_text == text[begin : c.end]
            # a token of a character's later bytes starts where the next one does:
            # a cut there falls before or after it
            assert any(
                (c is chunks[-1] or first + size in at[c.end])
                and (not c.overlap_prefix or first + overlap in at[c.start])
                for first in at[begin]
            ), (doc, c.index)


def test_fixed_windows_of_tokens_cut_inside_words_and_characters():
    text = "\U0001f469\u200d\U0001f4bb naïve café 東京都の監査ログ " * 40
    chunks = chunk(text, "fixed", 7, 3, unit="tokens")
    assert "".join(c.body for c in chunks) == text
    # a window's text is its tokens' text, joined with nothing: a word cut at a
    # window's edge is whole in the window after it
    assert all(c.retrievable_text == text[c.overlap_start : c.end] for c in chunks[1:])


# -- sentence and the peers --------------------------------------------------------


@pytest.mark.parametrize("name", OPENAI_ENCODINGS)
@pytest.mark.parametrize("size, overlap", [*CONFIGS, (24, 6)])
def test_sentence_chunks_never_pass_the_size_in_tokens(size, overlap, name):
    count = counter(name)
    for doc, text in SAMPLE_TEXTS.items():
        for c in chunk(text, "sentence", size, overlap, unit="tokens", tokenizer=name):
            assert count(c.body) <= size, (doc, c.index)
            assert count(c.overlap_prefix) <= overlap, (doc, c.index)


@pytest.mark.parametrize("size, overlap", CONFIGS)
def test_chonkie_token_windows_are_exactly_the_size_in_tokens(size, overlap):
    text = SAMPLE_TEXTS["api_reference"]
    at = tokens_at(text)
    ours = chunk(text, "fixed", size, overlap, unit="tokens")
    theirs = chunk(text, "chonkie-token", size, overlap, unit="tokens")
    assert len(theirs) > 1
    for c in theirs[:-1]:
        first = at[c.overlap_start if c.overlap_prefix else c.start][0]
        assert first + size in at[c.end]
    assert [c.retrievable_text for c in theirs] == [c.retrievable_text for c in ours]


def test_recursive_in_tokens_is_langchains_tiktoken_splitter():
    """The recursive strategy in tokens makes what a pipeline configured with
    from_tiktoken_encoder makes (tiktoken itself, its tables loaded offline)."""
    from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

    reference_encoding("o200k_base")  # tiktoken keeps it: from_tiktoken_encoder finds it
    splitter = RecursiveCharacterTextSplitter.from_tiktoken_encoder(
        encoding_name="o200k_base",
        chunk_size=128,
        chunk_overlap=16,
        separators=RecursiveCharacterTextSplitter.get_separators_for_language(Language.MARKDOWN),
        is_separator_regex=True,  # as from_language(Language.MARKDOWN) sets it
    )
    for text in SAMPLE_TEXTS.values():
        ours = chunk(text, "recursive", 128, 16, unit="tokens", tokenizer="o200k_base")
        theirs = splitter.split_text(text)
        assert [c.retrievable_text for c in ours] == theirs


def test_semchunk_in_tokens_is_semchunk_counting_with_tiktoken():
    import semchunk

    own = semchunk.chunkerify(reference_encoding(DEFAULT_TOKENIZER), 128)
    for text in SAMPLE_TEXTS.values():
        ours = chunk(text, "semchunk", 128, 16, unit="tokens")
        assert [c.retrievable_text for c in ours] == own(text, overlap=16)


def test_a_hugging_face_tokenizer_json_measures_every_strategy(tmp_path):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(
        vocab_size=300, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tok.train_from_iterator(list(SAMPLE_TEXTS.values()), trainer)
    path = str(tmp_path / "tokenizer.json")
    tok.save(path)
    text = SAMPLE_TEXTS["support_kb"]
    for strategy in STRATEGIES:
        chunks = chunk(text, strategy, 200, 20, unit="tokens", tokenizer=path)
        assert_spans_true(text, chunks)
        assert [c.length for c in chunks] == [
            len(tok.encode(c.body, add_special_tokens=False).ids) for c in chunks
        ]


# -- options and sweeps ----------------------------------------------------------------


def test_the_tokenizer_is_named_in_the_options_and_checked_in_one_line():
    opts = ChunkOptions(size=512, overlap=50, unit="tokens", tokenizer="o200k_base")
    assert opts.counter is not None and opts.counter.name == "o200k_base"
    assert (opts.floor, opts.overflow_limit, opts.effective_max) == (128, 640, 639)
    assert ChunkOptions(size=512, unit="tokens") == ChunkOptions(
        size=512, unit="tokens", tokenizer="cl100k_base"
    )
    assert ChunkOptions(size=512).counter is None
    with pytest.raises(ValueError) as exc:
        ChunkOptions(size=512, unit="tokens", tokenizer="gpt-9")
    assert "\n" not in str(exc.value) and "unknown tokenizer 'gpt-9'" in str(exc.value)
    with pytest.raises(ValueError, match="applies only to the unit tokens"):
        ChunkOptions(size=512, unit="words", tokenizer="o200k_base")


def test_a_sweep_packs_every_size_from_one_parse_as_chunking_does():
    text = SAMPLE_TEXTS["inspection_manual"]
    doc = parse(text)
    for size in (40, 96, 300, 1000):
        opts = ChunkOptions(size=size, overlap=size // 10, unit="tokens")
        assert chunk_parsed(doc, opts) == chunk(text, "structural", size, size // 10, unit="tokens")


@pytest.mark.parametrize(
    ("name", "base", "tokenizer"),
    [
        ("words", "words", DEFAULT_TOKENIZER),
        ("chars", "chars", DEFAULT_TOKENIZER),
        ("o200k_base tokens", "tokens", "o200k_base"),
        ("tokens", "tokens", DEFAULT_TOKENIZER),  # no tokenizer named: the default's
    ],
)
def test_a_unit_reads_back_from_the_name_it_is_shown_by(name, base, tokenizer):
    unit = Unit.named(name)
    assert (unit.base, unit.tokenizer) == (base, tokenizer)
    assert Unit.named(str(unit)) == unit
    assert str(unit) == (f"{DEFAULT_TOKENIZER} tokens" if name == "tokens" else name)
