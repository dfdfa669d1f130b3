"""Gold sets: questions with the document passages that answer them.

Two files are read (docs/gate.md shows both):

* JSON Lines (sample_docs/*.gold.jsonl), one question a line, either
  ``{"question", "answer"}`` (an answer that must sit whole in one chunk) or
  ``{"question", "doc", "passages": [{"text": ...} | {"start": s, "end": e}]}``
  (passages labelled by their text or by a character span into the document,
  so the labels survive re-chunking);
* CSV with a header row naming the same fields: ``question``, ``doc``, and per
  row one of ``answer``, ``text`` or ``start``+``end``. Each passage row is one
  passage; passage rows with the same question and doc make one question. An
  answer row is a question of its own.

A malformed line is reported with its line number and the good lines are still
used: one typo should not hide a whole gold set, nor vanish without a word.
Whether a passage really is in its document is checked where the document is
known (lab.measure.integrity), again naming the line.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from lab.retrieval.tokenize import tokenize

from .documents import DocumentError, decode, jsonl_lines


@dataclass(frozen=True, slots=True)
class Passage:
    """Part of a document that answers a question: its text, or a character span."""

    text: str | None = None
    start: int | None = None  # [start, end) into the document as read
    end: int | None = None
    line: int | None = None  # the gold line (CSV row) that gave it, for messages


@dataclass(frozen=True, slots=True)
class GoldQuestion:
    """A gold question: its answer (whole in one chunk, or it is lost) or the
    passages that answer it. The one form a gold question takes, read from a file,
    typed in the app or built by a test."""

    question: str
    answer: str = ""  # "" when passages answer it instead
    doc: str = ""  # the document that holds the answer ("" when there is one document)
    passages: tuple[Passage, ...] = ()  # used when there is no answer
    line: int | None = None  # 1-based line in the gold file, for messages
    # how the question was made when made from the document (lab gold: "heading",
    # "cloze" or "keywords"), "" when a person wrote it
    generated: str = ""


@dataclass(frozen=True, slots=True)
class BadGoldLine:
    """A gold line that could not be used, and why: it is skipped, the good lines
    are still used."""

    line: int  # 1-based
    message: str  # one line, without the line number

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True, slots=True)
class GoldSet:
    questions: list[GoldQuestion] = field(default_factory=list)
    bad_lines: list[BadGoldLine] = field(default_factory=list)

    def problem_line(self, name: str, shown: int = 10) -> str:
        """One line for the reader: the first bad line and why, the numbers of
        the other bad lines, and how many good lines are used ("" if none bad)."""
        if not self.bad_lines:
            return ""
        first, rest = self.bad_lines[0], self.bad_lines[1:]
        out = f"{name} line {first.line}: {first.message}"
        if rest:
            numbers = ", ".join(str(e.line) for e in rest[:shown])
            more = f" and {len(rest) - shown} more" if len(rest) > shown else ""
            out += f"; also skipped: line(s) {numbers}{more}"
        return out + f"; {len(self.questions)} good line(s) used"


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


def _text_field(obj: dict, key: str) -> str:
    """The string under ``key``; ValueError with the one-line reason otherwise."""
    v = obj[key]
    if not isinstance(v, str):
        raise ValueError(f'"{key}" must be a string, got {_json_type(v)}')
    if not v.strip():
        raise ValueError(f'"{key}" is empty')
    return v


def _offset(value: object, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f'"{key}" must be a whole number of characters, got {_json_type(value)}')
    if value < 0:
        raise ValueError(f'"{key}" must be at least 0, got {value}')
    return value


_PASSAGE = '{"text": "..."} or {"start": 0, "end": 120}'


def _passage(item: object, number: int, line: int) -> Passage:
    if not isinstance(item, dict):
        raise ValueError(f"passage {number} must be an object like {_PASSAGE}")
    if "text" in item:
        if "start" in item or "end" in item:
            raise ValueError(f"passage {number}: give its text or its start/end, not both")
        return Passage(text=_text_field(item, "text"), line=line)
    if "start" not in item or "end" not in item:
        raise ValueError(f"passage {number} needs {_PASSAGE}")
    start, end = _offset(item["start"], "start"), _offset(item["end"], "end")
    if end <= start:
        raise ValueError(f'passage {number}: "end" ({end}) must be after "start" ({start})')
    return Passage(start=start, end=end, line=line)


def _check(obj: object, line: int) -> GoldQuestion:
    """The line's gold pair; ValueError with a one-line reason if it is unusable."""
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object like {_EXAMPLE}, got {_json_type(obj)}")
    if "question" not in obj:
        raise ValueError(f'missing "question"; each line needs {_EXAMPLE}')
    question = _text_field(obj, "question")
    if "answer" in obj and "passages" in obj:
        raise ValueError('give "answer" or "passages", not both')
    answer, passages = "", tuple[Passage, ...]()
    if "passages" in obj:
        items = obj["passages"]
        if not isinstance(items, list) or not items:
            raise ValueError(f'"passages" must be a non-empty list like [{_PASSAGE}]')
        passages = tuple(_passage(p, n, line) for n, p in enumerate(items, start=1))
    elif "answer" in obj:
        answer = _text_field(obj, "answer")
    else:
        raise ValueError(f'missing "answer" (or "passages"); each line needs {_EXAMPLE}')
    if not tokenize(question):  # BM25 could not rank anything for it
        raise ValueError('"question" has no searchable words (only punctuation, symbols or spaces)')
    doc = obj.get("doc")
    if doc is not None and not isinstance(doc, str):
        raise ValueError(f'"doc" must be a string naming a document, got {_json_type(doc)}')
    generated = obj.get("generated", "")
    if not isinstance(generated, str):
        raise ValueError(f'"generated" must be a string naming how, got {_json_type(generated)}')
    return GoldQuestion(question, answer, doc or "", passages, line, generated)


def _decoded(text: str | bytes, source_name: str) -> str:
    if isinstance(text, (bytes, bytearray)):
        try:
            text = decode(bytes(text), source_name, allow_empty=True)
        except DocumentError as e:
            raise GoldFileError(str(e), e.encoding) from None
    return text.removeprefix("\ufeff")


def parse_gold_text(text: str | bytes, source_name: str = "the gold set") -> GoldSet:
    """Parse JSONL content (an upload as bytes or str). Blank lines are skipped.

    Args:
        source_name: what messages call the content (an upload's file name).

    Returns:
        The questions, and each line that is not one with its number and reason:
        a bad line is reported, never fatal.

    Raises:
        GoldFileError: bytes that are not text (with an encoding to offer).
    """
    text = _decoded(text, source_name)
    pairs: list[GoldQuestion] = []
    bad: list[BadGoldLine] = []
    for number, line in jsonl_lines(text):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            bad.append(BadGoldLine(number, f"not valid JSON ({e.msg} at column {e.colno})"))
            continue
        try:
            pairs.append(_check(obj, number))
        except ValueError as e:
            bad.append(BadGoldLine(number, str(e)))
    return GoldSet(pairs, bad)


CSV_FIELDS = ("question", "doc", "answer", "text", "start", "end", "generated")


def _csv_row(row: dict[str, str], line: int) -> dict:
    """A CSV row as the JSON object it stands for (numbers parsed, blanks dropped)."""
    obj: dict = {k: v for k, v in row.items() if k in CSV_FIELDS and v is not None and v != ""}
    if "doc" in obj and not obj["doc"].strip():
        del obj["doc"]
    span = {}
    for key in ("start", "end"):
        if key in obj:
            value = obj.pop(key).strip()
            if not value.isdigit():
                raise ValueError(f'"{key}" must be a whole number of characters, got {value!r}')
            span[key] = int(value)
    if "text" in obj or span:
        passage = {"text": obj.pop("text")} if "text" in obj else {}
        obj["passages"] = [{**passage, **span}]
    return obj


def parse_gold_csv(text: str | bytes, source_name: str = "the gold set") -> GoldSet:
    """Parse CSV content: a header row, then one row per passage (or per answer).

    Passage rows with the same question and doc join one question, in the order
    their first row appears; each question keeps the line of its first row."""
    text = _decoded(text, source_name)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = reader.fieldnames or []
    if "question" not in header or not {"answer", "text", "start"} & set(header):
        raise GoldFileError(
            f"{source_name}: a CSV gold file needs a header row with question, doc and "
            "answer, text or start,end columns"
        )
    pairs: dict[tuple[str, str], GoldQuestion] = {}
    order: list[GoldQuestion | tuple[str, str]] = []
    bad: list[BadGoldLine] = []
    for row in reader:
        values = [v for v in row.values() if isinstance(v, str)]
        # the row's first line: a quoted field may hold line breaks
        number = reader.line_num - sum(v.count("\n") for v in values)
        if not any(v.strip() for v in values):
            continue
        try:
            pair = _check(_csv_row(row, number), number)
        except ValueError as e:
            bad.append(BadGoldLine(number, str(e)))
            continue
        if not pair.passages:
            order.append(pair)
            continue
        key = (pair.question, pair.doc)
        if key in pairs:
            first = pairs[key]
            pairs[key] = replace(first, passages=first.passages + pair.passages)
        else:
            pairs[key] = pair
            order.append(key)
    done = [pairs[item] if isinstance(item, tuple) else item for item in order]
    return GoldSet(done, bad)


def load_gold(path: str | os.PathLike[str]) -> GoldSet:
    """Read a gold file: .csv as CSV, anything else as JSON Lines.

    Returns:
        The questions, and the lines that are not one (see parse_gold_text).

    Raises:
        GoldFileError: the file itself is unusable (missing, a folder, unreadable,
            not text, a CSV without the columns it needs).
    """
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
    if p.suffix.lower() == ".csv":
        return parse_gold_csv(data, p.name)
    return parse_gold_text(data, p.name)


def same_question(a: str, b: str) -> bool:
    """Two questions are one when they read the same, case and spacing aside."""
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def unique_questions(questions: Iterable[GoldQuestion]) -> tuple[GoldQuestion, ...]:
    """Each question once: the first one given wins (a gold set's own question
    before the same question typed again by hand)."""
    out: list[GoldQuestion] = []
    for q in questions:
        if not any(same_question(q.question, seen.question) for seen in out):
            out.append(q)
    return tuple(out)
