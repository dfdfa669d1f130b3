"""The peers as strategies: the libraries' own chunks, placed exactly, measured in our units."""

from __future__ import annotations

import sys

import pytest

from chunkers import STRATEGIES, chunk
from chunkers.registry import PEERS
from chunkers.text import count_units
from lab.inputs.samples import sample_names
from tests.support import SAMPLES, assert_spans_true, bounded, lost_characters

SETTINGS = [("chars", 400, 60), ("words", 60, 10), ("tokens", 90, 15)]
# -- a known limit, kept in sight: Chonkie's token windows end where a token ends, and
# -- a Chinese or Japanese character is often two or three tokens (its UTF-8 bytes).
# -- A window that starts with a character's later bytes is placed on whole characters,
# -- and counted again alone it is one token over the size.
_OVER = "a window cut inside a character, counted alone, is one token over the size"
CUT_INSIDE_A_CHARACTER = {"rust_variables_zh": _OVER, "rust_variables_ja": _OVER}


def sample(name: str) -> str:
    return (SAMPLES / f"{name}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("doc", sample_names())
@pytest.mark.parametrize("peer", list(PEERS))
@pytest.mark.parametrize("unit, size, overlap", SETTINGS, ids=["chars", "words", "tokens"])
def test_peer_chunks_are_exact_spans_within_the_size(doc, peer, unit, size, overlap):
    text = sample(doc)
    # -- the known limit: a token window cut inside a character keeps the character
    # -- whole, one token over the size (never more), and the tests say so
    cut_inside = (peer, unit) == ("chonkie-token", "tokens") and doc in CUT_INSIDE_A_CHARACTER
    chunks = chunk(text, peer, size, overlap, unit=unit)
    assert chunks
    assert_spans_true(text, chunks)
    assert lost_characters(text, chunks) == []
    over = []
    for c in chunks:
        assert c.length == count_units(c.body, unit)
        # what the library made (overlap and body together) stays within the size
        sent = count_units(c.retrievable_text, unit)
        assert sent <= size + cut_inside, CUT_INSIDE_A_CHARACTER.get(doc, "")
        over += [c.index] if sent > size else []
    assert bool(over) == cut_inside


def test_chonkie_recursive_is_chonkies_own_output():
    from chonkie import RecursiveChunker

    text = sample("release_handbook")
    own = [c.text for c in RecursiveChunker(chunk_size=400).chunk(text) if c.text.strip()]
    assert [c.retrievable_text for c in chunk(text, "chonkie-recursive", 400)] == own


def test_chonkie_token_is_chonkies_own_output():
    from chonkie import TokenChunker

    text = sample("support_kb")
    own = [c.text for c in TokenChunker(chunk_size=300, chunk_overlap=50).chunk(text)]
    assert [c.retrievable_text for c in chunk(text, "chonkie-token", 300, 50)] == own


def test_semchunk_is_semchunks_own_output_in_words():
    import semchunk

    text = sample("inspection_manual")
    own = semchunk.chunkerify(lambda s: len(s.split()), 60)(text, overlap=10)
    assert [c.retrievable_text for c in chunk(text, "semchunk", 60, 10, unit="words")] == own


# (in tokens: tests/chunkers/test_token_unit.py, on the token stream)
@pytest.mark.parametrize("unit, size, overlap", SETTINGS[:2], ids=["chars", "words"])
def test_chonkie_token_windows_are_exactly_the_size_with_the_overlap(unit, size, overlap):
    text = sample("api_reference")
    chunks = chunk(text, "chonkie-token", size, overlap, unit=unit)
    assert len(chunks) > 3
    for c in chunks[:-1]:
        assert count_units(c.retrievable_text, unit) == size
    for c in chunks[1:]:
        assert count_units(c.overlap_prefix, unit) == overlap


@pytest.mark.parametrize("peer", list(PEERS))
@pytest.mark.parametrize(
    "text",
    [
        "x" * 100_000,
        "a\r\nb c\r\n\r\nd " * 2000,
        "\U0001f469\u200d\U0001f4bb e\u0301 \u05e9\u05dc\u05d5\u05dd " * 2000,
        "word " * 20_000,
    ],
    ids=["100k no spaces", "CRLF", "ZWJ, combining, RTL", "one word repeated"],
)
def test_peers_survive_hostile_text(peer, text):
    for unit in ("chars", "words", "tokens"):
        with bounded():
            chunks = chunk(text, peer, 50, 10, unit=unit)
        assert_spans_true(text, chunks)
        assert lost_characters(text, chunks) == []


@pytest.mark.parametrize("peer", list(PEERS))
def test_whitespace_gives_no_chunks(peer):
    assert chunk(" \n\t ", peer, 50) == []


@pytest.mark.parametrize("peer", ["chonkie-recursive", "chonkie-token"])
def test_without_chonkie_the_strategy_says_how_to_install_it(monkeypatch, peer):
    monkeypatch.setitem(sys.modules, "chonkie", None)  # as if it were not installed
    with pytest.raises(ValueError) as exc:
        chunk("Some text to chunk.", peer, 50)
    assert str(exc.value) == (
        f"the {peer} strategy needs Chonkie, an optional extra: "
        "pip install 'chunk-lab[peers]' (or pip install chonkie)"
    )


def test_peers_are_named_apart_from_the_labs_own_strategies():
    assert not set(PEERS) & set(STRATEGIES)
    with pytest.raises(ValueError) as exc:
        chunk("text", "chonkie")
    assert str(exc.value) == (
        "strategy must be one of structural, fixed, sentence, recursive, "
        "chonkie-recursive, chonkie-token, semchunk, routed, faq, api, transcript, contract, "
        "got 'chonkie'"
    )
