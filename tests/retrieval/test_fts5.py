from __future__ import annotations

import re
import sqlite3

import pytest

import lab.retrieval.fts5 as fts5_mod
from lab.retrieval.bm25_variants import chunk_scores
from lab.retrieval.fts5 import (
    Fts5Unavailable,
    fts5_scores,
    match_expression,
)
from lab.retrieval.tokenize import words_unicode61
from tests.support import make_chunk as make
from tests.support import rank_of


def filler(tag: str, n: int) -> str:
    return " ".join(f"{tag}{j}" for j in range(n))


fts5_rank = rank_of


CHUNKS = [
    make(0, "Audit logs are retained for four hundred days.", ("Platform", "Data Retention")),
    make(1, "Refunds are available within 30 days of purchase.", ("Billing", "Refunds")),
    make(2, "Reserved instances cost less per hour.", ("Compute pricing",)),
    make(3, "Support is open on weekdays.", ("Support",)),
]


def test_matching_chunks_rank_1_to_m_and_the_rest_get_none():
    scores = fts5_scores(CHUNKS, "refunds for annual plans within days")
    assert [s.index for s in scores] == [0, 1, 2, 3]
    assert fts5_rank(scores, 1) == 1  # refunds + within + days
    assert fts5_rank(scores, 0) == 2  # days only
    assert fts5_rank(scores, 2) is None and fts5_rank(scores, 3) is None
    assert all(s.score < 0 for s in scores if s.score is not None)  # FTS5: lower is better


def test_heading_path_column_switch():
    on = fts5_scores(CHUNKS, "retention", heading_path=True)
    off = fts5_scores(CHUNKS, "retention", heading_path=False)
    assert fts5_rank(on, 0) == 1
    assert all(s.rank is None for s in off)


def test_overlap_column_switch():
    chunks = [
        make(0, "which are refundable within 14 days.", overlap="except for annual plans,"),
        make(1, "Support is open on weekdays."),
    ]
    assert fts5_rank(fts5_scores(chunks, "annual", overlap=True), 0) == 1
    assert fts5_rank(fts5_scores(chunks, "annual", overlap=False), 0) is None


def test_column_weights_change_the_winner():
    chunks = [
        make(0, "kept for four hundred days", ("Retention",)),
        make(1, "retention is four hundred days for logs", ("Audit",)),
        make(2, "pricing", ("Pricing",)),
        make(3, "support", ("Support",)),
    ]
    assert fts5_rank(fts5_scores(chunks, "retention", weights=(10, 1, 1)), 0) == 1
    assert fts5_rank(fts5_scores(chunks, "retention", weights=(1, 1, 10)), 1) == 1


def test_fts5_and_rank_bm25_agree_on_a_clear_case():
    chunks = [make(i, filler(f"w{i}x", 20)) for i in range(5)]
    chunks[3] = make(3, "mumbai revenue mumbai " + filler("m", 10))
    bm = chunk_scores(chunks, "Mumbai revenue")
    fx = fts5_scores(chunks, "Mumbai revenue")
    assert rank_of(bm, 3) == 1 and fts5_rank(fx, 3) == 1
    assert [s.rank for s in fx if s.rank is not None] == [1]  # only chunk 3 matches


def test_chunker_spec_orphan_first_and_table_last_in_fts5_too():
    chunks = [
        make(0, "| Mumbai | FY24 | 18,412 | 4.2% |"),
        make(1, "Mumbai " + filler("c", 60)),
        make(2, "Mumbai " + filler("p", 180)),
        make(3, "Mumbai " + filler("t", 270)),
    ]
    scores = fts5_scores(chunks, "Mumbai")
    assert [fts5_rank(scores, i) for i in range(4)] == [1, 2, 3, 4]
    bm = chunk_scores(chunks, "Mumbai")
    assert [rank_of(bm, i) for i in range(4)] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    "question",
    [
        'refunds" OR body:*',
        "refunds AND (NOT",
        "NEAR(refunds days, 2)",
        "refunds*",
        "^refunds",
        '"""refunds"',
        "refunds -days + {heading_path}: x",
        "body : refunds ; DROP TABLE chunks",
    ],
)
def test_match_is_safe_against_fts5_syntax_in_the_question(question):
    expr = match_expression(question)
    assert re.fullmatch(r'"[^"\s]+"( OR "[^"\s]+")*', expr)
    scores = fts5_scores(CHUNKS, question)  # would raise sqlite3.OperationalError if injected
    assert fts5_rank(scores, 1) == 1


def test_match_expression_is_quoted_or_of_unique_tokens():
    assert match_expression('Mumbai" NEAR Mumbai*') == '"mumbai" OR "near"'


def test_question_without_words_raises():
    with pytest.raises(ValueError, match="question has no searchable words"):
        fts5_scores(CHUNKS, '"" () * ^')
    assert fts5_scores([], "mumbai") == []


def test_missing_fts5_raises_a_clear_error(monkeypatch):
    class NoFts5:
        def execute(self, *args):
            raise sqlite3.OperationalError("no such module: fts5")

        def close(self):
            pass

    monkeypatch.setattr(fts5_mod.sqlite3, "connect", lambda *a, **k: NoFts5())
    with pytest.raises(Fts5Unavailable) as info:
        fts5_scores(CHUNKS, "refunds")
    assert "no FTS5" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        "What was Mumbai's FY24 revenue? | Mumbai | FY24 | 18,412 | 4.2% |",
        "Déjà vu: RÉSUMÉ naïve café, Straße and İstanbul; ÆØÅ",
        "state-of-the-art AC/DC e-mail user@example.com v1.2.3 snake_case 50%",
        "Москва ПРИВЕТ, Ελλάδα, 東京タワー, 한국어 텍스트",
        "x≠y ≤ 3 ﬁne x² Ⅲ ệ ǖ e\u0301te\u0301",
    ],
)
def test_tokenizer_matches_fts5_unicode61(text):
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='unicode61')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    conn.execute("INSERT INTO t VALUES (?)", (text,))
    fts5_tokens = [row[0] for row in conn.execute("SELECT term FROM v ORDER BY offset")]
    conn.close()
    assert words_unicode61(text) == fts5_tokens
