"""Chinese and Japanese text: cut at its own sentence ends, counted in its own words.

Chinese and Japanese write no space between words and often none after a
sentence: ``。！？`` end a sentence whatever follows, ``，、；：`` a clause, and
each ideograph (or kana) is a word, as Unicode's word boundaries count them.
"""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from chunkers import ChunkOptions, chunk
from chunkers.seams import SeamPacker, seam_at
from chunkers.segment import sentence_spans
from chunkers.text import count_units, word_spans
from lab.measure.atomic import CUTS_SENTENCE, quality
from lab.measure.drag import drag_frames
from tests.support import lost_characters, run_cli

# a Chinese paragraph with no space in it: six sentences of 20 to 40 characters
ZH_SENTENCES = [
    "所有权是这门语言最独特的功能，它让程序无需垃圾回收即可保障内存安全。",
    "每一个值都有一个被称为其所有者的变量！",
    "值在任一时刻有且只有一个所有者，当所有者离开作用域时这个值将被丢弃。",
    "借用检查器在编译时检查每一个引用是否有效吗？",
    "答案是肯定的，编译器会拒绝任何可能产生悬垂引用的代码。",
    "理解这些规则之后，你就能写出既安全又高效的程序。",
]
ZH = "".join(ZH_SENTENCES)
JA = "先生は言いました。「明日は学校が休みです。」みんなはとても喜びました。"
ENDS = "。！？」"


def _bodies(text: str, size: int, unit: str = "chars", **kw) -> list[str]:
    chunks = chunk(text, "structural", size, 0, unit=unit, **kw)
    assert lost_characters(text, chunks) == []
    return [c.body for c in chunks]


# -- sentences ------------------------------------------------------------------------
def test_a_chinese_paragraph_is_cut_at_its_sentence_ends() -> None:
    assert [ZH[s:e] for s, e in sentence_spans(ZH)] == ZH_SENTENCES
    bodies = _bodies(ZH, 60)
    assert len(bodies) > 2
    # every sentence is shorter than a chunk: no chunk ends inside one
    assert all(b[-1] in ENDS for b in bodies), bodies
    assert all(any(s in b for b in bodies) for s in ZH_SENTENCES)


def test_a_japanese_sentence_closed_by_a_bracket_keeps_it() -> None:
    assert [JA[s:e] for s, e in sentence_spans(JA)] == [
        "先生は言いました。",
        "「明日は学校が休みです。」",
        "みんなはとても喜びました。",
    ]
    bodies = _bodies(JA, 16)
    assert "「明日は学校が休みです。」" in bodies
    assert not any(b.startswith("」") for b in bodies)


def test_a_space_after_the_stop_changes_nothing() -> None:
    spaced = "。 ".join(s.rstrip("。") for s in ZH_SENTENCES[:3]) + "。"
    assert len(sentence_spans(spaced)) == 3


def test_a_full_width_decimal_point_ends_no_sentence() -> None:
    text = "圆周率约为３．１４。它是无理数。"
    assert [text[s:e] for s, e in sentence_spans(text)] == ["圆周率约为３．１４。", "它是无理数。"]


def test_a_stop_inside_a_link_ends_no_sentence_and_code_after_a_stop_is_a_seam() -> None:
    text = "[标准库有可用的定义！][IpAddr] 我们看看。`IpAddr`是枚举。"
    assert [text[s:e] for s, e in sentence_spans(text)] == [
        "[标准库有可用的定义！][IpAddr] 我们看看。",
        "`IpAddr`是枚举。",
    ]
    assert seam_at(text, 26, 26) == "stop"  # (a cut before the code span reads as a stop)


def test_english_sentences_are_found_as_before() -> None:
    text = "Copy the `./app` directory. Sega and Media.Vision made it. Version 3.2 is out."
    assert len(sentence_spans(text)) == 3


# -- the ladder below the sentence ----------------------------------------------------
def test_a_long_chinese_sentence_is_cut_at_its_commas_then_between_characters() -> None:
    sentence = "，".join(["这是一个很长的从句"] * 8) + "。"
    bodies = _bodies(sentence, 30)
    assert all(b[-1] in "，。" for b in bodies), bodies
    packer = SeamPacker(sentence, "chars")
    pieces = packer.pack(0, len(sentence), 5, 5, packer.below_sentence)
    assert [sentence[s:e] for s, e in pieces][:2] == ["这是一个很", "长的从句，"]
    assert seam_at(sentence, 5, 5) == "word"
    assert seam_at(sentence, 10, 10) == "clause"
    assert seam_at("中。文", 2, 2) == "stop"
    assert seam_at("ab", 1, 1) == "char"  # (inside a Latin word: characters)


def test_a_heading_over_a_long_chinese_paragraph_leads_its_first_piece() -> None:
    text = "# 所有权\n\n" + ZH * 2
    bodies = _bodies(text, 120)
    assert bodies[0].startswith("# 所有权\n\n所有权是")
    assert bodies[0][-1] in ENDS
    assert not any(b.strip() == "# 所有权" for b in bodies)


def test_a_lead_in_travels_with_the_chinese_list_it_opens() -> None:
    items = "\n".join(f"- {s}" for s in ZH_SENTENCES)
    text = ZH + "\n\n下面是这些规则：\n\n" + items
    bodies = _bodies(text, 140)
    assert not any(b.endswith("下面是这些规则：") for b in bodies), bodies


# a Japanese translation keeps each paragraph's English original in a comment above it
# (a comment above a block leads it)
JA_LEAD_IN = (
    "他の言語(Cなど)では、この場面で欲しいものではないにもかかわらず、"
    "まさしく要求したものを返そうとしてきます:\n"
    "メモリがベクタに属していないにもかかわらず、"
    "ベクタ内のその要素に対応するメモリ上の箇所にあるものを何か返してくるのです。"
)
JA_COMMENT = (
    "<!--\nOther languages will attempt to give you exactly what you asked for in this\n"
    "situation: you will get whatever is at the location in memory that would\n"
    "correspond to that element at all.\n-->\n\n"
)


def test_a_lead_in_line_that_fills_the_room_beside_a_comment_goes_on_with_its_text() -> None:
    # the comment leaves room for the line ending in a colon and nothing after it:
    # the line is cut at a clause mark, and its last clause goes on with the next line
    text = JA_COMMENT + JA_LEAD_IN
    bodies = _bodies(text, 200)
    assert bodies[0].startswith("<!--")
    assert not any(b.endswith(":") for b in bodies[:-1]), bodies
    assert any("返そうとしてきます:\nメモリが" in b for b in bodies), bodies


JA_STRINGS = (
    "<!--\n#### Bytes and Scalar Values and Grapheme Clusters! Oh My!\n-->\n\n"
    "#### バイトとスカラー値と書記素クラスタ！なんてこった！\n\n"
    "<!--\nAnother point about UTF-8 is that there are actually three relevant ways to\n"
    "look at strings from Rust’s perspective: as bytes, scalar values, and grapheme\n"
    "clusters (the closest thing to what we would call *letters*).\n-->\n\n"
    "UTF-8について別の要点は、実際Rustの観点から文字列を見るには3つの関連した方法があるということです:\n"
    "バイトとして、スカラー値として、そして、書記素クラスタ(人間が*文字*と呼ぶものに一番近い)としてです。\n\n"
    "<!--\nIf we look at the Hindi word “नमस्ते” written in the Devanagari script, it is\n"
    "stored as a vector of `u8` values that looks like this:\n-->\n\n"
    "ヒンディー語の単語、“नमस्ते”をデーヴァナーガリー(`訳注`: サンスクリット語とヒンディー語を"
    "書くときに使われる書記法)で表記したものを見たら、\n"
    "以下のような見た目の`u8`値のベクタとして保持されます:\n\n"
    "```text\n[224, 164, 168]\n```\n"
)


def test_a_runt_does_not_join_a_paragraph_cut_to_open_beside_its_comment() -> None:
    # the Hindi paragraph fits a chunk alone but not with its comment: it is cut
    # so that the comment opens it, and the runt left of the paragraph before
    # (its last sentence) may not merge in front of that comment
    bodies = _bodies(JA_STRINGS, 200)
    opening = next(b for b in bodies if "ヒンディー語の単語" in b)
    assert opening.startswith("<!--\nIf we look at the Hindi word"), bodies
    assert "書記素クラスタ(人間が*文字*と呼ぶものに一番近い)としてです。" in bodies


def test_chunks_of_chinese_are_found_by_their_headings() -> None:
    text = "# 第一章\n\n## 所有权\n\n" + ZH * 3
    chunks = chunk(text, "structural", 100, 0)
    assert all(c.heading_path == ("第一章", "所有权") for c in chunks)


# -- words ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("数据存储", 4),  # each ideograph
        ("ひらがな", 4),  # each hiragana
        ("プログラミング言語", 3),  # a run of katakana, then two ideographs
        ("Rust 是一门语言。", 6),  # a Latin word, five ideographs (the stop goes with 言)
        ("「你好」，world！", 3),
        ("안녕하세요 세계", 2),  # Hangul: by its spaces
        ("don't stop at e.g. v3.2 — ok", 7),  # everything else: by whitespace, as before
    ],
)
def test_the_words_unit_counts_ideographs_and_kana(text: str, words: int) -> None:
    assert count_units(text, "words") == words
    assert len(word_spans(text)) == words


def test_word_spans_cover_every_character() -> None:
    text = "「所有权」是 Rust 的プログラミング概念。"
    spans = word_spans(text)
    assert "".join(text[s:e] for s, e in spans) == text.replace(" ", "")
    assert [text[s:e] for s, e in spans][:3] == ["「所", "有", "权」"]


def test_a_hundred_words_of_chinese_are_about_a_hundred_characters() -> None:
    text = ZH * 20
    for strategy in ("structural", "fixed", "sentence"):
        chunks = chunk(text, strategy, 100, 0, unit="words")
        # (the structural chunker's runt rule may reach its effective maximum)
        top = (
            ChunkOptions(size=100, overlap=0, unit="words").effective_max
            if strategy == "structural"
            else 100
        )
        assert all(c.length <= top for c in chunks)
        lengths = [len(c.body) for c in chunks[:-1]]
        assert lengths and all(60 <= n <= 1.3 * top for n in lengths), (strategy, lengths)


def test_overlap_in_words_counts_chinese_characters() -> None:
    chunks = chunk(ZH * 5, "fixed", 40, 10, unit="words")
    assert all(count_units(c.overlap_prefix, "words") == 10 for c in chunks[1:])
    assert all(len(c.overlap_prefix) <= 12 for c in chunks[1:])
    structural = chunk(ZH * 5, "structural", 60, 10, unit="words")
    assert any(c.overlap_prefix for c in structural[1:])


# -- tokens ---------------------------------------------------------------------------
@pytest.mark.parametrize("tokenizer", ["cl100k_base", "o200k_base"])
def test_tokens_count_chinese_and_chunks_end_at_its_sentences(tokenizer: str) -> None:
    assert count_units(ZH, "tokens", tokenizer) >= len(ZH) // 2
    chunks = chunk(ZH * 3, "structural", 60, 0, unit="tokens", tokenizer=tokenizer)
    assert len(chunks) > 3
    assert all(count_units(c.body, "tokens", tokenizer) <= 60 for c in chunks)
    assert all(c.body[-1] in ENDS for c in chunks)


# -- what the lab measures on it --------------------------------------------------------
def test_the_drag_slider_gives_the_cli_chunks_on_chinese() -> None:
    text = "# 所有权\n\n" + ZH * 4
    answer = ZH_SENTENCES[2]
    sizes = [60, 80, 100, 150, 200]
    frames = drag_frames(text, answer, "structural", sizes, unit="chars")
    for size, frame in zip(sizes, frames, strict=True):
        chunks = chunk(text, "structural", size, 0)
        assert frame.boundaries == [(c.start, c.end, c.start) for c in chunks]
        assert frame.intact, (size, frame.verdict)


def test_the_check_sees_chinese_sentences() -> None:
    text = ZH * 3
    cut = {"zh": chunk(text, "fixed", 50, 0)}
    whole = {"zh": chunk(text, "structural", 100, 0)}
    assert quality({"zh": text}, cut, None)[0][CUTS_SENTENCE] > 0
    assert quality({"zh": text}, whole, None)[0][CUTS_SENTENCE] == 0


# -- a script whose sentences are not known --------------------------------------------
THAI = "ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรคระหว่างคำ การตัดประโยคจึงต้องอาศัยช่องว่าง ระหว่างวลีแทนเครื่องหมายวรรคตอน"


def test_thai_text_is_cut_below_the_sentence_and_says_so_once(tmp_path, capsys) -> None:
    text = "\n\n".join([THAI * 4] * 3)
    chunks = chunk(text, "structural", 80, 0)
    assert lost_characters(text, chunks) == []
    assert all(len(c.body) <= 80 for c in chunks)
    doc = tmp_path / "thai.md"
    doc.write_text(text, encoding="utf-8")
    code, out, err = run_cli(capsys, "chunk", str(doc), "--size", "80", "--unit", "chars")
    assert code == 0 and "Traceback" not in err
    lines = [x for x in err.splitlines() if "Thai" in x]
    assert len(lines) == 1, err
    assert "below the sentence" in lines[0]
    doc.write_text(ZH + JA, encoding="utf-8")  # (scripts it reads say nothing)
    code, out, err = run_cli(capsys, "chunk", str(doc), "--size", "80", "--unit", "chars")
    assert code == 0 and err == ""


def test_chinese_chunks_are_told_apart_from_cut_ones() -> None:
    # every cut of a structural chunking of sentences under the size lies at a sentence end
    text = "\n\n".join([ZH] * 4)
    chunks = chunk(text, "structural", 70, 0)
    ends = {e for s, e in sentence_spans(text)}
    for a, _ in pairwise(chunks):
        assert a.end in ends, a.body
    assert not re.search(r"\s", "".join(c.body for c in chunks).replace("\n", ""))
