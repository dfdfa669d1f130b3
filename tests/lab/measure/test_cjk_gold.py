"""A gold set made from Chinese and Japanese documents: keyword questions from bigrams
that look like words, heading questions from their headings."""

from __future__ import annotations

from lab.measure.questions import make_gold
from lab.retrieval.tokenize import has_cjk
from tests.support import SAMPLES

DOCS = {
    name: (SAMPLES / name).read_text(encoding="utf-8")
    for name in ("rust_variables_zh.md", "rust_variables_ja.md")
}


def test_keyword_questions_in_chinese_and_japanese_are_word_like_bigrams():
    made = make_gold(DOCS, 60, seed=3)
    keywords = [q for q in made.questions if q.generated == "keywords"]
    cjk = [w for q in keywords for w in q.question.split() if has_cjk(w)]
    assert len(cjk) >= 10
    # -- no seam across two words: a particle or ending in hiragana, or Chinese 的
    assert not [w for w in cjk if any("\u3040" <= c < "\u30a0" for c in w) or "的" in w]
    assert {"常量", "修改"} & set(cjk)  # a real word is asked for


def test_heading_questions_come_from_the_headings():
    made = make_gold(DOCS, 60, seed=3)
    headings = {q.question for q in made.questions if q.generated == "heading"}
    assert "变量和可变性 常量" in headings or "変数と可変性 シャドーイング" in headings
