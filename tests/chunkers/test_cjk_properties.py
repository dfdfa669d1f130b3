"""Invariants of every strategy over generated Chinese, Japanese and mixed markdown
(hypothesis): nothing lost, spans true, the structural chunker's effective maximum
and runt floor, heading context; words and word seams agree."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chunkers import STRATEGIES, ChunkOptions, chunk
from chunkers.scripts import is_word_seam, word_spans
from chunkers.sentence import document_sentences
from chunkers.text import count_units
from tests.chunkers.invariants import heading_context_breaks, over_max_breaks, runt_breaks
from tests.chunkers.test_properties import OPTIONS, SETTINGS, WORDS, _opts
from tests.support import assert_spans_true, lost_characters

# words of Chinese and Japanese (ideographs, hiragana, katakana runs), written without
# spaces; Latin names and numbers among them, as technical writing has them
CJK_WORDS = st.sampled_from(
    "所有权 借用 编译器 内存 安全 程序 变量 作用域 引用 数据 "
    "プログラミング 言語 です ます 所有者 という ことが できます の は を に "
    "Rust Cargo v3.2 42 ３．１４ 「 」 （ ） 《 》".split()
)
CJK_STOP = st.sampled_from(["。", "！", "？", "。」", "！』", "｡", "．", "？）"])
CJK_CLAUSE = st.lists(CJK_WORDS, min_size=1, max_size=10).map("".join)
CJK_SENTENCE = st.tuples(st.lists(CJK_CLAUSE, min_size=1, max_size=4).map("，".join), CJK_STOP).map(
    "".join
)
# a paragraph: sentences with no space between them, or now and then one (mixed text)
CJK_PROSE = st.lists(
    st.one_of(CJK_SENTENCE, CJK_SENTENCE, CJK_SENTENCE.map(lambda s: s + " ")),
    min_size=1,
    max_size=8,
).map(lambda ss: "".join(ss).strip())
MIXED_PROSE = st.lists(
    st.one_of(CJK_SENTENCE, st.lists(WORDS, min_size=1, max_size=8).map(" ".join)),
    min_size=1,
    max_size=8,
).map(" ".join)
CJK_HEADING = st.tuples(st.integers(1, 4), CJK_CLAUSE).map(lambda t: "#" * t[0] + " " + t[1])
CJK_LIST = st.lists(CJK_PROSE, min_size=1, max_size=4).map(
    lambda ps: "\n".join("- " + p for p in ps)
)
LEAD_IN = CJK_CLAUSE.map(lambda c: c + "：")
CJK_BLOCK = st.one_of(CJK_PROSE, CJK_PROSE, MIXED_PROSE, CJK_HEADING, CJK_LIST, LEAD_IN)


@st.composite
def cjk_documents(draw) -> str:
    return "\n\n".join(draw(st.lists(CJK_BLOCK, min_size=1, max_size=10)))


@SETTINGS
@given(cjk_documents(), OPTIONS, st.sampled_from(list(STRATEGIES)))
def test_no_cjk_text_lost_and_spans_true(text: str, opt, name: str) -> None:
    size, overlap = _opts(*opt)
    chunks = chunk(text, name, size, overlap, unit=opt[0])
    assert lost_characters(text, chunks) == []
    assert_spans_true(text, chunks)


@SETTINGS
@given(cjk_documents(), OPTIONS)
def test_structural_limits_hold_on_cjk_text(text: str, opt) -> None:
    unit = opt[0]
    size, overlap = _opts(*opt)
    opts = ChunkOptions(size=size, overlap=overlap, unit=unit)
    chunks = chunk(text, "structural", size, overlap, unit=unit)
    assert over_max_breaks(chunks, opts) == []
    assert runt_breaks(chunks, opts) == []
    assert heading_context_breaks(text, chunks) == []


# paragraphs and lists only: a heading or lead-in is followed by a piece cut to fill
# the room beside it, even where the sentence would fit a chunk of its own
PLAIN_DOCUMENTS = st.lists(st.one_of(CJK_PROSE, MIXED_PROSE, CJK_LIST), min_size=1, max_size=8).map(
    "\n\n".join
)


@SETTINGS
@given(PLAIN_DOCUMENTS, st.integers(2, 200))
def test_structural_cuts_fall_at_sentence_ends_when_sentences_fit(text: str, size: int) -> None:
    """In characters, where every sentence fits half a chunk, no chunk boundary
    falls inside a sentence (of a paragraph: a blank line ends one)."""
    sentences = document_sentences(text)
    if max(e - s for s, e in sentences) > size // 2:
        size = 2 * max(e - s for s, e in sentences)
    chunks = chunk(text, "structural", size, 0)
    for c in chunks[:-1]:
        assert not any(s < c.end < e for s, e in sentences), (c.body, size)


@SETTINGS
@given(st.one_of(cjk_documents(), MIXED_PROSE))
def test_words_and_word_seams_agree(text: str) -> None:
    spans = word_spans(text)
    assert count_units(text, "words") == len(spans)
    bounds = {s for s, _ in spans} | {e for _, e in spans}
    for i in range(1, len(text)):
        if not text[i - 1].isspace() and not text[i].isspace():
            assert (i in bounds) == is_word_seam(text, i), (text, i)
