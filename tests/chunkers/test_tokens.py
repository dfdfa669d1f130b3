"""The token unit's tokenizers: exact counts, exact offsets, offline, one-line refusals.

The reference is stock tiktoken, run with the network off
(tests.support.reference_encoding).
"""

from __future__ import annotations

import json
import socket

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkers.tokens import (
    DEFAULT_TOKENIZER,
    OPENAI_ENCODINGS,
    HuggingFaceTokenizer,
    OpenAIEncoding,
    tokenizer_for,
)
from tests.support import SAMPLES, block_network, corpus_files, reference_encoding

# a fixed text with what trips tokenizers: accents, CJK, emoji and ZWJ sequences,
# combining marks, digits, code, long whitespace, CRLF, special-token text
FIXED = (
    "# Résumé of the 2024 audit\r\n\r\n"
    "Die Prüfung ergab 18,412 Einträge; 東京都の監査ログ。 \U0001f469\u200d\U0001f4bb 🚀🚀\n"
    "e\u0301 n\u0303 \u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627\n\n"
    "```python\ndef f(x):\n    return x ** 2  # 12345678901234\n```\n"
    "| region | revenue |\n|---|---:|\n| EMEA | 1,204.50 |\n"
    "Text with <|endoftext|> and <|fim_prefix|> inside, and     many    spaces.\t\t\n"
    "don't won't I'll we've they're HELLO World's\n" * 3
)


@pytest.fixture
def offline(monkeypatch):
    block_network(monkeypatch, "the tokenizer tests")


@pytest.fixture
def reference(offline):
    """Stock tiktoken's encoding by name, offline."""
    return reference_encoding


def tiles(text: str, name: str = DEFAULT_TOKENIZER) -> list[str]:
    starts, ends = tokenizer_for(name).offsets(text)
    return [text[a:b] for a, b in zip(starts.tolist(), ends.tolist(), strict=True)]


# -- counts ----------------------------------------------------------------------


@pytest.mark.parametrize("name", OPENAI_ENCODINGS)
def test_counts_equal_tiktoken_with_the_network_off(reference, name):
    with pytest.raises(OSError, match="no network in the tokenizer tests"):
        socket.create_connection(("127.0.0.1", 9), timeout=1)
    ref = reference(name)
    ours = OpenAIEncoding(name)  # loaded here, with the network off
    assert ours.count(FIXED) == len(ref.encode_ordinary(FIXED))
    lines = FIXED.splitlines(keepends=True)
    assert ours.count_many(lines) == [len(ref.encode_ordinary(s)) for s in lines]


@pytest.mark.parametrize("name", OPENAI_ENCODINGS)
def test_counts_equal_tiktoken_on_every_sample(reference, name):
    ref, ours = reference(name), tokenizer_for(name)
    texts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.md"))]
    assert ours.count_many(texts) == [len(ref.encode_ordinary(t)) for t in texts]


@pytest.mark.corpus
def test_counts_equal_tiktoken_on_the_corpus(reference):
    ref, ours = reference(DEFAULT_TOKENIZER), tokenizer_for()
    texts = [p.read_text(encoding="utf-8") for p in corpus_files()]
    assert ours.count_many(texts) == [len(ref.encode_ordinary(t)) for t in texts]


def test_the_two_encodings_differ():
    # o200k_base has a larger vocabulary: CJK text takes fewer tokens than in cl100k_base
    cjk = "東京都の監査ログは九十日間保存されます。" * 10
    counts = {n: tokenizer_for(n).count(cjk) for n in OPENAI_ENCODINGS}
    assert counts["o200k_base"] < counts["cl100k_base"]
    assert [tokenizer_for(n).name for n in OPENAI_ENCODINGS] == list(OPENAI_ENCODINGS)


def test_a_lone_surrogate_counts_as_a_replacement_character(reference):
    ref = reference(DEFAULT_TOKENIZER)
    text = "caf\udce9 au lait"  # a lossy decode's leftover
    assert tokenizer_for().count(text) == len(ref.encode_ordinary(text))
    assert "".join(tiles(text)) == text


# -- offsets ---------------------------------------------------------------------


@pytest.mark.parametrize("name", OPENAI_ENCODINGS)
def test_offsets_tile_the_text_token_by_token(reference, name):
    parts = tiles(FIXED, name)
    assert "".join(parts) == FIXED
    assert len(parts) == len(reference(name).encode_ordinary(FIXED))


@pytest.mark.parametrize("name", OPENAI_ENCODINGS)
def test_offsets_are_the_tokens_own_bytes(reference, name):
    """Where a token starts on a character boundary, the text before it is exactly
    the bytes of the tokens before it (no token is decoded and searched for)."""
    ref = reference(name)
    ids = ref.encode_ordinary(FIXED)
    starts, _ = tokenizer_for(name).offsets(FIXED)
    data = FIXED.encode("utf-8")
    done = 0
    boundaries = 0
    for i, tid in enumerate(ids):
        if done == len(data) or (data[done] & 0xC0) != 0x80:  # a character begins here
            assert FIXED[: starts[i]].encode("utf-8") == data[:done]
            boundaries += 1
        done += len(ref.decode_single_token_bytes(tid))
    assert boundaries < len(ids)  # the text has tokens that split a character


def test_a_split_character_belongs_to_the_token_with_its_first_byte(reference):
    ref = reference(DEFAULT_TOKENIZER)
    text = "🚀 x"  # the rocket's four bytes are three tokens in cl100k_base
    pieces = [ref.decode_single_token_bytes(t) for t in ref.encode_ordinary(text)]
    assert pieces == [b"\xf0\x9f", b"\x9a", b"\x80", b" x"]
    assert tiles(text) == ["🚀", "", "", " x"]


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_offsets_tile_any_text(text):
    parts = tiles(text)
    assert "".join(parts) == text
    assert len(parts) == tokenizer_for().count(text)


def test_empty_text_has_no_tokens():
    starts, ends = tokenizer_for().offsets("")
    assert len(starts) == len(ends) == tokenizer_for().count("") == 0
    assert tokenizer_for().count_many([]) == []


# -- a Hugging Face tokenizer.json ------------------------------------------------


def _byte_level_bpe(path, *, truncate: int | None = None):
    """A small byte-level BPE tokenizer.json, trained here (no download)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=["<s>", "</s>"],
    )
    tok.train_from_iterator([FIXED] * 20, trainer)
    if truncate:
        tok.enable_truncation(max_length=truncate)
    tok.save(str(path))
    return tok


def test_a_tokenizer_json_counts_and_tiles(tmp_path):
    path = tmp_path / "tokenizer.json"
    own = _byte_level_bpe(path)
    tok = tokenizer_for(str(path))
    assert isinstance(tok, HuggingFaceTokenizer) and tok.name == str(path)
    assert tok.count(FIXED) == len(own.encode(FIXED, add_special_tokens=False).ids)
    parts = tiles(FIXED, str(path))
    assert "".join(parts) == FIXED and len(parts) == tok.count(FIXED)
    assert tok.count_many(["a b", "", "héllo"]) == [tok.count(t) for t in ("a b", "", "héllo")]


def test_a_tokenizer_json_counts_the_whole_text_whatever_it_was_saved_with(tmp_path):
    path = tmp_path / "tokenizer.json"
    _byte_level_bpe(path, truncate=4)
    tok = tokenizer_for(str(path))
    assert tok.count(FIXED) > 100  # its saved truncation to 4 tokens is not applied
    # a special token's text is counted as the text it is
    assert tok.count("<s>") == tok.count("<") + tok.count("s") + tok.count(">")


def test_a_folder_holding_tokenizer_json_is_accepted(tmp_path):
    _byte_level_bpe(tmp_path / "tokenizer.json")
    assert tokenizer_for(str(tmp_path)).count("hello world") >= 2


def test_a_tokenizer_is_loaded_once_and_again_when_its_file_changes(tmp_path):
    assert tokenizer_for("cl100k_base") is tokenizer_for("cl100k_base")
    path = tmp_path / "tokenizer.json"
    _byte_level_bpe(path)
    first = tokenizer_for(str(path))
    assert tokenizer_for(str(path)) is first
    data = json.loads(path.read_text(encoding="utf-8"))
    data["pre_tokenizer"] = {"type": "Whitespace"}  # spaces are no longer tokens
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    again = tokenizer_for(str(path))
    assert again is not first and again.count("a  b") < first.count("a  b")


# -- bad input -------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, says",
    [
        ("cl100k", "unknown tokenizer 'cl100k'; use cl100k_base or o200k_base"),
        ("gpt2", "unknown tokenizer 'gpt2'"),
        ("models/missing/tokenizer.json", "no such file 'models/missing/tokenizer.json'"),
        ("", "tokenizer must be a name or a path"),
    ],
)
def test_an_unknown_tokenizer_is_one_line(name, says):
    with pytest.raises(ValueError) as exc:
        tokenizer_for(name)
    message = str(exc.value)
    assert says in message and "\n" not in message
    assert "tokenizer.json" in message


@pytest.mark.parametrize(
    "content",
    ['{"version": "1.0", "model": ', '{"not": "a tokenizer"}', "\x00\x01binary", ""],
    ids=["cut short", "other json", "binary", "empty"],
)
def test_a_tokenizer_json_that_does_not_parse_is_one_line(tmp_path, content):
    path = tmp_path / "tokenizer.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError) as exc:
        tokenizer_for(str(path))
    message = str(exc.value)
    assert message.startswith(f"{path} is not a Hugging Face tokenizer.json (")
    assert "\n" not in message and "tokenizer.save" in message
