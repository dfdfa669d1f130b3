"""Gold files with passages: JSONL lines and CSV rows, good and bad."""

from __future__ import annotations

import pytest

from lab.inputs.gold import (
    GoldFileError,
    GoldQuestion,
    Passage,
    load_gold,
    parse_gold_csv,
    parse_gold_text,
)
from tests.support import ROOT

DATA = ROOT / "tests" / "data"


def test_a_line_may_list_passages_by_text_and_by_span() -> None:
    gold = parse_gold_text(
        '{"question": "q?", "doc": "a.md", "passages": [{"text": "t"}, {"start": 3, "end": 9}]}'
    )
    assert gold.bad_lines == []
    assert gold.questions == [
        GoldQuestion("q?", "", "a.md", (Passage("t", line=1), Passage(None, 3, 9, 1)), line=1)
    ]


@pytest.mark.parametrize(
    "passages,message",
    [
        ("[]", '"passages" must be a non-empty list'),
        ('"text"', '"passages" must be a non-empty list'),
        ('[{"text": "t", "start": 1, "end": 2}]', "passage 1: give its text or its start/end"),
        ('[{"start": 4}]', "passage 1 needs"),
        ('[{"start": 4, "end": 4}]', 'passage 1: "end" (4) must be after "start" (4)'),
        ('[{"start": -1, "end": 4}]', '"start" must be at least 0'),
        ('[{"start": true, "end": 4}]', '"start" must be a whole number of characters'),
        ('[{"start": 1.5, "end": 4}]', '"start" must be a whole number of characters'),
        ('[{"text": "  "}]', '"text" is empty'),
        ('["t"]', "passage 1 must be an object"),
    ],
)
def test_a_bad_passage_names_its_line(passages: str, message: str) -> None:
    good = '{"question": "q?", "answer": "a"}'
    gold = parse_gold_text(good + '\n{"question": "q?", "passages": ' + passages + "}")
    assert gold.questions == [GoldQuestion("q?", "a", line=1)]
    (error,) = gold.bad_lines
    assert error.line == 2 and message in error.message and "\n" not in error.message


def test_answer_and_passages_together_is_a_bad_line() -> None:
    gold = parse_gold_text('{"question": "q?", "answer": "a", "passages": [{"text": "t"}]}')
    assert gold.bad_lines[0].message == 'give "answer" or "passages", not both'


def test_csv_rows_of_one_question_make_one_gold_question() -> None:
    text = (
        "question,doc,answer,text,start,end\n"
        "q1?,a.md,,first,,\n"
        "q2?,b.md,the answer,,,\n"
        "q1?,a.md,,,10,20\n"
        "q1?,b.md,,other doc,,\n"
    )
    gold = parse_gold_csv(text)
    assert gold.bad_lines == []
    assert gold.questions == [
        GoldQuestion(
            "q1?", "", "a.md", (Passage("first", line=2), Passage(None, 10, 20, 4)), line=2
        ),
        GoldQuestion("q2?", "the answer", "b.md", line=3),
        GoldQuestion("q1?", "", "b.md", (Passage("other doc", line=5),), line=5),
    ]


def test_a_bad_csv_row_names_its_line_and_the_rest_is_used() -> None:
    text = 'question,doc,text,start,end\nq?,a.md,,x,9\n"multi\nline?",a.md,t,,\nq?,a.md,,5,2\n'
    gold = parse_gold_csv(text)
    assert [(e.line, e.message) for e in gold.bad_lines] == [
        (2, "\"start\" must be a whole number of characters, got 'x'"),
        (5, 'passage 1: "end" (2) must be after "start" (5)'),
    ]
    assert [p.line for p in gold.questions] == [3]


def test_a_csv_without_the_needed_columns_is_refused() -> None:
    with pytest.raises(GoldFileError, match="needs a header row with question"):
        parse_gold_csv("q,a\nx,y\n", "g.csv")


def test_the_shipped_csv_says_what_the_shipped_jsonl_says() -> None:
    def content(p: GoldQuestion) -> tuple:  # everything but the line numbers
        return p.question, p.answer, p.doc, tuple((x.text, x.start, x.end) for x in p.passages)

    csv_pairs = load_gold(DATA / "httpx.gold.csv").questions
    assert len(csv_pairs) == 5
    assert [content(p) for p in csv_pairs] == [
        content(p) for p in load_gold(DATA / "httpx.gold.jsonl").questions
    ]
