"""Answer survival: the published lottery table, the numpy shortcut held equal to real chunking."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chunkers import chunk
from lab.measure.survival import (
    AnswerNotFound,
    DocumentLayout,
    check_survival,
    find_answer,
    find_answers,
    gold_survival_rates,
    lottery_map,
    survival_curve,
)
from tests.support import AUDIT, PLATFORM, SAMPLES

# Every size 22..120, not only the article's even ones. The answer is words 89-101
# (1-based), so the article's "52+" stops at 88: a boundary at 89..100 cuts it.
INTACT = {22, 26, 27, 28, 29, *range(34, 45), *range(51, 89), *range(101, 121)}
SIZES = range(22, 121)
FRACTIONS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]


def read(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


def gold_answers(name: str) -> list[str]:
    lines = (SAMPLES / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["answer"] for line in lines if line.strip()]


def by_chunking(
    text: str, answer: str, size: int, overlap: int, unit: str, strategy: str = "fixed"
) -> bool:
    return check_survival(chunk(text, strategy, size, overlap, unit=unit), text, answer).intact


@pytest.fixture(scope="module")
def platform() -> str:
    return read("platform_data.md")


# ------------------------------------------------------------------ the published lottery table


def test_lottery_article_table_fast_path(platform: str) -> None:
    curve = survival_curve(platform, AUDIT, "fixed", SIZES, unit="words")
    assert curve.sizes == list(SIZES)
    assert {s for s, ok in zip(curve.sizes, curve.intact, strict=True) if ok} == INTACT
    # the article's rows as printed
    row = dict(zip(curve.sizes, curve.intact, strict=True))
    assert row[22] and not row[24] and row[26] and row[28] and not row[30] and not row[32]
    assert all(row[s] for s in range(34, 45, 2)) and not any(row[s] for s in (46, 48, 50))


def test_lottery_article_table_by_chunking(platform: str) -> None:
    got = {s for s in SIZES if by_chunking(platform, AUDIT, s, 0, "words")}
    assert got == INTACT


def test_verdicts_at_22_and_24(platform: str) -> None:
    at22 = check_survival(chunk(platform, "fixed", 22, unit="words"), platform, AUDIT)
    assert at22.intact and at22.chunk_index == 4
    assert at22.verdict == "answer intact in chunk 5"
    at24 = check_survival(chunk(platform, "fixed", 24, unit="words"), platform, AUDIT)
    assert not at24.intact and at24.chunk_index is None
    assert at24.verdict == "answer split across chunks 4 and 5: unretrievable at any k"
    assert at24.pieces == [3, 4]
    assert at24.cuts == [platform.index("to satisfy the compliance")]
    assert at24.span == (548, 631)


def test_verdict_lists_every_piece(platform: str) -> None:
    v = check_survival(chunk(platform, "fixed", 5, unit="words"), platform, AUDIT)
    assert v.verdict == "answer split across chunks 18, 19, 20 and 21: unretrievable at any k"
    assert len(v.cuts) == 3


def test_half_size_overlap_removes_most_failures(platform: str) -> None:
    def failing(fraction: float) -> list[int]:
        c = survival_curve(
            platform, AUDIT, "fixed", range(10, 61), unit="words", overlap_fraction=fraction
        )
        return [s for s, ok in zip(c.sizes, c.intact, strict=True) if not ok]

    none, half = failing(0.0), failing(0.5)
    # 10..13 cannot hold a 13-word answer at any overlap
    assert len(none) == 23 and none[-6:] == [45, 46, 47, 48, 49, 50]
    assert half == [10, 11, 12, 13, 14, 17, 18, 19, 20]
    assert [s for s in half if s > 20] == []


@pytest.mark.parametrize("strategy", ["sentence", "structural"])
def test_sentence_and_structural_keep_the_answer_at_every_size(
    platform: str, strategy: str
) -> None:
    curve = survival_curve(platform, AUDIT, strategy, SIZES, unit="words")
    assert all(curve.intact), [s for s, ok in zip(curve.sizes, curve.intact, strict=True) if not ok]
    for s in (24, 30, 46, 90):
        assert by_chunking(platform, AUDIT, s, 0, "words", strategy)


# ------------------------------------------------------------------ fast path == chunking


@pytest.mark.parametrize("unit", ["words", "chars", "tokens"])
@pytest.mark.parametrize("doc", ["platform_data", "support_kb"])
def test_fast_path_equals_chunking_on_gold_answers(doc: str, unit: str) -> None:
    text = read(f"{doc}.md")
    answers = gold_answers(f"{doc}.gold.jsonl")
    curves = {
        (answer, fraction): survival_curve(
            text, answer, "fixed", range(5, 81), unit=unit, overlap_fraction=fraction
        )
        for answer in answers
        for fraction in FRACTIONS
    }
    # -- every (size, overlap) the curves ask about, chunked once and asked about
    # -- every answer (the chunking does not depend on the answer)
    windows = {so for c in curves.values() for so in zip(c.sizes, c.overlaps, strict=True)}
    spans = {a: find_answer(text, a) for a in answers}
    real = {}
    for size, overlap in windows:
        layout = DocumentLayout(text, chunk(text, "fixed", size, overlap, unit=unit))
        real.update({(size, overlap, a): layout.survival(a, spans[a]).intact for a in answers})
    for (answer, fraction), curve in curves.items():
        expected = [real[s, o, answer] for s, o in zip(curve.sizes, curve.overlaps, strict=True)]
        assert curve.intact == expected, (answer, fraction)


def test_chars_window_holds_an_answer_across_a_mid_word_seam() -> None:
    # window [18, 30) is "e delta echo"; its prefix "e delt" runs into its body
    # "a echo" mid-word, and the retrievable text must still read "delta"
    text = "alpha bravo charlie delta echo foxtrot"
    chunks = chunk(text, "fixed", 12, 6, unit="chars")
    assert (chunks[3].overlap_prefix, chunks[3].body) == ("e delt", "a echo")
    v = check_survival(chunks, text, "delta")
    assert v.intact and v.chunk_index == 3 and v.verdict == "answer intact in chunk 4"
    assert survival_curve(text, "delta", "fixed", [12], unit="chars", overlap=6).intact == [True]
    assert survival_curve(text, "delta", "fixed", [12], unit="chars", overlap=0).intact == [False]


# A small vocabulary, so answers recur; long blank runs, so some chars windows
# are pure whitespace and skipped.
# (a few characters of several UTF-8 bytes, which a token may split)
WORD = st.builds(
    lambda h, t: h + t,
    st.sampled_from(["A", "B", "C", "a", "é", "東", "\U0001f469\u200d\U0001f4bb"]),
    st.text("abc", max_size=3),
)
SPACE = st.sampled_from([" ", "  ", "\n", "\t", "\r\n", "\n\n", " \r\n ", " " * 9, "\n" * 7])


@st.composite
def text_and_answer(draw: st.DrawFn) -> tuple[str, str]:
    words = draw(st.lists(WORD, min_size=1, max_size=40))
    gaps = draw(st.lists(SPACE, min_size=len(words) + 1, max_size=len(words) + 1))
    lead, trail = draw(st.booleans()), draw(st.booleans())
    text = (gaps[0] if lead else "") + "".join(w + g for w, g in zip(words, gaps[1:], strict=True))
    if not trail:
        text = text.rstrip()
    spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
    if draw(st.booleans()):  # whole tokens
        i = draw(st.integers(0, len(spans) - 1))
        j = draw(st.integers(i, min(len(spans) - 1, i + 8)))
        s, e = spans[i][0], spans[j][1]
    else:  # arbitrary character boundaries
        s = draw(st.integers(0, len(text) - 1))
        e = draw(st.integers(s + 1, min(len(text), s + 40)))
    answer = text[s:e]
    assume(answer.strip())
    return text, answer


@settings(max_examples=400, deadline=None)
@given(
    text_and_answer(), st.integers(1, 30), st.data(), st.sampled_from(["words", "chars", "tokens"])
)
def test_fast_path_equals_chunking_property(
    case: tuple[str, str], size: int, data: st.DataObject, unit: str
) -> None:
    text, answer = case
    overlap = data.draw(st.integers(0, size - 1))
    fast = survival_curve(text, answer, "fixed", [size], unit=unit, overlap=overlap).intact[0]
    assert fast == by_chunking(text, answer, size, overlap, unit)


@settings(max_examples=100, deadline=None)
@given(text_and_answer(), st.sampled_from(["words", "chars", "tokens"]))
def test_lottery_map_equals_chunking_property(case: tuple[str, str], unit: str) -> None:
    text, answer = case
    sizes, fractions = [1, 3, 7, 12], [0.0, 0.3, 0.5, 0.9]
    m = lottery_map(text, answer, sizes, fractions, unit=unit)
    for r in range(len(fractions)):
        for c, size in enumerate(sizes):
            assert m.intact[r, c] == by_chunking(text, answer, size, int(m.overlaps[r, c]), unit)


# ------------------------------------------------------------------ the lottery map


@pytest.fixture(scope="module")
def big_doc(platform: str) -> str:
    """~100,000 words: platform_data's sentences with numbered variations, the
    original document (the only verbatim audit sentence) in the middle."""
    sentences = re.split(r"(?<=\.) ", platform.strip())
    parts: list[str] = []
    i = 0
    while len(parts) * 16 < 100_000:
        for s in sentences:
            s = s.replace("Audit logs are", f"Audit logs of region {i} are")
            parts.append(f"{s[:-1]} (variation {i}).")
        i += 1
    mid = len(parts) // 2
    return " ".join(parts[:mid]) + "\n\n" + platform + "\n\n" + " ".join(parts[mid:])


def test_lottery_map_on_a_100k_word_document(big_doc: str) -> None:
    assert len(big_doc.split()) >= 100_000
    assert len(find_answers(big_doc, AUDIT)) == 1
    sizes = np.arange(5, 501)
    fractions = np.round(np.arange(0, 0.5001, 0.05), 2)
    m = lottery_map(big_doc, AUDIT, sizes, fractions)
    assert m.intact.shape == (11, 496) and m.overlaps.shape == (11, 496)
    for r in (0, 3, 10):
        curve = survival_curve(
            big_doc, AUDIT, "fixed", sizes, unit="words", overlap_fraction=float(fractions[r])
        )
        assert list(m.intact[r]) == curve.intact
        assert list(m.overlaps[r]) == curve.overlaps
    for r, size in [(0, 24), (0, 497), (5, 200), (10, 12), (10, 331)]:
        c = size - 5
        assert m.intact[r, c] == by_chunking(big_doc, AUDIT, size, int(m.overlaps[r, c]), "words")
    assert m.intact[:, :8].sum() == 0  # sizes 5..12 cannot hold 13 words


def test_lottery_map_chars_matches_curve(big_doc: str) -> None:
    m = lottery_map(big_doc, AUDIT, range(80, 121), [0.0, 0.5], unit="chars")
    curve = survival_curve(
        big_doc, AUDIT, "fixed", range(80, 121), unit="chars", overlap_fraction=0.5
    )
    assert list(m.intact[1]) == curve.intact
    for size in (84, 100, 120):
        c = size - 80
        assert m.intact[1, c] == by_chunking(big_doc, AUDIT, size, int(m.overlaps[1, c]), "chars")


# ------------------------------------------------------------------ gold rates, finding, errors


@pytest.mark.parametrize("strategy", ["fixed", "sentence", "structural", "recursive"])
def test_gold_survival_rates_average_the_curves(strategy: str) -> None:
    text = read("support_kb.md")
    answers = gold_answers("support_kb.gold.jsonl")
    sizes = [20, 40, 60, 120]
    rates = gold_survival_rates(text, answers, strategy, sizes, unit="words", overlap_fraction=0.25)
    curves = [
        survival_curve(text, a, strategy, sizes, unit="words", overlap_fraction=0.25)
        for a in answers
    ]
    assert rates == [sum(c.intact[i] for c in curves) / len(answers) for i in range(len(sizes))]
    if strategy != "fixed":
        held = sum(by_chunking(text, a, 60, 15, "words", strategy) for a in answers)
        assert rates[2] == held / len(answers)


def test_find_answer_ignores_whitespace_and_maps_back() -> None:
    text = "Intro.\r\n  Audit logs\n   are\tretained for\r\n400 days, then deleted."
    s, e = find_answer(text, "Audit logs are retained for 400 days")
    assert text[s:e] == "Audit logs\n   are\tretained for\r\n400 days"
    mid_word = (text.index("gs\n"), text.index("retained") + 8)
    assert find_answer(text, "  gs are  retained ") == mid_word
    assert find_answers("ab ab ab", "ab ab") == [(0, 5), (3, 8)]


def test_answer_not_found(platform: str) -> None:
    with pytest.raises(AnswerNotFound, match="answer not found in the document") as info:
        find_answer(platform, "Audit logs are retained forever")
    assert "\n" not in str(info.value)
    assert isinstance(info.value, ValueError)
    with pytest.raises(AnswerNotFound):
        check_survival(chunk(platform, "fixed", 24, unit="words"), platform, "not in the text")
    for strategy in ("fixed", "sentence"):
        with pytest.raises(AnswerNotFound):
            survival_curve(platform, "not in the text", strategy, [24], unit="words")
    with pytest.raises(AnswerNotFound, match="empty"):
        find_answer(platform, "  \n ")


def test_bad_options_are_value_errors(platform: str) -> None:
    with pytest.raises(ValueError, match="overlap must be smaller than size"):
        survival_curve(platform, AUDIT, "fixed", [10, 20], unit="words", overlap=15)
    with pytest.raises(ValueError, match="not both"):
        survival_curve(
            platform, AUDIT, "fixed", [10], unit="words", overlap=2, overlap_fraction=0.5
        )
    with pytest.raises(ValueError, match="overlap_fraction"):
        survival_curve(platform, AUDIT, "fixed", [10], unit="words", overlap_fraction=1.0)
    with pytest.raises(ValueError, match="unit"):
        survival_curve(platform, AUDIT, "fixed", [10], unit="lines")
    with pytest.raises(ValueError, match="strategy"):
        survival_curve(platform, AUDIT, "semantic", [10], unit="words")
    with pytest.raises(ValueError, match="fractions"):
        lottery_map(platform, AUDIT, [10], [0.5, 1.2])


def test_a_stepped_sweep_reuses_its_parse(monkeypatch):
    """Sweeping one size a step (the app's long documents) must not re-parse."""
    import chunkers.registry
    import lab.measure.survival as survival_module
    from chunkers import parse

    text, answer = PLATFORM, AUDIT
    whole = survival_module.survival_curve(text, answer, "structural", range(10, 30), unit="words")
    parsed = parse(text)

    def no_parse(_text):
        raise AssertionError("parsed again")

    monkeypatch.setattr(chunkers.registry, "parse", no_parse)
    steps = [
        survival_module.survival_curve(text, answer, "structural", [s], unit="words", parsed=parsed)
        for s in range(10, 30)
    ]
    assert [x for c in steps for x in c.intact] == whole.intact
