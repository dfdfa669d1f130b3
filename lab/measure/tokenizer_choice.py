"""The same question ranked by BM25 over three tokenizations of the same chunks: why a
tokenizer is part of the chunking decision.

* ``words``: words between spaces and punctuation, as SQLite FTS5's default
  ``unicode61`` and most BM25 libraries split (``words_unicode61``). A run of Chinese
  or Japanese is one "word" there, so a question shares almost none with its answer.
* ``bigrams``: the lab's own tokenizer, overlapping character bigrams for Han, kana
  and Hangul (``lab.retrieval.tokenize``), as Lucene's CJK analyzer splits.
* ``model``: the embedding model's own tokens (``cl100k_base`` by default), as a
  pipeline that indexes what its tokenizer gives would split: a common Chinese
  character is one token, a rarer one several byte pieces.

Everything else is held fixed: the chunks, k1, b and the lucene IDF.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chunkers import Chunk, chunk, indexed_text
from chunkers.tokens import DEFAULT_TOKENIZER, tokenizer_for
from lab.retrieval.bm25 import DEFAULT_PARAMS, model_scores, rank_bm25, ranks_from
from lab.retrieval.tokenize import tokenize, words_unicode61

from .survival import holds

WORDS, BIGRAMS, MODEL = "words", "bigrams", "model"
TOKENIZATIONS = (WORDS, BIGRAMS, MODEL)


def model_tokens(text: str, tokenizer: str = DEFAULT_TOKENIZER) -> list[str]:
    """The pieces of ``text`` the model's tokenizer cuts it into, lowercased, without
    the pieces that are only spaces or punctuation (BM25 would not search for them)."""
    offsets = tokenizer_for(tokenizer).offsets(text)
    pieces = (text[s:e].strip().lower() for s, e in zip(offsets.starts, offsets.ends, strict=True))
    return [p for p in pieces if any(ch.isalnum() for ch in p)]


def splitter(name: str, tokenizer: str = DEFAULT_TOKENIZER) -> Callable[[str], list[str]]:
    """The tokenization ``name`` (one of TOKENIZATIONS) as a function of a text."""
    if name == WORDS:
        return words_unicode61
    if name == BIGRAMS:
        return tokenize
    if name == MODEL:
        return lambda text: model_tokens(text, tokenizer)
    raise ValueError(f"tokenization must be one of {', '.join(TOKENIZATIONS)}, got {name!r}")


@dataclass(frozen=True, slots=True)
class TokenizedRank:
    """One question ranked by BM25 over one tokenization of the chunks."""

    tokenization: str
    question_tokens: tuple[str, ...]
    shared: int  # of the question's distinct tokens, how many the answer's chunk holds
    answer_rank: int | None  # the best rank of a chunk holding the answer; None: none does
    matching_chunks: int  # chunks sharing at least one token with the question


def rank_by_tokenizations(
    chunks: Sequence[Chunk],
    question: str,
    answer: str,
    *,
    tokenizer: str = DEFAULT_TOKENIZER,
) -> list[TokenizedRank]:
    """The answer's chunk's rank under each of TOKENIZATIONS (lucene BM25, the lab's
    k1 and b), and how many of the question's tokens it shares."""
    texts = [indexed_text(c) for c in chunks]
    holding = [i for i, c in enumerate(chunks) if holds(c, answer)]
    out = []
    for name in TOKENIZATIONS:
        split = splitter(name, tokenizer)
        docs = [split(t) for t in texts]
        q = split(question)
        distinct = tuple(dict.fromkeys(q))
        if not q or not any(docs):
            scores = [0.0] * len(docs)
        else:
            scores = [float(s) for s in model_scores(rank_bm25(docs, DEFAULT_PARAMS), q)]
        ranks = ranks_from(scores, [c.index for c in chunks])
        best = min(holding, key=ranks.__getitem__) if holding else None
        held = set(docs[best]) if best is not None else set()
        out.append(
            TokenizedRank(
                name,
                distinct,
                sum(1 for t in distinct if t in held),
                ranks[best] if best is not None else None,
                sum(1 for d in docs if set(d) & set(distinct)),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class TokenizerLesson:
    """A gold set's questions, each ranked under every tokenization, over one chunking."""

    chunks: int
    questions: tuple[str, ...]
    ranks: tuple[tuple[TokenizedRank, ...], ...]  # per question, in TOKENIZATIONS order

    def first(self, name: str) -> int:
        """How many questions the tokenization ``name`` ranks the answer's chunk first for."""
        at = TOKENIZATIONS.index(name)
        return sum(1 for per in self.ranks if per[at].answer_rank == 1)


def tokenizer_lesson(
    text: str,
    pairs: Sequence[tuple[str, str]],
    *,
    strategy: str = "structural",
    size: int = 200,
    unit: str = "chars",
    tokenizer: str = DEFAULT_TOKENIZER,
) -> TokenizerLesson:
    """Every (question, answer) of ``pairs`` ranked under each tokenization, the text
    chunked once (``strategy`` at ``size`` ``unit``, no overlap)."""
    chunks = chunk(text, strategy, size, 0, unit=unit)
    per = tuple(tuple(rank_by_tokenizations(chunks, q, a, tokenizer=tokenizer)) for q, a in pairs)
    return TokenizerLesson(len(chunks), tuple(q for q, _ in pairs), per)
