from chunkers import STRATEGIES
from lab.inputs.gold import load_gold
from lab.inputs.samples import get_sample, list_samples, sample_names
from lab.measure.survival import find_answer
from ui.palette import CHUNK_SHADES, STRATEGY_COLOURS, strategy_colour


def test_every_sample_has_a_gold_file_whose_answers_are_in_it():
    samples = list_samples()
    assert "platform_data" in sample_names() and len(samples) >= 7
    for s in samples:
        assert s.gold_path is not None, s.name
        gold = load_gold(s.gold_path)
        assert gold.questions and not gold.bad_lines
        text = s.path.read_text(encoding="utf-8")
        for p in gold.questions:
            find_answer(text, p.answer)


def test_get_sample_unknown_name():
    import pytest

    with pytest.raises(ValueError):
        get_sample("nope")


def test_each_strategy_has_its_own_colour():
    assert set(STRATEGY_COLOURS) == set(STRATEGIES)
    assert len(set(STRATEGY_COLOURS.values())) == len(STRATEGY_COLOURS)
    assert strategy_colour("unknown") == "#000000" and len(CHUNK_SHADES) == 2
