from chunkers import ChunkOptions, chunk
from lab.measure.survival import SurvivalCurve, survival_curve
from tests.support import AUDIT, PLATFORM
from ui.present.sweeps import (
    flips,
    join_curves,
    lottery_grid,
    runs_table,
    size_from_selection,
    storage_bill,
    strategy_names,
    sweep_sizes,
)


def test_lottery_article_table_of_sizes():
    c = survival_curve(PLATFORM, AUDIT, "fixed", range(22, 60, 2), unit="words")
    assert runs_table(c) == [
        {"Chunk size": "22", "Answer intact?": "✓"},
        {"Chunk size": "24", "Answer intact?": "✗"},
        {"Chunk size": "26-28", "Answer intact?": "✓"},
        {"Chunk size": "30-32", "Answer intact?": "✗"},
        {"Chunk size": "34-44", "Answer intact?": "✓"},
        {"Chunk size": "46-50", "Answer intact?": "✗"},
        {"Chunk size": "52+", "Answer intact?": "✓"},
    ]
    assert flips(c) == 6


def test_sweep_sizes_include_current_and_stay_above_overlap():
    sizes = sweep_sizes("words", 24)
    assert 24 in sizes and sizes == sorted(sizes) and sizes[0] >= 4
    assert min(sweep_sizes("words", 24, 12)) == 13
    assert 1805 in sweep_sizes("chars", 1805, 150) and min(sweep_sizes("chars", 1800, 150)) > 150
    assert max(sweep_sizes("words", 300)) == 400


def test_a_size_walking_up_its_band_keeps_the_curves_sizes():
    # the drag slider's frames are the curve's sizes: a range that moved at every step
    # would recompute and resend them at every step of a walk up the slider
    for lo, hi in ((24, 60), (61, 120), (121, 180)):
        assert len({tuple(sweep_sizes("words", s)) for s in range(lo, hi + 1)}) == 1
    assert max(sweep_sizes("words", 61)) == 240 and max(sweep_sizes("words", 60)) == 120
    assert max(sweep_sizes("words", 121)) == 360


def test_join_keeps_the_order():
    parts = [list(range(10, 18)), list(range(18, 31)), list(range(31, 40))]
    whole = survival_curve(PLATFORM, AUDIT, "sentence", range(10, 40), unit="words")
    curves = (survival_curve(PLATFORM, AUDIT, "sentence", p, unit="words") for p in parts)
    joined = join_curves(curves)
    assert joined == whole


def test_size_from_selection_reads_dicts_and_attributes():
    assert size_from_selection({"selection": {"points": [{"x": 30.4}]}}) == 30
    assert size_from_selection({"selection": {"points": [{"x": 31}]}}, [28, 30, 32]) == 30
    assert size_from_selection({"selection": {"points": []}}) is None
    assert size_from_selection({}) is None and size_from_selection(None) is None

    class P:
        x = 26

    class Sel:
        points = [P()]

    class Ev:
        selection = Sel()

    assert size_from_selection(Ev()) == 26


def test_lottery_grid_half_overlap_rescues_more_sizes():
    sizes = list(range(10, 80))
    g = lottery_grid(PLATFORM, AUDIT, "words", sizes)
    assert g.fractions[0] == 0.0 and abs(g.fractions[-1] - 0.5) < 1e-9
    assert len(g.intact) == len(g.fractions) and len(g.intact[0]) == len(sizes)
    assert g.share_by_fraction[-1] > g.share_by_fraction[0]
    row0 = dict(zip(g.sizes, g.intact[0], strict=True))
    assert row0[22] == 1 and row0[24] == 0


def test_storage_bill_in_lottery_article_words():
    opts = ChunkOptions(size=24, overlap=0, unit="words")
    chunks = chunk(PLATFORM, "fixed", 24, unit="words")
    bill = storage_bill(chunks, len(chunks), opts)
    assert bill.line == "vectors stored: 8 — no overlap cost"
    assert bill.vector_bytes == 8 * 1536 * 4 and bill.hnsw_bytes == bill.vector_bytes * 1.5
    half = chunk(PLATFORM, "fixed", 24, overlap=12, unit="words")
    bill = storage_bill(half, len(chunks), ChunkOptions(size=24, overlap=12, unit="words"))
    assert (
        bill.line.startswith(f"vectors stored: {len(half)} — ") and "without overlap" in bill.line
    )
    big = storage_bill(chunks, 8, ChunkOptions(size=200, overlap=0, unit="words"))
    assert big.corpus["Chunks"] == "100,000" and big.corpus["Vectors @1536-dim"] == "614 MB"
    assert storage_bill(chunks, 8, ChunkOptions(size=200, overlap=0, unit="chars")).corpus is None


def test_strategy_order():
    assert strategy_names()[:4] == ["structural", "sentence", "recursive", "fixed"]


def test_survival_curve_type_is_shared():
    one = survival_curve(PLATFORM, AUDIT, "fixed", [22], unit="words")
    assert isinstance(join_curves([one]), SurvivalCurve)


def test_thinned_sweep_keeps_the_current_size():
    sizes = sweep_sizes("chars", 1805, 150, max_points=40)
    assert 1805 in sizes and len(sizes) <= 41 and sizes == sorted(sizes)
    assert sweep_sizes("words", 24, max_points=1000) == sweep_sizes("words", 24)


def test_a_curve_and_the_map_give_the_verdict_at_a_setting():
    c = survival_curve(PLATFORM, AUDIT, "fixed", [22, 24], unit="words")
    assert (c.intact_at(22), c.intact_at(24), c.intact_at(23)) == (True, False, None)
    grid = lottery_grid(PLATFORM, AUDIT, "words", [22, 24])
    assert grid.fractions[grid.row(24, 12)] == 0.5 and grid.fractions[grid.row(24, 1)] == 0.05
    # no overlap: the map's first row is the curve
    assert (grid.intact_at(22, 0), grid.intact_at(24, 0), grid.intact_at(23, 0)) == (
        True,
        False,
        None,
    )
