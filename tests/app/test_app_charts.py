"""A slider step changes a chart's data, never its description: the browser then
updates the chart on the page instead of building a new one (what keeps a step quick).
The charts over sizes do not change at all; the charts a step redraws keep their spec."""

import pytest

from tests.app.app_harness import click, open_lab, plotly_specs, set_widget, vega_charts


def _drawn(at):
    specs = [{k: v for k, v in s.items() if k != "datasets"} for s in vega_charts(at)]
    return specs, [s["datasets"] for s in vega_charts(at)]


@pytest.mark.parametrize(
    ("slug", "size", "charts"),
    [
        ("structure", 51, 1),  # the gold-set bars
        ("runts", 1850, 2),  # BM25 per chunk, score against length
        ("integrity", 51, 2),  # recall bars, length histogram
    ],
)
def test_a_size_step_changes_the_data_and_keeps_the_spec(slug, size, charts):
    at = click(open_lab(slug), f"preset_{slug}")
    specs, data = _drawn(at)
    assert len(specs) == charts
    set_widget(at, "slider", "size", size)
    after_specs, after_data = _drawn(at)
    assert after_specs == specs
    assert after_data != data  # the step did change what the charts show


def test_the_survival_curves_do_not_change_with_the_size():
    at = click(open_lab("structure"), "preset_structure")
    before = plotly_specs(at)
    set_widget(at, "slider", "size", 51)
    assert plotly_specs(at) == before
