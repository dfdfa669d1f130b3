"""The seams text is cut at when a piece is too big for a chunk, and the one
packer that cuts there.

Cutting follows a ladder, strongest seam first: sentence ends, line breaks,
stops, clause marks, spaces between words, and (in characters, for a run
with no whitespace longer than a chunk) characters. A piece moves one rung
down only when a part of it at the rung above is itself too big, so every
cut falls at the strongest seam that lets the pieces fit.

- A *stop* is ``.``, ``!`` or ``?`` (closing quotes or brackets may follow)
  before whitespace, where the sentence segmenter saw no sentence end:
  tokenised text such as ``word . Next`` or an abbreviation it trusted.
- A *clause mark* is ``;``, ``:``, ``,``, a dash or an ellipsis before
  whitespace. Marks inside a token (``18,412``, ``12:30``, ``v3.2``) are not
  seams, so in words no cut ever splits a token.
- Chinese and Japanese need no whitespace: ``。！？`` are stops and ``，、；：``
  clause marks whatever follows them, and a word seam lies between two
  ideographs (chunkers.scripts holds these marks and the word rule).

The structural chunker's splitter (structural/split.py) and the sentence
strategy (sentence.py) both cut through this module; neither has a ladder of
its own below the sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from .scripts import CJK_CLAUSE_END, CJK_SENTENCE_END, is_seam
from .text import count_units, word_spans
from .tokens import DEFAULT_TOKENIZER, tokenizer_for

Span = tuple[int, int]
# a rung of the ladder: (start, end) -> trimmed parts of text[start:end]; None
# for a piece that is indivisible (a table row). A rung is a partial of a module
# function over one text (and its parse): that function names it (SeamPacker.parts)
Level = Callable[[int, int], list[Span]] | None
# a part a rung cuts: (start, end, length in the unit, tail in tokens)
Part = tuple[int, int, int, int]

# the seams a cut can fall on, strongest first
SEAMS = ("sentence", "line", "stop", "clause", "word", "char")

_STOPS = ".!?"
_CLAUSE_MARKS = ";:,\u2014\u2013\u2026"  # ; : , em dash, en dash, ellipsis
_CLOSERS = "\"')\\]\u201d\u2019\u00bb"  # " ' ) ] and the typographic closers
# a seam is the whitespace after its marks (group 1; none may follow a CJK mark): the
# marks stay with the text they end
_CJK_STOP, _CJK_CLAUSE = CJK_SENTENCE_END.pattern, CJK_CLAUSE_END.pattern
_STOP_GAP = re.compile(rf"(?:[{_STOPS}]+[{_CLOSERS}]*(?=\s)|{_CJK_STOP})(\s*)")
_CLAUSE_GAP = re.compile(rf"(?:[{_CLAUSE_MARKS}]+[{_CLOSERS}]*(?=\s)|{_CJK_CLAUSE})(\s*)")
_ENDS_AT_STOP = re.compile(rf"(?:[{_STOPS}]+[{_CLOSERS}]*|{_CJK_STOP})\Z")
_ENDS_AT_CLAUSE = re.compile(rf"(?:[{_CLAUSE_MARKS}]+[{_CLOSERS}]*|{_CJK_CLAUSE})\Z")
# a line's text from its first to its last non-whitespace character
_LINE_TEXT = re.compile(r"\S(?:.*\S)?")


def line_spans(text: str, s: int, e: int) -> list[Span]:
    return list(map(re.Match.span, _LINE_TEXT.finditer(text, s, e)))


def _spans_between(gap: re.Pattern[str], text: str, s: int, e: int) -> list[Span]:
    """Parts of the trimmed span text[s:e] between the gaps ``gap`` finds."""
    out: list[Span] = []
    pos = s
    for m in gap.finditer(text, s, e):
        cut, nxt = m.span(1)
        if cut > pos:
            out.append((pos, cut))
        pos = nxt
    if e > pos:
        out.append((pos, e))
    return out


def stop_spans(text: str, s: int, e: int) -> list[Span]:
    return _spans_between(_STOP_GAP, text, s, e)


def clause_spans(text: str, s: int, e: int) -> list[Span]:
    return _spans_between(_CLAUSE_GAP, text, s, e)


def _char_spans(s: int, e: int, cap: int) -> list[Span]:
    return [(i, min(i + cap, e)) for i in range(s, e, max(1, cap))]


_NON_SPACE = re.compile(r"\S")


def seam_at(text: str, end: int, next_start: int) -> str:
    """The strongest seam below the sentence between a piece ending at ``end``
    and the next starting at ``next_start``: how a cut there reads."""
    if next_start == end and not is_seam(text, end):
        return "char"
    if "\n" in text[end:next_start]:
        return "line"
    head = max(0, end - 16)
    if _ENDS_AT_STOP.search(text, head, end):
        return "stop"
    if _ENDS_AT_CLAUSE.search(text, head, end):
        return "clause"
    return "word"


class SeamPacker:
    """Packs the parts of a span into pieces of at most a cap, one rung at a time.

    ``below_sentence`` is the ladder under a sentence (lines, stops, clauses,
    words); ``within_line`` the same without lines. Characters are the rung
    under every ladder, taken when a ladder runs out (in words one word is one
    unit, so it always fits and never needs it; in tokens the rung is tokens).

    In tokens, parts join as blocks do (structural/pack.py): a part counted
    with the whitespace after it, plus the next part alone, is the count of the
    two together. ``length`` and ``tail`` (what that whitespace adds) are the
    exact counts, kept in ``cache`` (a parse's cache: one count per span per
    document, whatever the size).
    """

    def __init__(
        self,
        text: str,
        unit: str,
        tokenizer: str = DEFAULT_TOKENIZER,
        cache: dict | None = None,
    ) -> None:
        self.text = text
        self.unit = unit
        self.tokens = unit == "tokens"
        self.tokenizer = tokenizer
        self.counter = tokenizer_for(tokenizer) if self.tokens else None
        self.cache = {} if cache is None else cache
        # partials over the text, never over self: a rung that referred back to its
        # packer would make a reference cycle (freed only by the garbage collector,
        # which chunking pauses)
        self.lines: Level = partial(line_spans, text)
        self.words: Level = partial(word_spans, text)
        self.within_line: list[Level] = [
            partial(stop_spans, text),
            partial(clause_spans, text),
            self.words,
        ]
        self.below_sentence: list[Level] = [self.lines, *self.within_line]
        # the rungs that cut between whole blocks (a container's), none here
        self.between_blocks: tuple[Level, ...] = ()
        # what a piece opening with leads may hold past the cap when the leads leave
        # less than a quarter of it (the structural packer's effective maximum)
        self.slack = 0

    def length(self, s: int, e: int) -> int:
        if self.unit == "chars":
            return e - s
        if self.counter is None:  # words: the counter is kept for tokens only
            return count_units(self.text[s:e], "words")
        key = ("tokens", self.tokenizer, s, e)
        n = self.cache.get(key)
        if n is None:
            n = self.cache[key] = self.counter.count(self.text[s:e])
        return n

    def tail(self, s: int, e: int) -> int:
        """In tokens, what the whitespace after text[s:e] adds to its count when
        more text follows (0 in words and chars: whitespace is free there, or counted
        by span)."""
        if not self.tokens:
            return 0
        m = _NON_SPACE.search(self.text, e)
        nxt = m.start() if m else len(self.text)
        return self.length(s, nxt) - self.length(s, e) if nxt > e else 0

    def parts(self, level: Callable[[int, int], list[Span]], s: int, e: int) -> list[Part]:
        """The parts ``level`` cuts text[s:e] into, each with its length and tail.

        -- why kept -- a rung cuts a span the same way at every size: a sweep cuts
        -- and counts each part once per document, not once per size (``cache`` is
        -- one text's; the figures are in docs/performance.md)."""
        key = ("parts", getattr(level, "func", level), self.unit, self.tokenizer, s, e)
        found = self.cache.get(key)
        if found is None:
            spans = level(s, e)
            if self.unit == "chars":
                found = [(a, z, z - a, 0) for a, z in spans]
            else:
                length, tail = self.length, self.tail
                found = [(a, z, length(a, z), tail(a, z)) for a, z in spans]
            self.cache[key] = found
        return found

    def _token_spans(self, s: int, e: int, first_cap: int, cap: int) -> list[Span]:
        """text[s:e] cut at its own tokens' starts into pieces of at most ``cap``
        tokens (the first at most ``first_cap``), each counted alone."""
        assert self.counter is not None
        cuts = (self.counter.offsets(self.text[s:e]).starts + s).tolist()
        n = len(cuts)
        cuts.append(e)
        out: list[Span] = []
        i, limit = 0, first_cap
        while i < n:
            j = min(i + max(1, limit), n)
            # -- a piece re-encoded alone may count a token more than its share of
            # -- the stream (its edges cut inside a word): shorten it until it fits
            while j - i > 1 and self.length(cuts[i], cuts[j]) > limit:
                j -= 1
            out.append((cuts[i], cuts[j]))
            i, limit = j, cap
        return [(a, b) for a, b in out if a < b]

    def leads(self, s: int, e: int) -> bool:
        """Whether the part text[s:e] introduces what follows it, and so travels
        with it (a title, a lead-in): never here; the structural splitter knows some."""
        return False

    def pack(
        self,
        s: int,
        e: int,
        first_cap: int,
        cap: int,
        levels: list[Level],
        first_slack: int | None = None,
    ) -> list[Span]:
        """Pieces of text[s:e] of at most ``cap`` units (the first at most ``first_cap``),
        in order, whitespace-trimmed, together holding every non-whitespace character.
        A piece opening with leads may pass its limit by the slack (``first_slack``
        for the first piece: what its caller has not used yet)."""
        levels, parts = self._cutting(s, e, first_cap, levels)
        if not levels:
            return self._below_every_rung(s, e, first_cap, cap)
        if levels[0] is None:  # indivisible: it stands alone, however long
            return [(s, e)]
        out: list[Span] = []
        group_start = group_end = -1
        group_len = 0
        group: list[Span] = []  # the parts of the open piece
        limit = first_cap
        slack = self.slack if first_slack is None else first_slack
        chars = self.unit == "chars"
        last_tail = 0  # the tail of group[-1]
        for ps, pe, n, part_tail in parts:
            if group_start >= 0:
                # (in tokens, the whitespace after the piece's last part counts too)
                joined = (pe - group_start) if chars else group_len + last_tail + n
                if joined <= limit:
                    group_len = joined
                    group_end = pe
                    group.append((ps, pe))
                    last_tail = part_tail
                    continue
                if self.leads(*group[-1]):
                    done = len(out)
                    group, placed = self._lead_on(
                        out, group, (ps, pe, n), limit, cap, levels, slack
                    )
                    (group_start, _), group_end = group[0], group[-1][1]
                    group_len = self.length(group_start, group_end)
                    last_tail = part_tail if group[-1] == (ps, pe) else self.tail(*group[-1])
                    if len(out) > done:
                        limit, slack = cap, self.slack
                    if placed:
                        continue
                out.append((group_start, group_end))
                limit, slack = cap, self.slack
                group_start = -1
            if n <= limit:
                group_start, group_end, group_len = ps, pe, n
                group = [(ps, pe)]
                last_tail = part_tail
                continue
            sub = self.pack(ps, pe, limit, cap, levels[1:], slack)
            out.extend(sub[:-1])
            if len(sub) > 1:  # (a first piece too big for its room takes nothing more)
                limit, slack = cap, self.slack
            group_start, group_end = sub[-1]
            group_len = self.length(*sub[-1])
            group = [sub[-1]]
            last_tail = self.tail(*sub[-1])
        if group_start >= 0:
            out.append((group_start, group_end))
        return out

    def _cutting(
        self, s: int, e: int, first_cap: int, levels: list[Level]
    ) -> tuple[list[Level], list[Part]]:
        """The ladder from its first rung that cuts text[s:e] (or leaves it whole within
        ``first_cap``), and that rung's parts.

        -- why skip -- a rung that leaves the span whole, too big for its room, cuts
        -- nothing: packing would hand the span to the next rung and return its pieces.
        -- Small sizes take most spans down several such rungs."""
        parts: list[Part] = []
        while levels and levels[0] is not None:
            parts = self.parts(levels[0], s, e)
            if len(parts) != 1 or parts[0][2] <= first_cap or parts[0][:2] != (s, e):
                break
            levels = levels[1:]
        return levels, parts

    def _below_every_rung(self, s: int, e: int, first_cap: int, cap: int) -> list[Span]:
        """What no rung could cut: one word in words (it always fits), tokens in
        tokens, characters in characters."""
        if self.unit == "words":  # one word is one unit: it always fits
            return [(s, e)]
        if self.tokens:
            return self._token_spans(s, e, first_cap, cap)
        head = (s, min(s + first_cap, e))
        return [head, *_char_spans(head[1], e, cap)]

    def _lead_on(
        self,
        out: list[Span],
        group: list[Span],
        part: tuple[int, int, int],
        limit: int,
        cap: int,
        levels: list[Level],
        slack: int = 0,
    ) -> tuple[list[Span], bool]:
        """Titles and lead-ins travel with what follows them: the leads the open
        piece ends with (``group``'s last parts) leave it for the next piece, and
        the next part joins them whole if it fits; else its first whole parts
        that fit join them, or, when it is too big for a piece of its own, its
        first piece fills the room beside them.

        ``part`` is the next part (start, end, length), too big to join the piece.
        Pieces finished go to ``out``. Returns the parts of the piece still open
        and whether the part was placed among them (if not, the caller closes
        that piece and places the part)."""
        ps, pe, n = part
        first = len(group) - 1
        while first > 0 and self.leads(*group[first - 1]):
            first -= 1
        if first > 0:  # the parts before the leads make a piece of their own
            out.append((group[0][0], group[first - 1][1]))
            limit, slack = cap, self.slack
            group = group[first:]
        start, end = group[0][0], group[-1][1]
        lead_len = self.length(start, end)
        joined = (pe - start) if self.unit == "chars" else lead_len + n
        if joined <= limit:
            return [*group, (ps, pe)], True
        # (in chars, up to the part's first character: its pieces start there, past
        # any indentation its span opens with)
        if self.unit == "chars":
            opening = _NON_SPACE.search(self.text, ps, pe)
            room = limit - ((opening.start() if opening else ps) - start)
        else:
            room = limit - lead_len
        if len(levels) < 2 or levels[1] is None:
            return group, False
        if n <= cap and any(levels[1] is rung for rung in self.between_blocks):
            # -- a part that fits a piece of its own is cut between the blocks it
            # -- holds first (the whole ones that fit beside the leads)
            inner = levels[1](ps, pe)
            k = 0
            while k < len(inner) and self._span_len(start, inner[k][1]) <= limit:
                k += 1
            while 0 < k < len(inner) and self.leads(*inner[k - 1]):
                k -= 1  # (a lead-in among them goes on with the block it introduces)
            if 0 < k < len(inner):
                out.append((start, inner[k - 1][1]))
                return [(inner[k][0], pe)], True
        sub = self._beside_leads(start, (ps, pe), limit, room, cap, levels[1:], slack)
        if sub is None:
            return self._cut_lead_on(out, group, part, cap, levels)
        if len(sub) == 1:  # the leads and the part's one piece
            return [*group, sub[0]], True
        out.append((start, sub[0][1]))
        out.extend(sub[1:-1])
        return [sub[-1]], True

    def _cut_lead_on(
        self,
        out: list[Span],
        group: list[Span],
        part: tuple[int, int, int],
        cap: int,
        levels: list[Level],
    ) -> tuple[list[Span], bool]:
        """No piece of ``part`` fits beside a lead that fills its piece's room (a first
        piece's room beside leads before the block): a lead a finer rung cuts keeps
        its last piece with the part, as a lead-in too long for a chunk does, and
        its head closes the piece. Else (or when the part does not go on with that
        last piece either) the lead stays, and the caller closes its piece."""
        if len(group) != 1 or len(levels) < 2:
            return group, False
        start, end = group[0]
        inner: list[Part] = []
        for rung in levels[1:]:
            if rung is None:
                break
            inner = self.parts(rung, start, end)
            if len(inner) > 1:
                break
        if len(inner) < 2:
            return group, False
        done = len(out)
        out.append((start, inner[-2][1]))
        on, placed = self._lead_on(out, [inner[-1][:2]], part, cap, cap, levels, self.slack)
        if placed:
            return on, True
        del out[done:]
        return group, False

    def _beside_leads(
        self,
        start: int,
        part: Span,
        limit: int,
        room: int,
        cap: int,
        levels: list[Level],
        slack: int,
    ) -> list[Span] | None:
        """The pieces of ``part`` when its first piece, cut at its own seams, fills the
        room beside the leads from ``start``: the room of the limit (unless under a
        quarter of a piece), else with the slack. None when no seam leaves a first
        piece that fits (its first unit, a word or a row, is too long): the leads
        then stay behind."""
        ps, pe = part
        rooms = [(room, slack)] if room * 4 >= cap or not slack else []
        if slack:
            rooms.append((room + slack, 0))
        for first_cap, left in rooms:
            if first_cap <= 0:
                continue
            sub = self.pack(ps, pe, first_cap, cap, levels, left)
            # (the leads and the first piece counted as one piece: in tokens the sum
            # of their counts may fall short of it)
            if self._opens_at_seam(sub[0], pe, first_cap) and (
                self._span_len(start, sub[0][1]) <= limit + first_cap - room
            ):
                return sub
        return None

    def _opens_at_seam(self, piece: Span, end: int, room: int) -> bool:
        """Whether ``piece``, the first of a span ending at ``end``, fits ``room`` and
        ends at a seam (not inside a word, where only characters or tokens cut)."""
        a, z = piece
        return (z >= end or is_seam(self.text, z)) and self._span_len(a, z) <= room

    def _span_len(self, s: int, e: int) -> int:
        return e - s if self.unit == "chars" else self.length(s, e)
