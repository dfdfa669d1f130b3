"""Every word a student may not know (ui.present.glossary) is explained where it appears: on
each lab's example view, every glossary term the page uses has its one line in a
help tooltip on that page."""

from urllib.parse import parse_qsl

import pytest

from bench.browser import VIEWS
from tests.app.app_harness import all_text, open_app, plotly_specs, vega_charts
from ui.present import glossary
from ui.present.urlstate import LABS


def _nodes(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _nodes(child)


def _elements(at):
    for root in (at.main, at.sidebar):
        yield from _nodes(root)


def _helps(at) -> str:
    return "\n".join(
        e.proto.help for e in _elements(at) if getattr(getattr(e, "proto", None), "help", "")
    )


def _shown(at) -> str:
    """The page's words: its text, labels, tables' headers and row names, chart titles."""
    parts = [all_text(at)]
    for e in _elements(at):
        label = getattr(getattr(e, "proto", None), "label", "")
        if isinstance(label, str):
            parts.append(label)
    for table in list(at.get("table")) + list(at.dataframe):
        df = table.value
        parts += [str(c) for c in df.columns]
        if len(df.columns):
            parts += [str(v) for v in df.iloc[:, 0]]
    for spec in vega_charts(at):  # a chart's title, and a note written on it
        parts.append(str(spec.get("title", "")))
        parts += [str(row.get("line", "")) for row in spec["datasets"].get("note", [])]
    parts += [str(s["layout"].get("title", {}).get("text", "")) for s in plotly_specs(at)]
    return "\n".join(parts)


def _view(n: int) -> dict[str, str]:
    path, _, query = VIEWS[n].partition("?")
    return {"lab": LABS[n - 1].slug, **dict(parse_qsl(query))}


@pytest.mark.parametrize("n", range(1, len(LABS) + 1), ids=[lab.slug for lab in LABS])
def test_every_term_a_lab_uses_is_explained_on_it(n):
    at = open_app(**_view(n))
    used = glossary.terms_in(_shown(at))
    helps = _helps(at)
    assert [t.name for t in used if t.line not in helps] == []


def test_the_labs_use_the_words_the_teacher_asked_about():
    """The test above can fail: these words are on the labs' example views."""
    seen = set()
    for n in range(1, len(LABS) + 1):
        seen |= {t.name for t in glossary.terms_in(_shown(open_app(**_view(n))))}
    asked = {"HNSW", "@1536-dim", "stride", "cap at the floor", "p1, p5", "MRR", "recall@k"}
    assert asked | {"atomic-element violations"} <= seen
