from datetime import datetime, timezone

import pytest

from lab.notebook import NotebookError, from_json, make_pin, to_json, to_markdown

NOW = datetime(2025, 1, 2, 3, 4, 5, tzinfo=timezone.utc)


def pin(**kw):
    base = dict(lab="boundary", title="Boundary lottery",
                config={"doc": "platform_data", "size": 24, "overlap": 0},
                verdict="✗ answer split across chunks 4 and 5: unretrievable at any k",
                numbers={"chunks": 8, "flips": 6}, note="  first | try  ", now=NOW)
    base.update(kw)
    return make_pin(**base)


def test_json_round_trip():
    pins = [pin(), pin(lab="runts", title="Runts and BM25", note="", numbers={"k1": 1.2})]
    assert from_json(to_json(pins)) == pins
    assert pins[0].note == "first | try" and pins[0].created == "2025-01-02T03:04:05+00:00"


def test_markdown_lists_config_verdict_numbers_and_note():
    md = to_markdown([pin()])
    assert "## 1. Boundary lottery" in md
    assert "Configuration: doc=platform_data, size=24, overlap=0" in md
    assert "**Verdict:** ✗ answer split" in md
    assert "| chunks | 8 |" in md and "> first \\| try" not in md and "> first | try" in md
    assert to_markdown([]).strip().endswith("_No pins yet._")


@pytest.mark.parametrize("text,msg", [
    ("not json", "invalid JSON"), ("[]", "expected"), ('{"format": "x"}', "expected"),
    ('{"format": "chunk-lab-notebook", "pins": 3}', "not a list"),
    ('{"format": "chunk-lab-notebook", "pins": [{"lab": "x"}]}', "pin 1 has no"),
    ('{"format": "chunk-lab-notebook", "pins": [{"lab": "x", "title": "t", "config": []}]}', "config"),
])
def test_bad_notebooks_are_one_line_errors(text, msg):
    with pytest.raises(NotebookError) as e:
        from_json(text)
    assert msg in str(e.value) and "\n" not in str(e.value)
