"""A gold set made from the documents themselves: offline, no model (docs/gate.md).

Three ways the literature asks questions of a text without a language model:

* ``heading``: the section's heading path is the question, its first full
  sentence the passage (TREC CAR asks with heading paths);
* ``cloze``: a sentence is the question and the sentences around it the
  passage, the sentence itself masked out of what must be found (Lee et al.'s
  inverse cloze task);
* ``keywords``: a sentence's rarest words are the question, the sentence the
  passage. In Chinese and Japanese the words are BM25's character bigrams, and
  only a bigram that looks like a word may ask (``_word_like``).

Every passage is a character span of its document, so the set does not depend on
any chunker: the same documents and seed give the same set, whatever chunks they
are cut into later. Questions made this way share words with their passages, so
they favour lexical retrieval; a gold line says how it was made ("generated").
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import zip_longest

from chunkers.pages import page_number
from chunkers.segment import sentence_spans
from chunkers.structural.blocks import parse, plain_title
from chunkers.text import SourceText
from lab.inputs.gold import GoldQuestion, Passage
from lab.retrieval.tokenize import has_cjk, tokenize
from lab.text import collapse_whitespace

from .boilerplate import BoilerplateError, find_boilerplate

KINDS = ("heading", "cloze", "keywords")
HOW = {
    "heading": "the heading path asks for the section's first sentence (TREC CAR)",
    "cloze": "a sentence asks for the sentences around it, itself masked out (inverse cloze task)",
    "keywords": "a sentence's rarest words ask for the sentence",
}
MIN_WORDS = 6  # shorter text is a label or a fragment, not a sentence
KEYWORDS = 4  # rarest words a keyword question keeps
# blocks that hold running text (a table's data rows are asked about apart); code, HTML
# and metadata ask nothing a reader would
TEXT_KINDS = frozenset({"prose", "list", "quote", "admonition"})

Span = tuple[int, int]


class NothingToAsk(ValueError):
    """No sentence long enough to make a question from."""


@dataclass(frozen=True, slots=True)
class _Sentence:
    doc: str
    section: int
    block: int  # the block it sits in: cloze context stays inside one paragraph
    span: Span  # in the document as read
    words: tuple[str, ...]
    row: bool = False  # a table's data row: asked about by its words only


@dataclass(frozen=True, slots=True)
class Made:
    """The questions made, and how many of each kind."""

    questions: list[GoldQuestion]
    counts: dict[str, int]

    def jsonl(self) -> str:
        return "".join(json.dumps(gold_line(q), ensure_ascii=False) + "\n" for q in self.questions)


def gold_line(q: GoldQuestion) -> dict:
    """A generated question as a gold line of the JSON Lines form (lab.inputs.gold)."""
    passages = [{"start": p.start, "end": p.end} for p in q.passages]
    return {"question": q.question, "doc": q.doc, "passages": passages, "generated": q.generated}


def _boilerplate(documents: dict[str, str]) -> dict[str, list[Span]]:
    """Where each document's boilerplate lies (lab.measure.boilerplate's rule)."""
    try:  # chunks are not needed: only where the repeated lines are
        report = find_boilerplate(documents, chunked={n: [] for n in documents})
    except BoilerplateError:  # one document without pages: nothing to compare
        return {}
    out: dict[str, list[Span]] = {}
    for f in report.findings:
        for o in f.occurrences:
            out.setdefault(o.doc, []).append((o.start, o.end))
    return out


def _sentences(name: str, text: str, skip: Sequence[Span]) -> tuple[list[_Sentence], dict]:
    """The document's sentences of running text, and each section's heading path."""
    src = SourceText.of(text)
    parsed = parse(src)
    out = []
    for i, block in enumerate(parsed.blocks):
        if block.kind in TEXT_KINDS:
            pieces, row = sentence_spans(parsed.text, block.start, block.end), False
        elif block.kind == "table":  # its data rows: the parser leaves out header and separator
            pieces, row = list(block.rows), True
        else:
            continue
        for s, e in pieces:
            span = (src.to_source(s), src.to_source(e))
            words = tuple(tokenize(text[span[0] : span[1]]))
            if len(words) < MIN_WORDS or any(a < span[1] and span[0] < b for a, b in skip):
                continue
            out.append(_Sentence(name, block.section, i, span, words, row))
    paths = {
        # a converted page's "Page 3" heading says where, not what: it asks nothing
        n: tuple(plain_title(h) for h in sec.heading_path if h.strip() and page_number(h) is None)
        for n, sec in enumerate(parsed.sections)
    }
    return out, paths


def _heading(s: _Sentence, path: tuple[str, ...]) -> GoldQuestion | None:
    question = collapse_whitespace(" ".join(path))
    if not tokenize(question):
        return None
    return GoldQuestion(question, doc=s.doc, passages=(Passage(start=s.span[0], end=s.span[1]),))


def _cloze(s: _Sentence, before: _Sentence | None, after: _Sentence | None, text: str):
    """The sentence asks; its neighbours in the same block answer, the sentence masked."""
    context = [n.span for n in (before, after) if n is not None and n.block == s.block]
    if not context:
        return None
    question = collapse_whitespace(text[s.span[0] : s.span[1]])
    passages = tuple(Passage(start=a, end=b) for a, b in context)
    return GoldQuestion(question, doc=s.doc, passages=passages)


HIRAGANA = range(0x3040, 0x30A0)
COHESION = 0.3  # a word's two characters are seen together at least this often


def _word_like(sentences: Sequence[_Sentence]) -> set[str]:
    """The CJK bigrams that may ask a keyword question: more likely a word than the
    seam between two.

    -- why -- a bigram found in one sentence only is most often the last character of
    one word and the first of the next; one holding hiragana is most often a Japanese
    ending or particle; and one whose characters appear mostly apart (的类: 的 is
    everywhere) is a seam too. What is left is seen in two sentences or more, and at
    least COHESION of the times its more frequent character appears, it appears in it.
    """
    grams: Counter[str] = Counter()
    chars: Counter[str] = Counter()
    df: Counter[str] = Counter()
    for s in sentences:
        cjk = [w for w in s.words if len(w) == 2 and has_cjk(w)]
        grams.update(cjk)
        df.update(set(cjk))
        chars.update(w[0] for w in cjk)
        if cjk:
            chars[cjk[-1][1]] += 1
    return {
        w
        for w, n in grams.items()
        if df[w] >= 2
        and not any(ord(c) in HIRAGANA for c in w)
        and n >= COHESION * max(chars[w[0]], chars[w[1]])
    }


def _joined(words: Sequence[str]) -> list[str]:
    """The chosen words ("" where not chosen) in sentence order, two neighbouring CJK
    bigrams that overlap written as one run (プロ, ログ -> プログ)."""
    out: list[str] = []
    prev = ""
    for w in words:
        if w and prev and has_cjk(w) and has_cjk(prev) and prev[-1] == w[0]:
            out[-1] += w[1:]
        elif w:
            out.append(w)
        prev = w
    return out


def _keywords(s: _Sentence, idf: dict[str, float], words: set[str]) -> GoldQuestion | None:
    """The sentence's rarest words ask for it; of its CJK bigrams only ``words`` may."""
    held = {w for w in s.words if w in words or not has_cjk(w)}
    rarest = sorted(held, key=lambda w: (-idf[w], w))[:KEYWORDS]
    if len(rarest) < 2:
        return None
    question = " ".join(_joined([w if w in rarest else "" for w in dict.fromkeys(s.words)]))
    return GoldQuestion(question, doc=s.doc, passages=(Passage(start=s.span[0], end=s.span[1]),))


def _spread(groups: dict[tuple[str, int], list], rng: random.Random) -> list:
    """Candidates in an order that visits every document, and within it every section,
    before any twice (documents, sections and sentences shuffled by the seed)."""
    by_doc: dict[str, list[list]] = {}
    for (doc, _), items in groups.items():
        items = list(items)
        rng.shuffle(items)
        by_doc.setdefault(doc, []).append(items)
    docs = list(by_doc)
    rng.shuffle(docs)
    queues = []
    for d in docs:  # a document's own order: one from each of its sections in turn
        sections = by_doc[d]
        rng.shuffle(sections)
        queues.append([x for layer in zip_longest(*sections) for x in layer if x is not None])
    # then one from each document in turn
    return [x for layer in zip_longest(*queues) for x in layer if x is not None]


def make_gold(documents: dict[str, str], n: int, seed: int = 0) -> Made:
    """``n`` questions over ``documents`` (name -> text), as evenly as the kinds,
    documents and sections allow.

    Args:
        seed: the shuffle's seed: the same documents and seed give the same questions.

    Returns:
        The questions (fewer than ``n`` when the documents hold fewer), and how
        many of each kind.

    Raises:
        NothingToAsk: no document has a sentence of MIN_WORDS words outside code
            and boilerplate.
        ValueError: ``n`` below 1.
    """
    if n < 1:
        raise ValueError(f"the number of questions must be at least 1, got {n}")
    skip = _boilerplate(documents)
    sentences: list[_Sentence] = []
    paths: dict[str, dict] = {}
    for name, text in documents.items():
        found, paths[name] = _sentences(name, text, skip.get(name, []))
        sentences += found
    if not sentences:
        raise NothingToAsk(
            f"no sentence of at least {MIN_WORDS} words outside code and boilerplate: "
            "nothing to ask"
        )
    df = Counter(w for s in sentences for w in set(s.words))
    idf = {w: math.log(len(sentences) / c) for w, c in df.items()}
    words = _word_like(sentences)
    made: dict[str, dict[tuple[str, int], list[GoldQuestion]]] = {k: {} for k in KINDS}
    seen_section: set[tuple[str, int]] = set()
    for i, s in enumerate(sentences):
        key = (s.doc, s.section)
        prev = sentences[i - 1] if i and sentences[i - 1].doc == s.doc else None
        nxt = sentences[i + 1] if i + 1 < len(sentences) and sentences[i + 1].doc == s.doc else None
        path = paths[s.doc].get(s.section, ())
        prose = not s.row  # a table row is no section's key sentence, nor a cloze
        asked = {
            "heading": _heading(s, path) if prose and path and key not in seen_section else None,
            "cloze": _cloze(s, prev, nxt, documents[s.doc]) if prose else None,
            "keywords": _keywords(s, idf, words),
        }
        if prose:
            seen_section.add(key)
        for kind, q in asked.items():
            if q is not None:
                made[kind].setdefault(key, []).append(q)
    return _choose(made, n, random.Random(seed))


def _choose(made: dict, n: int, rng: random.Random) -> Made:
    """``n`` questions, the kinds in equal shares (a kind short of its share leaves
    the rest to the others), each spread over documents and sections."""
    pools = {kind: iter(_spread(made[kind], rng)) for kind in KINDS}
    taken: dict[str, list[GoldQuestion]] = {k: [] for k in KINDS}
    asked: set[tuple[str, str]] = set()
    live = list(KINDS)
    while live and sum(map(len, taken.values())) < n:
        for kind in list(live):  # one of each kind in turn
            q = next((q for q in pools[kind] if _key(q) not in asked), None)
            if q is None:  # this kind has nothing left to ask
                live.remove(kind)
                continue
            asked.add(_key(q))
            taken[kind].append(GoldQuestion(q.question, "", q.doc, q.passages, None, kind))
            if sum(map(len, taken.values())) == n:
                break
    questions = [q for kind in KINDS for q in taken[kind]]
    return Made(questions, {k: len(v) for k, v in taken.items()})


def _key(q: GoldQuestion) -> tuple[str, str]:
    return " ".join(q.question.casefold().split()), q.doc
