"""Gold sets: question/answer pairs, one JSON object a line (sample_docs/*.gold.jsonl).

A malformed line is reported with its line number and the good lines are still
used: one typo should not hide a whole gold set, nor vanish without a word.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .documents import DocumentError, decode
from .tokenize import tokenize


@dataclass(frozen=True, slots=True)
class GoldPair:
    question: str
    answer: str
    line: int  # 1-based line in the gold file
    doc: str | None = None  # the document the answer is in, when the set spans several


@dataclass(frozen=True, slots=True)
class GoldError:
    line: int  # 1-based
    message: str  # one line, without the line number

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True, slots=True)
class GoldSet:
    pairs: list[GoldPair] = field(default_factory=list)
    errors: list[GoldError] = field(default_factory=list)

    def problem_line(self, name: str, shown: int = 10) -> str:
        """One line for the reader: the first bad line and why, the numbers of
        the other bad lines, and how many good lines are used ("" if none bad)."""
        if not self.errors:
            return ""
        first, rest = self.errors[0], self.errors[1:]
        out = f"{name} line {first.line}: {first.message}"
        if rest:
            numbers = ", ".join(str(e.line) for e in rest[:shown])
            more = f" and {len(rest) - shown} more" if len(rest) > shown else ""
            out += f"; also skipped: line(s) {numbers}{more}"
        return out + f"; {len(self.pairs)} good line(s) used"


class GoldFileError(DocumentError):
    """The gold file as a whole cannot be read (missing, binary, not UTF-8)."""


_EXAMPLE = '{"question": "...", "answer": "..."}'


def _json_type(value: object) -> str:
    names = {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "true/false",
        int: "a number",
        float: "a number",
        type(None): "null",
    }
    return names.get(type(value), type(value).__name__)


def _check(obj: object) -> tuple[str, str, str | None] | str:
    """The pair's fields, or a one-line reason the line is unusable."""
    if not isinstance(obj, dict):
        return f"expected a JSON object like {_EXAMPLE}, got {_json_type(obj)}"
    values: list[str] = []
    for key in ("question", "answer"):
        if key not in obj:
            return f'missing "{key}"; each line needs {_EXAMPLE}'
        v = obj[key]
        if not isinstance(v, str):
            return f'"{key}" must be a string, got {_json_type(v)}'
        if not v.strip():
            return f'"{key}" is empty'
        values.append(v)
    if not tokenize(values[0]):  # BM25 could not rank anything for it
        return '"question" has no searchable words (only punctuation, symbols or spaces)'
    doc = obj.get("doc")
    if doc is not None and not isinstance(doc, str):
        return f'"doc" must be a string naming a document, got {_json_type(doc)}'
    return values[0], values[1], doc


def parse_gold_text(text: str | bytes, source_name: str = "the gold set") -> GoldSet:
    """Parse JSONL content (an upload as bytes or str). Blank lines are skipped."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = decode(bytes(text), source_name, allow_empty=True)
        except DocumentError as e:
            raise GoldFileError(str(e), e.encoding) from None
    pairs: list[GoldPair] = []
    errors: list[GoldError] = []
    # split on "\n" only: str.splitlines would also break at U+2028 inside a JSON string
    for number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            errors.append(GoldError(number, f"not valid JSON ({e.msg} at column {e.colno})"))
            continue
        checked = _check(obj)
        if isinstance(checked, str):
            errors.append(GoldError(number, checked))
        else:
            pairs.append(GoldPair(checked[0], checked[1], number, checked[2]))
    return GoldSet(pairs, errors)


def load_gold(path: str | os.PathLike[str]) -> GoldSet:
    """Read a .jsonl gold file. Raises GoldFileError if the file itself is unusable."""
    p = Path(path)
    if not p.is_file():
        what = "is a folder, not a file" if p.is_dir() else "was not found"
        raise GoldFileError(f"gold file {p.name or p} {what}; check the path")
    try:
        data = p.read_bytes()
    except OSError as e:
        raise GoldFileError(
            f"gold file {p.name} could not be read ({e.strerror}); check its permissions"
        ) from None
    return parse_gold_text(data, p.name)


def same_question(a: str, b: str) -> bool:
    """Two questions are one when they read the same, case and spacing aside."""
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def unique_pairs(pairs: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """(question, answer) pairs with each question once: the first one given wins
    (a gold set's own pair before a question typed again by hand)."""
    out: list[tuple[str, str]] = []
    for q, a in pairs:
        if not any(same_question(q, seen) for seen, _ in out):
            out.append((q, a))
    return tuple(out)
