"""Published figures as oracles: each number the source articles state about chunking."""

from __future__ import annotations

import pytest
from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

from chunkers import STRATEGIES, ChunkOptions, chunk, merge_runt_lengths
from tests.support import AUDIT, PLATFORM, SAMPLES

LOTTERY_TABLE = {
    22: True,
    24: False,
    26: True,
    28: True,
    30: False,
    32: False,
    **{s: True for s in range(34, 45, 2)},
    46: False,
    48: False,
    50: False,
    **{s: True for s in range(52, 89, 2)},
}
# The article's "52+" holds up to 88 words. The answer occupies words 89-100, so a
# single boundary at 89..100 cuts it again: the lottery does not end at 52.
BEYOND_THE_TABLE = {**{s: False for s in range(89, 101)}, 101: True, 150: True, 192: True}


@pytest.fixture(scope="module")
def platform() -> str:
    return PLATFORM


def test_lottery_article_document_is_192_words(platform: str) -> None:
    assert len(platform.split()) == 192
    assert len(chunk(platform, "fixed", 24, unit="words")) == 8  # "chunks: 8 from 192 words"


@pytest.mark.parametrize("size,intact", sorted(LOTTERY_TABLE.items()))
def test_lottery_article_survival_table(platform: str, size: int, intact: bool) -> None:
    chunks = chunk(platform, "fixed", size, 0, unit="words")
    assert any(AUDIT in c.body for c in chunks) is intact


@pytest.mark.parametrize("size,intact", sorted(BEYOND_THE_TABLE.items()))
def test_lottery_goes_on_past_the_published_table(platform: str, size: int, intact: bool) -> None:
    chunks = chunk(platform, "fixed", size, 0, unit="words")
    assert any(AUDIT in c.body for c in chunks) is intact


def test_lottery_article_widget_first_chunk(platform: str) -> None:
    # the widget's chunk #2 ("Object storage holds ... Backups of") and #3
    chunks = chunk(platform, "fixed", 24, unit="words")
    assert chunks[1].body.startswith("Object storage holds user uploads")
    assert chunks[1].body.endswith("cannot modify. Backups of")
    assert chunks[3].body.endswith("Audit logs are retained for four hundred days")
    assert chunks[4].body.startswith("to satisfy the compliance requirement")
    assert [c.length for c in chunks] == [24] * 8


def test_backward_merge_textbook_examples() -> None:
    assert merge_runt_lengths([1800, 1800, 300, 200], 1800) == [1800, 1800, 500]
    assert merge_runt_lengths([1800, 1800, 300, 200], 1800, "forward") == [1800, 2100, 200]
    assert merge_runt_lengths([1800, 100, 100], 1800) == [2000]
    assert merge_runt_lengths([80], 1800) == [80]
    assert merge_runt_lengths([1800, 1800, 300, 200], 1800, "off") == [1800, 1800, 300, 200]


def test_floor_and_effective_max_chunker_spec() -> None:
    opts = ChunkOptions()
    assert (opts.size, opts.overlap, opts.unit) == (1800, 150, "chars")
    assert opts.floor == 450
    assert opts.overflow_limit == 2250
    assert opts.effective_max == 2249 == opts.size + opts.floor - 1


def test_eighty_character_document_is_one_chunk() -> None:
    text = "A short note: the audit store is append-only and read access is logged."
    text = text + " " * 0 + "Thanks."
    assert 75 <= len(text) <= 85
    for name in STRATEGIES:
        chunks = chunk(text, name)
        assert [c.body for c in chunks] == [text], name


@pytest.mark.parametrize(
    "kwargs,word",
    [
        ({"size": 0}, "size"),
        ({"size": -5}, "size"),
        ({"size": 10, "overlap": -1}, "overlap"),
        ({"size": 10, "overlap": 10}, "overlap"),
        ({"size": 10, "overlap": 11}, "overlap"),
        ({"unit": "lines"}, "unit"),
        ({"runt_merge": "sideways"}, "runt_merge"),
        ({"unit": "tokens", "tokenizer": "gpt5_base"}, "unknown tokenizer 'gpt5_base'"),
        ({"unit": "words", "tokenizer": "o200k_base"}, "applies only to the unit tokens"),
    ],
)
def test_bad_parameters_name_the_parameter(kwargs: dict, word: str) -> None:
    with pytest.raises(ValueError, match=word):
        chunk("Some text here.", "structural", **kwargs)


def test_unknown_strategy_names_the_choices() -> None:
    with pytest.raises(
        ValueError, match="strategy must be one of structural, fixed, sentence, recursive"
    ):
        chunk("Some text.", "semantic")


@pytest.mark.parametrize("name", list(STRATEGIES))
@pytest.mark.parametrize("text", ["", "   ", "\n\n\t \r\n"])
def test_empty_text_gives_no_chunks(name: str, text: str) -> None:
    assert chunk(text, name) == []


def test_registry_lists_display_names_and_descriptions() -> None:
    assert list(STRATEGIES) == ["structural", "fixed", "sentence", "recursive"]
    for s in STRATEGIES.values():
        assert s.display_name and s.description and "\n" not in s.description


@pytest.mark.parametrize(
    "text",
    [
        "Revenue grew 4.2% in the quarter. Margins held.",
        "Some tools, e.g. the CLI, accept flags. Others do not.",
        "We shipped v3.2 on Monday. The rollout finished.",
        "Dr. Rao approved the plan. Work starts today.",
    ],
)
def test_sentence_strategy_does_not_break_abbreviations(text: str) -> None:
    # size 7 words: each sentence alone fits, both together do not
    bodies = [c.body for c in chunk(text, "sentence", 7, unit="words")]
    first = text.split(". ")[0] if "e.g." not in text and "Dr." not in text else None
    assert len(bodies) == 2, bodies
    if first is not None:
        assert bodies[0] == first + "."
    assert "".join(bodies).replace(" ", "") == text.replace(" ", "")


def test_sentence_strategy_cuts_an_oversized_sentence_and_says_so() -> None:
    long = "This single sentence is far longer than the tiny budget allows for it. Short one."
    chunks = chunk("Hello there. " + long, "sentence", 4, unit="words")
    assert [c.body for c in chunks] == [
        "Hello there.",
        "This single sentence is",
        "far longer than the",
        "tiny budget allows for",
        "it. Short one.",
    ]
    assert [c.sentence_cut for c in chunks] == ["", "word", "word", "word", "word"]


def test_sentence_overlap_is_whole_sentences() -> None:
    text = "One two three. Four five six. Seven eight nine. Ten eleven twelve."
    chunks = chunk(text, "sentence", 6, 3, unit="words")
    assert [c.body for c in chunks] == [
        "One two three. Four five six.",
        "Seven eight nine. Ten eleven twelve.",
    ]
    assert chunks[1].overlap_prefix == "Four five six."


def test_recursive_is_langchains_splitter(platform: str) -> None:
    doc = (SAMPLES / "api_reference.md").read_text(encoding="utf-8")
    splitter = RecursiveCharacterTextSplitter.from_language(
        Language.MARKDOWN, chunk_size=400, chunk_overlap=60
    )
    expected = splitter.split_text(doc)
    chunks = chunk(doc, "recursive", 400, 60)
    assert [
        doc[(c.overlap_start if c.overlap_prefix else c.start) : c.end] for c in chunks
    ] == expected


def test_recursive_offsets_survive_repeated_text() -> None:
    block = "The same boilerplate footer line appears here.\n\n"
    doc = "# Title\n\n" + block * 30 + "A different closing paragraph."
    chunks = chunk(doc, "recursive", 120, 0)
    for c in chunks:
        assert doc[c.start : c.end] == c.body
    assert [c.start for c in chunks] == sorted({c.start for c in chunks})


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_crlf_chunks_like_lf(name: str) -> None:
    lf = (SAMPLES / "compute_pricing.md").read_text(encoding="utf-8")
    crlf = lf.replace("\n", "\r\n")
    a, b = chunk(lf, name, 600, 80), chunk(crlf, name, 600, 80)
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert y.body.replace("\r\n", "\n") == x.body
        assert y.overlap_prefix.replace("\r\n", "\n") == x.overlap_prefix
        assert crlf[y.start : y.end] == y.body or y.header_repeated
        assert (x.length, x.kind, x.heading_path, x.page) == (
            y.length,
            y.kind,
            y.heading_path,
            y.page,
        )


def test_default_call_uses_chunker_spec_defaults() -> None:
    text = (SAMPLES / "regional_revenue.md").read_text(encoding="utf-8")
    assert chunk(text) == chunk(text, "structural", 1800, 150, unit="chars")
