"""Document types, the marks that show each one, and the classifier that reads them.

A corpus mixes FAQs, API references, meeting transcripts and contracts, and each
has a grain of its own: a question with its answer, an endpoint, a speaker's
turn, a clause. The marks below are the one source of what those grains look
like: the classifier counts them to name a document's type, and each type's
chunker (chunkers/typed/) cuts where they stand.

The classifier is rules, not a model: it counts marks, says which it found, and
names a type only when one type's marks are clear and no other's are. Anything
else is prose, and when some type's marks were there but not enough (or two
types' were), it says the call was uncertain rather than guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

DOC_TYPES = ("faq", "api", "transcript", "contract", "prose")

# -- the marks ------------------------------------------------------------------------------
# an ATX heading (the chunkers read section headings with it too)
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
FENCE = re.compile(r"^ {0,3}(```|~~~)")
# faq: a heading that asks, or a "Q:" line
QUESTION_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(?P<q>.*\?)[ \t#]*$")
QUESTION_LINE = re.compile(
    r"^ {0,3}(?:[-*][ \t]+)?(?:\*\*|__)?Q(?:uestion)?(?:\*\*|__)?[ \t]*[:.][ \t]*(?:\*\*|__)?"
    r"[ \t]*(?P<q>\S.*?)(?:\*\*|__)?[ \t]*$"
)
ANSWER_LINE = re.compile(r"^ {0,3}(?:\*\*|__)?A(?:nswer)?(?:\*\*|__)?[ \t]*[:.]")
# api: an HTTP method and a path at the start of a line (in a heading, in backticks
# or bold, or in a code block)
ENDPOINT = re.compile(
    r"^ {0,3}(?:#{1,6}[ \t]+)?(?:[-*][ \t]+)?[`*]*"
    r"(?P<endpoint>(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)[ \t]+/[^\s`*]*)"
)
# transcript: "Name:" opening a line (a timestamp may come first), or a name alone in
# capitals on its line (a script's SPEAKER line)
_TIMESTAMP = r"(?:\[?\(?\d{1,2}:\d{2}(?::\d{2})?\)?\]?[ \t]+)"
TIMESTAMP = re.compile(rf"^ {{0,3}}{_TIMESTAMP}")
_NAME = r"[A-Z][\w.'\u2019-]*(?:[ \t]+(?:[A-Z][\w.'\u2019-]*|of|the|de|van|von)){0,4}"
SPEAKER_LINE = re.compile(
    rf"^ {{0,3}}{_TIMESTAMP}?(?:\*\*|__)?(?P<name>{_NAME})(?:[ \t]*\([^)\n]{{1,40}}\))?"
    r"(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]+\S"
)
SPEAKER_CAPS = re.compile(
    r"^ {0,3}(?P<name>[A-Z][A-Z.'\u2019-]+(?:[ \t]+[A-Z][A-Z.'\u2019-]+){0,3})$"
)
# labels that open a line like a speaker's name but are no one speaking
NOT_SPEAKERS = frozenset(
    "note warning tip important caution example examples returns return args arguments "
    "parameters params raises yields see also usage default type source step summary answer "
    "question q a todo fixme update edit info error response request body output input "
    "result results definition http https present apologies attendees absent minutes date "
    "time location venue agenda item subject re pros cons description resolution solution "
    "problem cause symptom symptoms fix workaround reason status user password types".split()
)
# contract: a numbered clause (as a heading or a line: "4.", "4.2", "Section 4") or a
# lettered or roman sub-clause "(b)", "(iv)"
CLAUSE = re.compile(
    r"^ {0,3}(?:#{1,6}[ \t]+)?(?:\*\*|__)?(?:(?:Section|Article|Clause)[ \t]+)?"
    r"(?P<number>\d{1,3}(?:\.\d{1,3})*)(?P<dot>\.?)(?:\*\*|__)?[ \t]+(?P<rest>\S.*)$"
)
SUB_CLAUSE = re.compile(
    r"^[ \t]*(?:[-*][ \t]+)?\((?P<label>[a-z]{1,2}|[ivx]{1,5}|\d{1,2})\)[ \t]+\S"
)
DEFINED_TERM = re.compile(r"[\"\u201c][A-Z][\w -]{1,40}[\"\u201d][ \t]+(?:shall[ \t]+)?means?\b")


def endpoint_of(line: str, in_code: bool) -> str | None:
    """The endpoint a line opens with ("POST /v1/payments"), or None. In code, a line
    opening with "#" is a comment (an HTTP request quoted in a test), not a heading."""
    m = ENDPOINT.match(line)
    if m is None or (in_code and line.lstrip().startswith("#")):
        return None
    return " ".join(m["endpoint"].split())


def is_speaker(name: str) -> bool:
    """A name that could be someone speaking, not a label ("Note", "Returns")."""
    return name.strip().lower() not in NOT_SPEAKERS


@dataclass(frozen=True, slots=True)
class Classified:
    """A document's type, what the rules saw, and whether the call was certain."""

    doc_type: str
    evidence: str
    uncertain: bool = False
    source: str = "rules"  # "rules", or "mapping" when a folder's mapping file said it


@dataclass(slots=True)
class _Counts:
    questions: int = 0
    answers: int = 0
    headings: int = 0
    endpoints: int = 0
    turns: int = 0
    speakers: set[str] = field(default_factory=set)
    timestamps: int = 0
    clauses: int = 0
    sub_clauses: int = 0
    shall: int = 0
    defined: int = 0


# -- the lines that may hold a mark, found by cheap patterns the engine scans for
# -- fast (a line break, then a character or two); only those lines are read in full:
# -- classifying must cost little beside chunking
_MAY_MARK = re.compile(
    r"\n[ \t]*(?:[-*][ \t]+)?(?:```|~~~|#|\("  # fences, headings, sub-clauses
    # "Name:", "Q:", "A:", "[00:12] Name:" (a colon near the start), "4." (a digit)
    # (a "!" or "?" before the colon ends the look: no speaker's name holds one)
    r"|(?:\*\*|__)?(?:[A-Z\[(0-9][^\n:!?]{0,48}:[ \t*]|(?:Section |Article |Clause )?\d))"
)
# a document shows its type in its opening pages: the classifier reads this much
READ = 8_000
_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_MAY_ENDPOINT = re.compile(
    r"\n {0,3}(?:#{1,6}[ \t]+)?(?:[-*][ \t]+)?[`*]*(?:" + "|".join(_METHODS) + r")[ \t]+/"
)


def _count_line(c: _Counts, line: str, speakers: dict[str, int]) -> None:
    """Count what one line outside code shows."""
    if HEADING.match(line):
        c.headings += 1
        if QUESTION_HEADING.match(line):
            c.questions += 1
        elif CLAUSE.match(line):
            c.clauses += 1
    elif QUESTION_LINE.match(line):
        c.questions += 1
    elif ANSWER_LINE.match(line):
        c.answers += 1
    elif (m := SPEAKER_LINE.match(line)) and is_speaker(m["name"]):
        speakers[m["name"]] = speakers.get(m["name"], 0) + 1
        c.timestamps += TIMESTAMP.match(line) is not None
    elif CLAUSE.match(line):
        c.clauses += 1
    elif SUB_CLAUSE.match(line):
        c.sub_clauses += 1


def _count(text: str) -> _Counts:
    """The marks of every type in the text's first READ characters (code blocks
    hold endpoints in their examples, and nothing else counts there)."""
    c = _Counts()
    padded = "\n" + text[:READ]  # (a line break before the first line too)
    if "\r" in padded:  # CRLF or CR text is read as LF text, as every chunker reads it
        padded = padded.replace("\r\n", "\n").replace("\r", "\n")
    patterns = [_MAY_MARK]
    if " /" in padded and any(f"{m} /" in padded for m in _METHODS):
        patterns.append(_MAY_ENDPOINT)
    starts = sorted({m.start() + 1 for p in patterns for m in p.finditer(padded)})
    speakers: dict[str, int] = {}
    in_fence = False
    for at in starts:
        end = padded.find("\n", at)
        line = padded[at:] if end < 0 else padded[at:end]
        if FENCE.match(line):
            in_fence = not in_fence
        elif endpoint_of(line, in_fence):
            c.endpoints += 1
        elif not in_fence:
            _count_line(c, line, speakers)
    # a speaker speaks more than once; a label used once is not a turn
    c.speakers = {n for n, k in speakers.items() if k > 1}
    c.turns = sum(k for k in speakers.values() if k > 1)
    # (counted, not searched: "shall" as part of another word is rare enough)
    c.shall = padded.count("shall") + padded.count("Shall") + padded.count("SHALL")
    c.defined = len(DEFINED_TERM.findall(padded)) if c.shall else 0
    return c


def _evidence(c: _Counts) -> dict[str, tuple[int, str]]:
    """Each type's strength (0 none, 1 some, 2 clear) and what was seen, in words."""
    out: dict[str, tuple[int, str]] = {}
    if c.questions:
        # clear: several questions, most headings asking one (or Q:/A: pairs)
        many = c.questions >= 3 and (c.questions * 2 >= c.headings or c.answers >= 3)
        out["faq"] = (
            2 if many else 1,
            f"{c.questions} question(s)" + (f", {c.answers} answer line(s)" if c.answers else ""),
        )
    if c.endpoints:
        out["api"] = (2 if c.endpoints >= 2 else 1, f"{c.endpoints} endpoint line(s)")
    speakers = c.speakers
    if c.turns:
        clear = c.turns >= 6 and len(speakers) >= 2
        names = ", ".join(sorted(speakers)[:3]) + (", ..." if len(speakers) > 3 else "")
        out["transcript"] = (
            2 if clear else 1,
            f"{c.turns} speaker turn(s) by {len(speakers)} speaker(s) ({names})"
            + (f", {c.timestamps} timestamp(s)" if c.timestamps else ""),
        )
    if c.clauses or c.shall >= 3:
        legal = c.shall >= 3 or c.defined >= 1 or c.sub_clauses >= 2
        clear = c.clauses >= 3 and legal and c.shall >= 1
        parts = [f"{c.clauses} numbered clause(s)"]
        if c.sub_clauses:
            parts.append(f"{c.sub_clauses} sub-clause(s)")
        if c.shall:
            parts.append(f'"shall" {c.shall} time(s)')
        if c.defined:
            parts.append(f"{c.defined} defined term(s)")
        # numbered headings alone are any manual's: only legal words make them weak evidence
        if clear or legal:
            out["contract"] = (2 if clear else 1, ", ".join(parts))
    return out


def classify(text: str) -> Classified:
    """The document's type by its marks, with the evidence in one line.

    One type with clear marks and no other type's clear marks: that type. No
    marks at all: prose. Otherwise (weak marks, or two types' clear ones): prose,
    marked uncertain, with what was seen.
    """
    seen = _evidence(_count(text))
    clear = [t for t, (s, _) in seen.items() if s == 2]
    said = "; ".join(f"{t}: {why}" for t, (_, why) in seen.items())
    if len(clear) == 1:
        return Classified(clear[0], said)
    if not seen:
        return Classified("prose", "no type's marks")
    if len(clear) > 1:
        return Classified("prose", f"uncertain, marks of {' and '.join(clear)} ({said})", True)
    return Classified("prose", f"uncertain, too few marks ({said})", True)
