"""BM25 on Chinese and Japanese: the lab's three variants against a plain bigram BM25.

    python -m bench.cjk_recall             # the Rust book in Chinese and in Japanese, k = 10
    python -m bench.cjk_recall --size 100 --n 400

The documents are the Rust book's Chinese and Japanese translations (chapters 1-9,
../shared/corpus-cjk), chunked by the structural chunker at ``--size`` characters.
The questions are written by people where there are any (the two samples' gold
sets, over the samples) and otherwise made by ``lab gold`` from the book, only the
kinds that do not depend on a tokenizer: heading paths and cloze sentences (a
keyword question is made of the tokenizer's own tokens and would favour it).

Each set is ranked by the lab's BM25 in its three variants (lucene, okapi, fts5), by
a plain bigram BM25 written here from the textbook formula (every two neighbouring
CJK characters a term, other words as they are, Lucene's IDF; independent of
lab.retrieval), and by BM25 over words between spaces, as the lab ranked before it
read CJK. docs/retrieval.md reports the figures.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from chunkers import ChunkOptions  # noqa: E402
from lab.inputs.gold import GoldQuestion, load_gold  # noqa: E402
from lab.inputs.samples import SAMPLES_DIR  # noqa: E402
from lab.measure.integrity import IntegrityReport, check_judged  # noqa: E402
from lab.measure.questions import make_gold  # noqa: E402
from lab.retrieval.bm25 import (  # noqa: E402
    BM25_VARIANTS,
    DEFAULT_PARAMS,  # noqa: E402
    model_scores,
    rank_bm25,
)
from lab.retrieval.bm25_variants import Bm25Retriever  # noqa: E402
from lab.retrieval.interface import Index, Retriever  # noqa: E402
from lab.retrieval.tokenize import words_unicode61  # noqa: E402

CJK_CORPUS = ROOT.parent / "shared" / "corpus-cjk"
BOOKS = {"Chinese": "trpl-zh-cn", "Japanese": "book-ja"}
SAMPLE = {"Chinese": "rust_variables_zh", "Japanese": "rust_variables_ja"}
K1, B = 1.2, 0.75

# -- written here on purpose, not imported: the reference must not share the lab's code
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TERM = re.compile(f"[{_CJK}]+|[^\\W_{_CJK}]+")


def plain_bigrams(text: str) -> list[str]:
    """Each run of CJK characters as its overlapping bigrams (a lone one as itself);
    every other run of letters and digits as one lowercased word."""
    out: list[str] = []
    for run in _TERM.findall(text.lower()):
        if re.fullmatch(f"[{_CJK}]+", run):
            out += [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]
        else:
            out.append(run)
    return out


class _PlainIndex(Index):
    def __init__(self, texts: Sequence[str], label: str) -> None:
        self.label = label
        self.size = len(texts)
        self._docs = [Counter(plain_bigrams(t)) for t in texts]
        lengths = np.array([sum(d.values()) for d in self._docs], dtype=float)
        self._norm = 1 - B + B * lengths / max(lengths.mean(), 1e-9)
        df = Counter(t for d in self._docs for t in d)
        n = len(texts)
        self._idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}

    def scores(self, question: str) -> np.ndarray:
        out = np.zeros(self.size)
        for term in plain_bigrams(question):
            idf = self._idf.get(term)
            if idf is None:
                continue
            tf = np.array([d.get(term, 0) for d in self._docs], dtype=float)
            out += idf * tf * (K1 + 1) / (tf + K1 * self._norm)
        return out


class _WordsIndex(Index):
    def __init__(self, texts: Sequence[str], label: str) -> None:
        self.label = label
        self.size = len(texts)
        docs = [words_unicode61(t) for t in texts]
        self._model = rank_bm25(docs, DEFAULT_PARAMS) if any(docs) else None

    def scores(self, question: str) -> np.ndarray:
        if self._model is None:
            return np.zeros(self.size)
        return model_scores(self._model, words_unicode61(question))


class Reference(Retriever):
    """A reference judge of this benchmark's own: a name, a label and its index."""

    def __init__(self, name: str, label: str, index: Callable[[Sequence[str], str], Index]):
        self.name = name
        self._label = label
        self._index = index

    @property
    def label(self) -> str:
        return self._label

    def index(self, texts: Sequence[str]) -> Index:
        return self._index(texts, self._label)


def book(language: str) -> dict[str, str]:
    folder = CJK_CORPUS / BOOKS[language] / "src"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.md"))}


def generated(docs: dict[str, str], n: int, seed: int) -> list[GoldQuestion]:
    made = make_gold(docs, n * 3 // 2, seed=seed).questions  # a third are keyword questions
    return [q for q in made if q.generated in ("heading", "cloze")][:n]


def written(language: str) -> tuple[dict[str, str], list[GoldQuestion]]:
    name = SAMPLE[language]
    text = (SAMPLES_DIR / f"{name}.md").read_text(encoding="utf-8")
    gold = load_gold(SAMPLES_DIR / f"{name}.gold.jsonl")
    return {f"{name}.md": text}, [replace(q, doc=f"{name}.md") for q in gold.questions]


def reports(
    docs: dict[str, str], gold: list[GoldQuestion], size: int, k: int, words: bool = True
) -> list[IntegrityReport]:
    """The gold set checked once per judge over the same chunks: the three variants,
    the plain bigram BM25, and (``words``) BM25 over words between spaces."""
    judges: list[Retriever] = [Bm25Retriever(v) for v in BM25_VARIANTS]
    # -- BM25 over plain character bigrams, from the formula (the reference), and lucene
    # -- BM25 over words between spaces and punctuation (the lab before bigrams)
    plain = Reference("plain-bigrams", "plain bigram BM25", _PlainIndex)
    between_spaces = Reference("words", "BM25 over words between spaces", _WordsIndex)
    judges += [plain, *([between_spaces] if words else [])]
    opts = ChunkOptions(size=size, overlap=0)
    return check_judged(docs, gold, "structural", opts, retrievers=judges, k=k)


def recalls(
    docs: dict[str, str], gold: list[GoldQuestion], size: int, k: int, words: bool = True
) -> dict[str, float]:
    """Each judge's recall@k, by its label."""
    return {r.retriever: r.recall_at(k) for r in reports(docs, gold, size, k, words)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=200, help="chunk size in characters")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--n", type=int, default=200, help="generated questions per book")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if not CJK_CORPUS.is_dir():
        sys.exit(f"no CJK corpus at {CJK_CORPUS}: the benchmark needs it")
    for language in BOOKS:
        docs = book(language)
        sets = {
            f"{language} sample, written": written(language),
            f"{language} book, generated": (docs, generated(docs, args.n, args.seed)),
        }
        for title, (d, gold) in sets.items():
            got = recalls(d, gold, args.size, args.k)
            ref = got["plain bigram BM25"]
            print(f"{title}: {len(gold)} questions, structural {args.size} chars, k={args.k}")
            for label, value in got.items():
                gap = "" if label == "plain bigram BM25" else f"  ({value - ref:+.2f})"
                print(f"  recall@{args.k} {value:.2f}  {label}{gap}")


if __name__ == "__main__":
    main()
