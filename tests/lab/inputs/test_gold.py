"""Gold sets: good lines used, bad lines reported by number, unusable files refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab.inputs.gold import BadGoldLine, GoldFileError, GoldQuestion, load_gold, parse_gold_text
from lab.measure.survival import find_answer
from tests.support import SAMPLES

MIXED = "\n".join(
    [
        '{"question": "q1?", "answer": "a1"}',
        "",
        '{"question": "q2?", "answer": "a2", "doc": "support_kb.md", "extra": 1}',
        '{"question": "broken", "answer": ',
        '["question", "answer"]',
        '{"answer": "a6"}',
        '{"question": "q7?", "answer": 7}',
        '{"question": "q8?", "answer": "   "}',
        '{"question": "q9?", "answer": "a9", "doc": 3}',
        "   ",
        '{"question": "q11?", "answer": "a11", "doc": null}\r',
        '"just a string"',
    ]
)


def test_malformed_lines_are_reported_and_good_lines_kept() -> None:
    gold = parse_gold_text(MIXED, "mixed.jsonl")
    assert gold.questions == [
        GoldQuestion("q1?", "a1", line=1),
        GoldQuestion("q2?", "a2", "support_kb.md", line=3),
        GoldQuestion("q11?", "a11", line=11),
    ]
    assert [(e.line, e.message) for e in gold.bad_lines] == [
        (4, "not valid JSON (Expecting value at column 34)"),
        (5, 'expected a JSON object like {"question": "...", "answer": "..."}, got a list'),
        (6, 'missing "question"; each line needs {"question": "...", "answer": "..."}'),
        (7, '"answer" must be a string, got a number'),
        (8, '"answer" is empty'),
        (9, '"doc" must be a string naming a document, got a number'),
        (12, 'expected a JSON object like {"question": "...", "answer": "..."}, got a string'),
    ]
    assert str(gold.bad_lines[0]) == "line 4: not valid JSON (Expecting value at column 34)"
    assert all("\n" not in e.message for e in gold.bad_lines)


def test_bytes_upload_with_bom_and_crlf() -> None:
    line = '{"question": "caf\u00e9?", "answer": "na\u00efve"}\r\n\r\n'
    data = b"\xef\xbb\xbf" + line.encode("utf-8")
    gold = parse_gold_text(data, "up.jsonl")
    assert (
        gold.questions == [GoldQuestion("caf\u00e9?", "na\u00efve", line=1)]
        and gold.bad_lines == []
    )


def test_line_separator_inside_a_string_is_not_a_line_break() -> None:
    first = json.dumps({"question": "q", "answer": "a\u2028b"}, ensure_ascii=False)
    text = first + "\n" + '{"question": "q2", "answer": "c"}'
    gold = parse_gold_text(text)
    assert [p.line for p in gold.questions] == [1, 2] and gold.questions[0].answer == "a\u2028b"


def test_not_utf8_is_a_clear_error(tmp_path: Path) -> None:
    p = tmp_path / "gold.jsonl"
    p.write_bytes('{"question": "caf\u00e9?", "answer": "x"}'.encode("cp1252"))
    expected = r"gold\.jsonl is not UTF-8 \(byte 0xE9 at offset 17; it looks like Windows-1252\)"
    with pytest.raises(GoldFileError, match=expected):
        load_gold(p)
    with pytest.raises(GoldFileError, match="not UTF-8 .*UTF-16"):
        parse_gold_text('{"question": "q", "answer": "a"}'.encode("utf-16"), "u.jsonl")


def test_missing_and_empty_files(tmp_path: Path) -> None:
    with pytest.raises(GoldFileError, match="was not found"):
        load_gold(tmp_path / "none.jsonl")
    with pytest.raises(GoldFileError, match="is a folder"):
        load_gold(tmp_path)
    (tmp_path / "empty.jsonl").write_bytes(b"")
    assert load_gold(tmp_path / "empty.jsonl").questions == []
    assert isinstance(GoldFileError("x"), ValueError)


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.gold.jsonl")), ids=lambda p: p.name)
def test_sample_gold_sets_are_clean_and_their_answers_are_in_their_documents(path: Path) -> None:
    gold = load_gold(path)
    assert gold.bad_lines == [] and len(gold.questions) >= 5
    doc = (SAMPLES / path.name.replace(".gold.jsonl", ".md")).read_text(encoding="utf-8")
    for pair in gold.questions:
        find_answer(doc, pair.answer)


def test_gold_error_is_printable() -> None:
    assert str(BadGoldLine(3, "bad")) == "line 3: bad"
