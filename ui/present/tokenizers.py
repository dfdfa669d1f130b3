"""Lab 4's tokenizer lesson as a page shows it: a table of ranks and the lines under it.

The ranks come from lab.measure.tokenizer_choice; here they become rows and sentences.
"""

from __future__ import annotations

from lab.measure.tokenizer_choice import BIGRAMS, MODEL, WORDS, TokenizerLesson

LESSON_DOC = "rust_variables_zh"  # a sample without spaces between its words
LESSON_SIZE = 200  # characters: a few sentences of Chinese
COLUMNS = {
    WORDS: "words between spaces",
    BIGRAMS: "character bigrams",
    MODEL: "model tokens (cl100k_base)",
}


def _rank(r: int | None) -> str:
    return "—" if r is None else f"#{r}"


def lesson_rows(lesson: TokenizerLesson) -> list[dict]:
    """One row per question: where the answer's chunk ranks under each tokenization."""
    return [
        {
            "question": q,
            **{f"rank: {COLUMNS[t.tokenization]}": _rank(t.answer_rank) for t in per},
        }
        for q, per in zip(lesson.questions, lesson.ranks, strict=True)
    ]


def lesson_summary(lesson: TokenizerLesson) -> str:
    """One sentence: how often each tokenization ranks the answer's chunk first."""
    n = len(lesson.questions)
    counts = ", ".join(f"{lesson.first(t)} with {COLUMNS[t]}" for t in COLUMNS)
    return (
        f"Of {n} questions over the same {lesson.chunks} chunks, BM25 ranks the answer's "
        f"chunk first for {counts}."
    )


def tokens_line(lesson: TokenizerLesson, question: int = 0) -> str:
    """How one question is split three ways, as the class should see it."""
    per = lesson.ranks[question]
    parts = [
        f"{COLUMNS[t.tokenization]}: {' · '.join(t.question_tokens)} "
        f"({t.shared} of {len(t.question_tokens)} in the answer's chunk)"
        for t in per
    ]
    return f"“{lesson.questions[question]}” is split as " + "; ".join(parts) + "."


WHY = (
    "Chinese and Japanese put no space between words. Split at spaces, a whole clause is "
    "one token, so a question shares no token with its answer and BM25 ranks at random. "
    "Character bigrams (each two neighbouring characters, as Lucene's CJK analyzer "
    "splits) match the one- and two-character words most Chinese words are. A model's "
    "own tokens are mostly single characters here: they match too, but so do many chunks "
    "that merely share common characters. The tokenizer decides which chunks can be found "
    "at all, so it is part of the chunking decision: choose it with the chunk size, not "
    "after."
)
