"""The same Chinese question ranked by BM25 over three tokenizations of the same chunks."""

from __future__ import annotations

import json

import pytest

from lab.measure.tokenizer_choice import (
    BIGRAMS,
    MODEL,
    WORDS,
    model_tokens,
    rank_by_tokenizations,
    splitter,
    tokenizer_lesson,
)
from tests.support import SAMPLES, make_chunk

CHUNKS = [
    make_chunk(0, "变量默认是不可变的，使用 mut 可以让变量可变。"),
    make_chunk(1, "常量只能被设置为常量表达式，而不能是运行时计算出来的值。"),
    make_chunk(2, "Rust 对常量的命名约定是全部大写，并用下划线分隔单词。"),
    make_chunk(3, "遮蔽让我们可以复用同一个变量名。"),
]


def test_words_between_spaces_find_nothing_and_bigrams_find_the_answer():
    ranked = rank_by_tokenizations(CHUNKS, "常量的命名约定是什么？", "命名约定是全部大写")
    by = {r.tokenization: r for r in ranked}
    assert by[WORDS].question_tokens == ("常量的命名约定是什么",)  # one "word"
    assert by[WORDS].matching_chunks == 0 and by[WORDS].shared == 0
    assert by[BIGRAMS].answer_rank == 1 and "命名" in by[BIGRAMS].question_tokens
    assert by[MODEL].answer_rank == 1 and by[MODEL].shared >= 5


def test_model_tokens_are_the_tokenizers_pieces_without_punctuation():
    assert model_tokens("Rust 常量？") == ["r", "ust", "常", "量"]
    with pytest.raises(ValueError, match="one of words, bigrams, model"):
        splitter("letters")


def test_the_lesson_over_the_chinese_sample_favours_bigrams():
    gold = SAMPLES / "rust_variables_zh.gold.jsonl"
    pairs = [(g["question"], g["answer"]) for g in map(json.loads, gold.open(encoding="utf-8"))]
    text = (SAMPLES / "rust_variables_zh.md").read_text(encoding="utf-8")
    lesson = tokenizer_lesson(text, pairs)
    assert len(lesson.questions) == len(pairs) == 7
    assert lesson.first(WORDS) + 3 <= lesson.first(BIGRAMS)
