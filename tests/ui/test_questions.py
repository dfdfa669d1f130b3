from lab.measure.survival import find_answer
from lab.text import clip
from tests.support import SAMPLES
from ui.present.questions import answer_sentences


def test_sentences_are_findable_answers_and_rows_stand_alone():
    for name in ("platform_data", "regional_revenue", "inspection_manual"):
        text = (SAMPLES / f"{name}.md").read_text()
        sentences = answer_sentences(text)
        assert sentences and len(set(sentences)) == len(sentences)
        for s in sentences:
            find_answer(text, s)
            assert not s.startswith("#")
    rows = answer_sentences((SAMPLES / "regional_revenue.md").read_text())
    assert "| Mumbai | FY24 | 18,412 | 4.2% |" in rows


def test_limit_and_clip():
    assert (
        len(answer_sentences("One two three four. " * 50 + "Five six seven eight.", limit=1)) == 1
    )
    assert clip("a" * 200, 10) == "a" * 9 + "…" and clip("short") == "short"
