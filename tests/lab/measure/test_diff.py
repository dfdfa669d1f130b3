"""The chunk-population diff as data: configs, pairing, figures and the gate."""

from __future__ import annotations

import pytest

from chunkers import Chunk, chunk
from lab.inputs.gold import GoldQuestion, load_gold
from lab.measure.atomic import SENTENCE, TABLE
from lab.measure.diff import ConfigError, build_diff, match_chunks, parse_config
from lab.measure.survival import AnswerNotFound
from tests.support import SAMPLES

STRUCTURAL = parse_config("structural:chars:1800:150")
FIXED = parse_config("fixed:chars:1800:150")


def sample(name: str) -> dict[str, str]:
    return {name: (SAMPLES / f"{name}.md").read_text(encoding="utf-8")}


def gold(name: str) -> list[GoldQuestion]:
    return [
        GoldQuestion(p.question, p.answer, name)
        for p in load_gold(SAMPLES / f"{name}.gold.jsonl").questions
    ]


def test_a_config_reads_as_strategy_unit_size_overlap() -> None:
    c = parse_config("sentence:words:120:10")
    assert (c.strategy, c.unit, c.size, c.overlap) == ("sentence", "words", 120, 10)
    assert str(c) == "sentence:words:120:10"
    assert c.options.size == 120 and c.options.overlap == 10 and c.options.unit == "words"


@pytest.mark.parametrize(
    "spec,needle",
    [
        ("structural:chars:1800", "must be STRATEGY:UNIT:SIZE:OVERLAP"),
        ("structural:chars:1800:150:9", "a tokenizer ('9') applies only to the unit tokens"),
        ("structural:tokens:1800:150:9", "unknown tokenizer '9'"),
        ("magic:chars:1800:150", "strategy 'magic' is not one of structural, fixed"),
        ("fixed:lines:1800:150", "unit 'lines' is not one of words, chars, tokens"),
        ("chunks:", "must be chunks:FILE"),
        ("fixed:chars:big:150", "size 'big' must be a whole number of at least 1"),
        ("fixed:chars:0:0", "size '0' must be a whole number of at least 1"),
        ("fixed:chars:-5:0", "size '-5' must be a whole number"),
        ("fixed:chars:100:100", "overlap '100' must be a whole number from 0 to 99"),
        ("fixed:chars:100:-1", "overlap '-1' must be"),
        ("fixed:chars:100:1.5", "overlap '1.5' must be"),
    ],
)
def test_a_bad_config_names_the_part_that_is_wrong(spec: str, needle: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_config(spec)
    message = str(err.value)
    assert needle in message and spec in message and "\n" not in message


def span_chunks(*spans: tuple[int, int]) -> list[Chunk]:
    return [Chunk(i, "x" * (e - s), s, e, e - s) for i, (s, e) in enumerate(spans)]


def test_pairs_match_by_shared_characters_and_measure_what_moved() -> None:
    a = span_chunks((0, 100), (100, 200))
    b = span_chunks((0, 100), (100, 150), (150, 200))
    pairs = match_chunks("d", a, b)
    # A1 = B1; A2's best partner is B2 (ties go to the first); B3, unchosen, pairs with A2
    got = [(p.a.index, p.b.index, p.shared, p.moved, round(p.change, 3)) for p in pairs]
    assert got == [(0, 0, 100, 0, 0.0), (1, 1, 50, 50, 0.5), (1, 2, 50, 50, 0.5)]


def test_a_chunk_with_no_partner_changed_entirely() -> None:
    pairs = match_chunks("d", span_chunks((0, 10)), span_chunks((20, 30)))
    assert [(p.a is None, p.b is None, p.change, p.moved) for p in pairs] == [
        (False, True, 1.0, 10),
        (True, False, 1.0, 10),
    ]


def test_the_same_config_on_both_sides_changes_nothing_and_is_not_worse() -> None:
    report = build_diff(sample("api_reference"), STRUCTURAL, STRUCTURAL, gold=gold("api_reference"))
    assert report.pairs == report.unchanged > 0
    assert all(p.change == 0 for p in report.changed)
    assert report.regressions == [] and not report.worse
    assert [(d.a, d.b) for d in report.documents] == [(report.a.sizes.count,) * 2]


def test_fixed_windows_are_worse_than_structure_and_the_reverse_is_not() -> None:
    docs = sample("compute_pricing")
    worse = build_diff(docs, STRUCTURAL, FIXED)
    assert worse.worse
    assert worse.regressions == [
        "table without header rate rose from 0.0% to 25.0%",
        "sentence cut rate rose from 0.0% to 4.8%",
    ]
    assert worse.b.violations.counts[TABLE].violations == 1
    assert not build_diff(docs, FIXED, STRUCTURAL).worse


def test_gold_metrics_for_each_side_and_the_intact_share_gate() -> None:
    small = parse_config("fixed:words:50:0")
    report = build_diff(
        sample("support_kb"),
        parse_config("structural:chars:600:100"),
        small,
        gold=gold("support_kb"),
    )
    assert (report.a.gold.questions, report.a.gold.intact, report.b.gold.intact) == (8, 8, 3)
    assert report.a.gold.intact_rate == 1.0 and 0 < report.b.gold.mrr <= report.a.gold.mrr
    assert set(report.a.gold.recall) == {1, 3, 5, 10}
    assert report.regressions[0] == "intact share fell from 100.0% to 37.5% (8 to 3 of 8 answers)"
    assert report.b.violations.counts[SENTENCE].violations == 17


def test_without_gold_there_are_no_gold_figures() -> None:
    report = build_diff(sample("support_kb"), STRUCTURAL, FIXED)
    assert report.a.gold is None and report.b.gold is None


def test_a_gold_answer_not_in_its_document_is_bad_input() -> None:
    with pytest.raises(AnswerNotFound):
        build_diff(
            sample("support_kb"),
            STRUCTURAL,
            FIXED,
            gold=[GoldQuestion("q words", "not there", "support_kb")],
        )


def test_the_most_changed_come_first_and_the_limit_holds() -> None:
    docs = {**sample("api_reference"), **sample("support_kb")}
    report = build_diff(docs, STRUCTURAL, parse_config("fixed:chars:700:0"), limit=5)
    assert len(report.changed) == 5 and report.pairs > 5
    moved = [p.moved for p in report.changed]
    assert moved == sorted(moved, reverse=True)
    everything = build_diff(docs, STRUCTURAL, parse_config("fixed:chars:700:0"), limit=10_000)
    assert max(p.moved for p in everything.changed) == moved[0]
    assert len(everything.changed) == everything.pairs


def test_sizes_side_by_side_count_every_chunk() -> None:
    docs = sample("regional_revenue")
    report = build_diff(docs, STRUCTURAL, FIXED)
    text = docs["regional_revenue"]
    assert report.a.sizes.count == len(chunk(text, "structural"))
    assert report.b.sizes.count == len(chunk(text, "fixed", 1800, 150))
    assert report.b.sizes.max == 1800 and set(report.b.sizes.percentiles) == {
        1,
        5,
        25,
        50,
        75,
        95,
        99,
    }


def test_a_negative_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="limit must be at least 0"):
        build_diff(sample("support_kb"), STRUCTURAL, FIXED, limit=-1)


def test_the_size_distribution_of_known_lengths() -> None:
    from chunkers import ChunkOptions
    from lab.measure.stats import distribution

    lengths = [10, 20, 30, 40, 100]
    chunks = [Chunk(i, "x" * n, 0, n, n) for i, n in enumerate(lengths)]
    d = distribution(chunks, ChunkOptions(size=100, overlap=0))
    assert (d.count, d.mean, d.min, d.max) == (5, 40.0, 10, 100)
    assert d.percentiles[50] == 30 and d.percentiles[25] == 20 and d.percentiles[75] == 40
    assert d.below_floor == 2  # 10 and 20 are under a quarter of 100
    empty = distribution([], ChunkOptions(size=100, overlap=0))
    assert (empty.count, empty.mean, empty.percentiles) == (0, None, {})
