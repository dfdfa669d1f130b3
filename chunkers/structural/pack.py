"""Pack many: blocks into chunks for one size/overlap, from a cached parse.

Boundaries fall only between blocks, except inside a block too big for any
chunk, which splits where its own structure allows (see split.py). Packing
runs per section (a heading with no text of its own travels with what follows
it); the runt merge then runs over the whole list, and overlap is added last,
only between prose chunks that trust each other, its outcome at each boundary recorded.
docs/packing.md states every rule and the invariants the tests hold.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import cached_property, partial
from operator import attrgetter, itemgetter, sub

from ..model import (
    OVERLAP_APPLIED,
    OVERLAP_EMPTY,
    OVERLAP_NEW_SECTION,
    OVERLAP_NOT_PROSE,
    OVERLAP_OFF,
    OVERLAP_TABLE,
    OVERLAP_TRANSCRIBED,
)
from ..options import ChunkOptions
from ..scripts import has_cjk, is_seam, is_word_seam
from ..spans import Draft
from ..text import word_spans
from .blocks import TITLES, ParsedDocument, is_lead
from .runts import Guards, merge_runts
from .split import Splitter, cached_inner_blocks

PROSE_KINDS = ("prose", "list")
_TITLES = frozenset(TITLES)
_MAY_LEAD = _TITLES | {"prose", "html"}  # the kinds a lead or a title is of
# what overlap never copies, even from inside a list (an item's fence)
NOT_PROSE = ("code", "html", "table")
# what code, HTML or a table needs: a fence, a tab or a table's separator anywhere,
# or a line opening with a tag, with a separator or with four columns of indentation
_CODE_MARK = re.compile(r"```|~~~|\t|\|[ \t]*:?-")
_CODE_LINE = re.compile(r"^(?:[ \t]*<[A-Za-z!?/]|[ \t|:]*-+[ \t]*\||    )", re.M)
# what overlap must carry: a word outside markup (never a lone tag or a "////")
_TAG = re.compile(r"<[^<>]*>")
_WORD = re.compile(r"\w")
_INDENT = re.compile(r"\s*")


def _may_hold_code(text: str, s: int, e: int) -> bool:
    return bool(_CODE_MARK.search(text, s, e) or _CODE_LINE.search(text, s, e))


@dataclass(slots=True)
class Run:
    """A chunk while it is packed, swept and given overlap (normalised offsets)."""

    start: int
    end: int
    length: int
    section: int
    header: tuple[int, int] | None = None  # repeated table header span
    header_len: int = 0
    kinds: dict[str, int] = field(default_factory=dict)  # units per block kind
    first_kind: str = "prose"  # kind of the first piece ("heading" at a section start)
    last_kind: str = "prose"
    last_span: tuple[int, int] = (0, 0)  # the last piece: where overlap is taken from
    heading_path: tuple[str, ...] = ()
    transcribed: bool = False
    page: int | None = None  # the first page it reaches
    last_page: int | None = None  # the last page it reaches
    # how many leading entries of heading_path lie above its first character
    # (the rest are heading lines inside its body)
    context: int = 0
    # in tokens: what the whitespace after its last piece adds when more follows
    tail: int = 0

    def reach_pages(self, first: int | None, last: int | None) -> None:
        """The run now also covers text of pages ``first`` to ``last`` (None: no page
        heading above it): its first page stays, its last page moves on."""
        if self.page is None:
            self.page = first
        if last is not None:
            self.last_page = last

    @property
    def only_heading(self) -> bool:
        """Nothing but headings (and what travels with them) so far: no text of their own."""
        return self.kinds.keys() <= _TITLES

    @property
    def kind(self) -> str:
        """The kind that holds most of its units, titles aside (then headings aside;
        prose if it holds headings only)."""
        kinds = self.kinds
        if len(kinds) == 1:  # the commonest case: one kind of block
            (only,) = kinds
            return "prose" if only == "heading" else only
        content = [k for k in kinds if k not in _TITLES] or [k for k in kinds if k != "heading"]
        if len(content) == 1:  # the common case: one kind of text, under its heading
            return content[0]
        return max(content, key=lambda k: (kinds[k], k)) if content else "prose"


def _same_trust(a: Run, b: Run) -> bool:
    return a.transcribed == b.transcribed


def ends_with_lead(doc: ParsedDocument, run: Run) -> bool:
    """Whether the run ends with what introduces the text after it: a heading or
    another title, a lead block, or (a piece of a block) a title line or a line
    ending in a colon. (The runt merge asks of runts only.)"""
    b = bisect_right(doc.starts, run.end - 1) - 1
    if doc.ends[b] == run.end:
        return b in doc.leads or doc.kinds[b] in TITLES
    text = doc.text
    return is_lead(text, text.rfind("\n", run.start, run.end) + 1 or run.start, run.end)


def _common_length(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):  # paths of any lengths: their common prefix
        if x != y:
            break
        n += 1
    return n


class Packer:
    def __init__(self, doc: ParsedDocument, opts: ChunkOptions) -> None:
        self.doc = doc
        self.opts = opts
        self.text = doc.text
        self.chars = opts.unit == "chars"
        self.tokens = opts.unit == "tokens"
        self.floor = opts.floor  # (a computed property: read once, not per block)
        self.lengths, self.tails = self._block_lengths()
        # the first block past each section: packing never joins blocks across it
        self.section_stops = doc.section_starts[1:] + (len(doc.kinds),)
        # the last block cut to open beside leads (_opening_pieces): asked before a
        # lead is handed on, then again when the block is placed
        self._opened: tuple[tuple[int, int, int], list | None] | None = None
        # pack(until=...): the index of the run that opens the section it stopped at
        self.settled: int | None = None

    @cached_property
    def split(self) -> Splitter:
        """Made on first use: most documents have no block too big for a chunk."""
        split = Splitter(self.doc, self.opts.unit, self.opts.tokenizer)
        split.slack = self.opts.effective_max - self.opts.size
        return split

    def _block_lengths(self) -> tuple[list[int], list[int]]:
        """Every block's length in the unit, and its tail (what the whitespace after
        it adds when a block follows: only tokens count it): independent of size,
        so cached on the parse. In tokens each block is counted once per document,
        alone and with the whitespace after it.

        -- why tails -- a run of blocks counted whole is the sum of each block with
        -- its trailing whitespace, plus the last block alone ("." and "\n\n" are
        -- one token together, two apart): on the shared corpus, exact for
        -- cl100k_base in 12,000 runs of 1-8 blocks out of 12,000, never under
        -- for o200k_base. Where a limit is judged, the count is exact anyway.
        """
        key = ("block lengths", self.opts.unit, self.opts.tokenizer if self.tokens else "")
        found = self.doc.cache.get(key)
        if found is None:
            doc = self.doc
            if self.chars:
                lengths = list(map(sub, doc.ends, doc.starts))
            else:
                lengths = [self._len(s, e) for s, e in zip(doc.starts, doc.ends, strict=True)]
            if self.tokens:
                tail = self.split.tail
                tails = [tail(s, e) for s, e in zip(doc.starts, doc.ends, strict=True)]
            else:
                tails = [0] * len(lengths)
            found = self.doc.cache[key] = (lengths, tails)
        return found

    # -- lengths ---------------------------------------------------------------
    def _len(self, s: int, e: int) -> int:
        return e - s if self.chars else self.split.length(s, e)

    def _joined(self, run: Run, end: int, piece_len: int) -> int:
        """Length of ``run`` extended to ``end`` (whitespace between is free in words;
        in tokens it adds the run's tail)."""
        if self.chars:
            return end - run.start + run.header_len
        return run.length + run.tail + piece_len

    def _exact(self, start: int, end: int, header: tuple[int, int] | None) -> int:
        """In tokens, the count of a chunk's body as finish() makes it: its repeated
        header, then its span. Kept on the parse: neighbouring sizes of a sweep
        make most of the same chunks."""
        if header is None:  # the span's own count: the one the splitter keeps
            return self.split.length(start, end)
        key = ("exact", self.opts.tokenizer, start, end, header)
        cache = self.doc.cache
        n = cache.get(key)
        if n is None:
            counter = self.opts.counter
            assert counter is not None
            text = self.text
            body = (text[header[0] : header[1]] if header else "") + text[start:end]
            n = cache[key] = counter.count(body)
        return n

    # -- runs ------------------------------------------------------------------
    def _new_run(
        self,
        s: int,
        e: int,
        n: int,
        kind: str,
        section_index: int,
        header: tuple[int, int] | None = None,
    ) -> Run:
        section = self.doc.sections[section_index]
        header_len = self._len(*header) if header else 0
        path = section.heading_path if self.opts.heading_paths else ()
        # a run that opens with its section's heading (or what travels with it) shows
        # that heading in its body
        context = len(path) - 1 if kind in _TITLES and path else len(path)
        return Run(
            start=s,
            end=e,
            length=n + header_len,
            section=section_index,
            header=header,
            header_len=header_len,
            kinds={kind: n},
            first_kind=kind,
            last_kind=kind,
            last_span=(s, e),
            heading_path=path,
            transcribed=section.transcribed,
            page=section.page,
            last_page=section.page,
            context=context,
        )

    def _extend(self, run: Run, s: int, e: int, n: int, kind: str, tail: int = 0) -> None:
        run.length = self._joined(run, e, n)
        run.tail = tail
        run.end = e
        run.kinds[kind] = run.kinds.get(kind, 0) + n
        run.last_kind = kind
        run.last_span = (s, e)

    def _merge(self, a: Run, b: Run) -> Run:
        """a takes in b, and is returned: b's repeated header (if any) is dropped,
        its rows follow a's. (A run is a working record, changed in place as
        _extend changes it; the merge keeps neither piece.)"""
        a.length = self._merged_length(a, b)  # (measured before a's end moves)
        kinds = a.kinds
        for k, v in b.kinds.items():
            kinds[k] = kinds.get(k, 0) + v
        # -- heading context: the headings above a's first character stay in the
        # -- path (they are in neither body); past them, only what b shares with a
        keep = max(a.context, _common_length(a.heading_path, b.heading_path))
        a.heading_path = a.heading_path[:keep]
        # -- a's start, section, header and first piece stay; the end is b's
        a.end, a.last_kind, a.last_span, a.tail = b.end, b.last_kind, b.last_span, b.tail
        a.transcribed = a.transcribed or b.transcribed
        a.reach_pages(b.page, b.last_page)
        return a

    def _merged_length(self, a: Run, b: Run) -> int:
        """The length of a then b as one chunk (b's repeated header, if any, dropped):
        the span it covers in chars, the sum in words, the exact count in tokens."""
        if self.chars:
            return b.end - a.start + a.header_len
        if self.tokens:
            return self._exact(a.start, b.end, a.header)
        return a.length + b.length - b.header_len

    def _merge_reach(self, a: Run, b: Run) -> int:
        """The length the runt merge's guards judge a merge of a then b by: a block
        that would fit a chunk of its own is cut only beside titles and leads
        (_opening_pieces), so when b opens with them and such a block's first
        piece, text merged in front of them would have to take that block whole."""
        n = self._merged_length(a, b)
        end = self._opened_block_end(b)
        if end is None or self._bare(a):
            return n
        if self.chars:
            return end - a.start + a.header_len
        if self.tokens:
            return self._exact(a.start, end, a.header)
        return a.length + self._len(b.start, end)

    def _opened_block_end(self, run: Run) -> int | None:
        """Where the block ends whose first piece ``run`` holds beside the titles and
        leads it opens with, when that block would fit a chunk of its own; else None."""
        doc = self.doc
        starts, ends, kinds, leads = doc.starts, doc.ends, doc.kinds, doc.leads
        first = k = bisect_right(starts, run.start) - 1
        while k >= 0 and k < len(kinds) and ends[k] <= run.end:
            if k not in leads and kinds[k] not in _TITLES:
                return None
            k += 1
        if k <= first or k >= len(kinds) or not starts[k] < run.end < ends[k]:
            return None
        return ends[k] if self.lengths[k] <= self.opts.size else None

    # -- packing ---------------------------------------------------------------
    def pack(self, until: int | None = None) -> list[Run]:
        """Blocks into runs, section by section (the runt merge and overlap come later).

        With ``until`` (an offset), packing stops at the first section starting from
        there that no chunk crosses at this size (``settled``): its first run is the
        last one returned, and every run before it is the whole document's."""
        block_sections = self.doc.block_sections
        count = len(block_sections)
        runs: list[Run] = []
        cur: Run | None = None
        section = -1
        i = 0
        opening: int | None = None  # with until: the run a section past it opens
        while i < count:
            if opening is not None and len(runs) > opening:  # (that run is closed)
                if self._settled(runs[opening - 1], runs[opening]):
                    self.settled = opening
                    del runs[opening + 1 :]
                    cur = None
                    break
                opening = None
            if cur is not None:
                i = self._absorb(cur, i, section)  # the common case, in one tight loop
                if i == count:
                    break
            b, i = i, i + 1
            if block_sections[b] != section:  # chunks never span a heading while packing...
                handed = cur is not None and b - 1 in self.doc.leads
                cur = self._close_section(runs, cur, b, section)
                section = block_sections[b]
                if opening is None and cur is None and not handed and self._past(until, b):
                    opening = len(runs)  # b opens a run with nothing carried into it
            cur = self._place(runs, cur, b, section)
        if cur is not None:
            runs.append(cur)
        if self.tokens:
            # -- packing summed counts; the floor, the overflow guard and the
            # -- effective maximum are judged on each chunk's exact count
            for run in runs:
                run.length = self._exact(run.start, run.end, run.header)
        return runs

    def _close_section(self, runs: list[Run], cur: Run | None, b: int, section: int) -> Run | None:
        """At block ``b``, the first of a section after ``section``: the run still
        open, or None when ``cur`` went to ``runs``."""
        if cur is not None and b - 1 in self.doc.leads:  # (a lead-in to a tab)
            cur = self._hand_on_leads(runs, cur, b, section)
        if cur is not None and not self._may_carry(cur, self.doc.block_sections[b]):
            runs.append(cur)
            return None
        return cur

    def _past(self, until: int | None, b: int) -> bool:
        """Whether block ``b``, past the first, starts at ``until`` or later."""
        return until is not None and b > 0 and self.doc.starts[b] >= until

    def _settled(self, before: Run, opening: Run) -> bool:
        """Whether no chunk crosses between two runs packed on either side of a
        section's start with nothing carried over: neither is a runt, so the runt
        merge moves neither (a merge only grows a run), and what follows the
        section's first run cannot reach back past it."""
        if self.tokens:
            for run in (before, opening):
                run.length = self._exact(run.start, run.end, run.header)
        return before.length >= self.floor and opening.length >= self.floor

    def _place(self, runs: list[Run], cur: Run | None, b: int, section: int) -> Run:
        """Block ``b`` joins ``cur`` or starts a new run (``cur`` then goes to
        ``runs``); returns the run still open."""
        doc, size = self.doc, self.opts.size
        kind, bs, be, n = doc.kinds[b], doc.starts[b], doc.ends[b], self.lengths[b]
        if cur is not None and (
            self._joined(cur, be, n) <= size or self._moves_whole(cur, kind, be, n)
        ):
            self._join(cur, bs, be, n, kind, section, self.tails[b])
            return cur
        if cur is not None and b - 1 in doc.leads:
            cur = self._hand_on_leads(runs, cur, b, section)
            if self._moves_whole(cur, kind, be, n):
                self._join(cur, bs, be, n, kind, section)
                return cur
        # (a title is never cut to fit beside what comes before it)
        if kind not in _TITLES and cur is not None and self._bare(cur):
            # -- the titles and leads cur holds open b's first piece: b is cut at its
            # -- own seams to fill the room beside them, unless no seam leaves a first
            # -- piece that fits there (its first unit is too long): then they stay behind
            lead_len = self._joined(cur, bs, 0)
            pieces = self._opening_pieces(b, cur.start, lead_len)
            if pieces is None and cur.only_heading and doc.block(b).header is not None:
                # -- a table's head is never left alone, nor a heading: the two
                # -- hold the head and first row together, past the maximum if need be
                pieces = self._pieces(b, max(1, size - lead_len))
            if pieces is not None:
                return self._split_block(runs, cur, b, section, 0, pieces)
        if cur is not None:
            runs.append(cur)
        if kind == "heading" or n <= size:
            # a block that fits a fresh chunk moves there whole
            run = self._new_run(bs, be, n, kind, section)
            run.tail = self.tails[b]
            return run
        # the block is larger than a chunk: it splits where its own structure allows
        return self._split_block(runs, None, b, section, size)

    def _moves_whole(self, cur: Run, kind: str, end: int, n: int) -> bool:
        """A block that fits a fresh chunk is never split: under a heading with no
        text of its own yet, it joins that heading whole while the two stay within
        the effective maximum (rather than splitting to fill the room beside it);
        so does a heading under headings with no text of their own."""
        return (
            n <= self.opts.size
            and self._joined(cur, end, n) <= self.opts.effective_max
            and self._bare(cur)
        )

    def _opening_pieces(
        self, b: int, lead_start: int, lead_len: int
    ) -> list[tuple[tuple[int, int], bool]] | None:
        """Block ``b`` cut at its own seams so that its first piece fits beside titles
        and leads (from ``lead_start``, of ``lead_len``): in the room they leave of
        the size, else (that room is under a floor's worth, or no seam lies within
        it) in what they leave of the effective maximum. None when no seam allows
        it: its first unit (a word, a table row, a table's head and first row) does
        not fit there."""
        size, top = self.opts.size, self.opts.effective_max
        # (with the effective maximum's room, no slack is left for leads inside b)
        caps: list[tuple[int, int | None, int]] = (
            [(size - lead_len, None, size)] if size - lead_len >= self.floor else []
        )
        caps.append((top - lead_len, 0, top))
        key = (b, lead_start, lead_len)
        if self._opened is not None and self._opened[0] == key:
            return self._opened[1]
        found = None
        text, start, end = self.text, self.doc.starts[b], self.doc.ends[b]
        # (in chars, what lies between the leads and the first piece counts too: the
        # block's indentation, when its pieces start past it)
        spaces = _INDENT.match(text, start)  # (always matches: it may be empty)
        indent = spaces.end() - start if self.chars and spaces else 0
        for cap, slack, total in caps:
            if cap - indent <= 0:
                break
            pieces = self._pieces(b, cap - indent, slack)
            (ps, pe), _ = pieces[0]
            seam = pe >= end or is_seam(text, pe)
            if seam and self._with_leads(lead_start, lead_len, pe, ps) <= total:
                found = pieces
                break
        self._opened = (key, found)
        return found

    def _with_leads(self, lead_start: int, lead_len: int, end: int, piece_start: int) -> int:
        """The length of leads and a first piece (from ``piece_start`` to ``end``) as
        one chunk: the span in chars, the sum in words, the exact count in tokens."""
        if self.chars:
            return end - lead_start
        if self.tokens:
            return self._exact(lead_start, end, None)
        return lead_len + self._len(piece_start, end)

    def _pieces(
        self, b: int, first_cap: int, first_slack: int | None = None
    ) -> list[tuple[tuple[int, int], bool]]:
        """Block ``b`` in pieces of at most the size (the first at most
        ``first_cap``), each with whether it repeats its table's head."""
        block = self.doc.block(b)
        size = self.opts.size
        if block.kind == "table" and block.header is not None:
            return self.split.table_fragments(block, first_cap, size)
        return [(span, False) for span in self.split.split(block, first_cap, size, first_slack)]

    def _bare(self, run: Run) -> bool:
        """Nothing but headings and leads so far (no text of their own): what
        follows travels with them."""
        if run.only_heading:
            return True
        doc = self.doc
        if not doc.leads or run.last_kind not in _MAY_LEAD:
            return False
        starts, kinds, leads = doc.starts, doc.kinds, doc.leads
        last = bisect_left(starts, run.end) - 1  # (most runs end with text: read it first)
        if last < 0 or (last not in leads and kinds[last] not in _TITLES):
            return False
        # (a run may start inside a lead too long for a chunk: with its last piece)
        first = bisect_right(starts, run.start) - 1
        if first < 0 or first > last or doc.ends[last] != run.end:
            return False
        if starts[first] != run.start and first not in leads:
            return False
        return all(j in leads or kinds[j] in _TITLES for j in range(first, last))

    def _hand_on_leads(self, runs: list[Run], cur: Run, b: int, section: int) -> Run:
        """A lead travels with the block it introduces: when block ``b`` does not
        join ``cur``, the leads ``cur`` ends with (b's introduction) leave it and
        open b's run, if they leave room worth filling beside them. Returns the
        run b meets."""
        doc, lengths = self.doc, self.lengths
        starts, ends, kinds = doc.starts, doc.ends, doc.kinds
        if cur.end != ends[b - 1] or self._bare(cur):
            return cur
        k = b - 1
        while k - 1 in doc.leads and starts[k - 1] > cur.start:
            k -= 1
        lead_len = ends[b - 1] - starts[k] if self.chars else sum(lengths[k:b])
        if starts[k] <= cur.start:
            return cur
        # -- b joins them whole, or its first piece, cut at its own seams, fills the
        # -- room beside them; a block with no seam that leaves one (one unit) does not
        joined = ends[b] - starts[k] if self.chars else lead_len + lengths[b]
        if joined > self.opts.effective_max and (
            kinds[b] in _TITLES
            or self._opening_pieces(b, starts[k], starts[b] - starts[k] if self.chars else lead_len)
            is None
        ):
            return cur
        # -- cur ends at the block before the leads
        for j in range(k, b):
            left = cur.kinds[kinds[j]] - lengths[j]
            if left:
                cur.kinds[kinds[j]] = left
            else:
                del cur.kinds[kinds[j]]
        if self.chars:
            cur.length = ends[k - 1] - cur.start + cur.header_len
        else:
            cur.length -= sum(lengths[k:b])
        cur.end, cur.last_kind = ends[k - 1], kinds[k - 1]
        cur.last_span = (max(starts[k - 1], cur.start), ends[k - 1])
        runs.append(cur)
        lead = self._new_run(starts[k], ends[k], lengths[k], kinds[k], section)
        for j in range(k + 1, b):
            self._extend(lead, starts[j], ends[j], lengths[j], kinds[j])
        return lead

    def _split_block(
        self,
        runs: list[Run],
        cur: Run | None,
        b: int,
        section: int,
        first_cap: int,
        pieces: list[tuple[tuple[int, int], bool]] | None = None,
    ) -> Run:
        """Block ``b`` in pieces (the first at most ``first_cap``, joining ``cur``
        when that holds only headings and leads; or ``pieces``, cut already);
        returns the run holding the last piece."""
        kind = self.doc.kinds[b]
        if pieces is None:
            pieces = self._pieces(b, first_cap)
        tail = self.split.tail
        for i, ((ps, pe), repeats) in enumerate(pieces):
            pn = self._len(ps, pe)
            # (only the first piece fills the room beside cur's titles and leads)
            if i == 0 and cur is not None and not repeats and self._bare(cur):
                self._join(cur, ps, pe, pn, kind, section, tail(ps, pe))
                continue
            if cur is not None:
                runs.append(cur)
            header = self.doc.tables[self.doc.starts[b]][1] if repeats else None
            cur = self._new_run(ps, pe, pn, kind, section, header)
            cur.tail = tail(ps, pe)
        assert cur is not None  # a block always gives at least one piece
        return cur

    def _absorb(self, cur: Run, i: int, section: int) -> int:
        """Extend ``cur`` over the blocks from ``i`` on that join it whole within its
        section (what _joined and _extend do, block by block, without the calls);
        returns the index of the first block that does not."""
        doc, lengths, run_kinds = self.doc, self.lengths, cur.kinds
        kinds, ends = doc.kinds, doc.ends
        stop, size = self.section_stops[section], self.opts.size
        if self.chars:
            # block ends only grow: the blocks that end by the limit are one bisect away
            j = bisect_right(ends, cur.start - cur.header_len + size, i, stop)
            if j == i:
                return i
            cur.length = ends[j - 1] - cur.start + cur.header_len
        else:  # in words every tail is 0
            tails = self.tails
            j, length, tail = i, cur.length, cur.tail
            while j < stop and length + tail + lengths[j] <= size:
                length += tail + lengths[j]
                tail = tails[j]
                j += 1
            if j == i:
                return i
            cur.length, cur.tail = length, tail
        for kind, n in zip(kinds[i:j], lengths[i:j], strict=True):
            run_kinds[kind] = run_kinds.get(kind, 0) + n
        last = j - 1
        cur.end, cur.last_kind, cur.last_span = (
            ends[last],
            kinds[last],
            (doc.starts[last], ends[last]),
        )
        return j

    def _may_carry(self, cur: Run, section: int) -> bool:
        """...except that headings with no text of their own travel with what follows.

        "## Page 12" followed at once by "### Reserved instances" (or by a heading
        of its own level) is one chunk start, not a heading stranded at the end of
        page 11's last chunk. A trusted heading may join transcribed text (the run
        becomes transcribed); a transcribed heading never joins trusted text.
        """
        return self._bare(cur) and (not cur.transcribed or self.doc.sections[section].transcribed)

    def _join(
        self, cur: Run, s: int, e: int, n: int, kind: str, section: int, tail: int = 0
    ) -> None:
        """Extend ``cur`` over a piece of ``section``: when the piece is the first
        past headings carried from another section, the run takes that section's
        path, trust and pages."""
        if cur.section != section:
            child = self.doc.sections[section]
            path = child.heading_path if self.opts.heading_paths else ()
            # -- heading context: the headings above the run's first character stay
            # -- in its path; a section outside them (an empty heading followed by a
            # -- heading above its level) does not lend the run its path
            above = cur.heading_path[: cur.context]
            if path[: cur.context] != above or cur.first_kind == "metadata":
                path = above  # (a run that opens with front matter is under no heading)
            cur.section = section
            cur.heading_path = path
            cur.transcribed = child.transcribed
            cur.reach_pages(child.page, child.page)
        self._extend(cur, s, e, n, kind, tail)

    @property
    def guards(self) -> Guards[Run]:
        # -- not cached on the packer: the guards hold its bound method, and a packer
        # -- holding them would be a reference cycle that outlives the chunking
        # -- a merge is measured on the span it covers, not on its pieces: whatever
        # -- lies between them (blank lines) is part of the merged chunk
        leads = partial(ends_with_lead, self.doc)
        return Guards.of(self.opts, attrgetter("length"), _same_trust, self._merge_reach, leads)

    def merge_runts(self, runs: list[Run], guards: Guards[Run]) -> list[Run]:
        return merge_runts(runs, self.opts.runt_merge, guards, self._merge)

    def excuse(self, runs: list[Run], guards: Guards[Run], i: int) -> str:
        """Why runs[i], a runt, was left alone ("" for a chunk that is no runt), by
        the runt merge's own guards."""
        if self.opts.runt_merge == "off":
            return ""
        return guards.excuse(runs, i)

    def overlap_outcome(self, prev: Run, cur: Run, cur_kind: str) -> str:
        """Whether overlap may cross from ``prev`` into ``cur`` (of kind ``cur_kind``):
        OVERLAP_APPLIED if so, else why not (model.OVERLAP_OUTCOMES)."""
        if self.opts.overlap <= 0:
            return OVERLAP_OFF
        if prev.transcribed or cur.transcribed:
            return OVERLAP_TRANSCRIBED
        if "table" in (prev.last_kind, cur.first_kind, cur_kind):
            return OVERLAP_TABLE
        if cur.first_kind in TITLES:  # a heading starts a new section
            return OVERLAP_NEW_SECTION
        if (
            prev.last_kind not in PROSE_KINDS
            or cur.first_kind not in PROSE_KINDS
            or cur_kind not in PROSE_KINDS
        ):
            return OVERLAP_NOT_PROSE
        return OVERLAP_APPLIED

    def overlap(self, prev: Run, cur: Run, cur_kind: str) -> tuple[int, int, str]:
        """Overlap span for ``cur`` taken from ``prev``'s tail, or (0, 0), and the
        overlap's outcome at that boundary."""
        outcome = self.overlap_outcome(prev, cur, cur_kind)
        if outcome != OVERLAP_APPLIED:
            return (0, 0, outcome)
        n = self.opts.overlap
        ls, le = prev.last_span
        text = self.text
        if self.chars:
            ts = max(ls, le - n)
        elif self.tokens:
            ts = self._tokens_back(ls, le, n)
        else:
            words = word_spans(text, ls, le)[-n:]
            ts = words[0][0] if words else le
        # never start mid-word: not even where the piece itself began inside a
        # word (a run with no whitespace, cut by characters as the last resort)
        ts = _word_start(text, ts, le)
        if self.tokens:
            # -- the prefix counted alone: snapping only shrank it, but its last
            # -- token may read differently without what follows; drop words until it fits
            while ts < le and self.split.length(ts, le) > n:
                ts = _word_start(text, ts + 1, le)
        if ts >= le or not _WORD.search(_TAG.sub("", text[ts:le])):
            return (0, 0, OVERLAP_EMPTY)
        # -- every block the prefix copies from is prose: inside a list, no fence,
        # -- HTML block or table (the prefix lies in the last piece, of one block)
        if prev.last_kind == "list" and self._list_holds_code(ts, le):
            return (0, 0, OVERLAP_NOT_PROSE)
        return (ts, le, OVERLAP_APPLIED)

    def _tokens_back(self, ls: int, le: int, n: int) -> int:
        """Where the last ``n`` tokens of the document's token stream that end by
        ``le`` begin, no earlier than ``ls`` (the offsets made once per parse)."""
        key = ("token offsets", self.opts.tokenizer)
        offsets = self.doc.cache.get(key)
        if offsets is None:
            counter = self.opts.counter
            assert counter is not None
            offsets = self.doc.cache[key] = counter.offsets(self.text)
        starts, ends = offsets
        first = int(starts.searchsorted(ls, side="left"))
        done = int(ends.searchsorted(le, side="right"))  # tokens that end by le
        at = max(first, done - n)
        return int(starts[at]) if at < len(starts) else le

    def _list_holds_code(self, s: int, e: int) -> bool:
        """Whether the items of the list text[s:e] lies in hold a fence, an HTML
        block or a table within s:e (the engine reads those items, once per parse)."""
        doc, text = self.doc, self.text
        b = bisect_right(doc.starts, s) - 1
        items = doc.parts(doc.starts[b]) or ((doc.starts[b], doc.ends[b]),)
        a = items[max(0, bisect_right(items, s, key=itemgetter(0)) - 1)][0]
        z = items[max(0, bisect_left(items, e, key=itemgetter(0)) - 1)][1]
        # -- why -- code needs a fence or four columns of indentation, an HTML block a
        # -- line opening with "<", a table a separator line: items with none of them
        # -- hold no such block, and are not read by the engine (once per parse)
        key = ("may hold code", a, z)
        may = doc.cache.get(key)
        if may is None:
            may = doc.cache[key] = _may_hold_code(text, a, z)
        if not may:
            return False
        found = cached_inner_blocks(text, doc.cache, a, z)
        return any(x.tag in NOT_PROSE and x.start < e and s < x.end for x in found)


_SPACE = re.compile(r"\s")


def _word_start(text: str, ts: int, le: int) -> int:
    """``ts`` moved forward to the start of a word (past whitespace), at most ``le``."""
    if ts > 0 and not text[ts - 1].isspace():
        m = _SPACE.search(text, ts, le)
        gap = m.start() if m else le
        if has_cjk(text, ts - 1, gap):  # (a word of CJK text may start before the space)
            while ts < gap and not is_word_seam(text, ts):
                ts += 1
        else:
            ts = gap
    while ts < le and text[ts].isspace():
        ts += 1
    return ts


def pack_drafts(doc: ParsedDocument, opts: ChunkOptions) -> list[Draft]:
    packer = Packer(doc, opts)
    guards = packer.guards  # (one for the merge and for saying why a runt was left)
    runs = packer.merge_runts(packer.pack(), guards)
    return _drafts(packer, guards, runs, 0, len(runs))


def pack_drafts_near(
    doc: ParsedDocument, opts: ChunkOptions, lo: int, hi: int
) -> tuple[int, list[Draft]] | None:
    """The drafts of the chunks that reach offsets lo..hi (a body ending past lo, a
    body or its overlap starting before hi; a few more past them may come too), and
    how many chunks come before them: pack_drafts' chunks, with no draft made before
    them and no block packed past the first section from hi on that no chunk crosses
    (Packer.pack's ``until``). None when that section's first chunk could reach back
    into lo..hi by its overlap: then only the whole document says where it ends."""
    packer = Packer(doc, opts)
    guards = packer.guards
    runs = packer.merge_runts(packer.pack(until=hi), guards)
    if packer.settled is not None:
        # -- the section's first run keeps its place (no merge crosses it), with
        # -- its end unknown: it is dropped, once its overlap is seen to stay out
        opening = runs.pop()
        os_, oe, _ = packer.overlap(runs[-1], opening, opening.kind)
        if oe > os_ and os_ < hi:
            return None
    first = bisect_right(runs, lo, key=attrgetter("end"))  # the first body ending past lo
    # a body starting before hi, or the one after it (its overlap lies in it)
    stop = min(len(runs), bisect_left(runs, hi, key=attrgetter("start")) + 1)
    return first, _drafts(packer, guards, runs, first, stop)


def _drafts(
    packer: Packer, guards: Guards[Run], runs: list[Run], first: int, stop: int
) -> list[Draft]:
    """Runs ``first`` to ``stop`` as drafts: each one's kind, overlap and runt excuse."""
    drafts: list[Draft] = []
    for i in range(first, stop):
        run = runs[i]
        kind = run.kind
        os_, oe, outcome = packer.overlap(runs[i - 1], run, kind) if i else (0, 0, "")
        drafts.append(
            Draft(
                start=run.start,
                end=run.end,
                kind=kind,
                heading_path=run.heading_path,
                transcribed=run.transcribed,
                page=run.page,
                header=run.header,
                overlap_start=os_,
                overlap_end=oe,
                runt_excuse=packer.excuse(runs, guards, i),
                last_page=run.last_page,
                overlap_outcome=outcome,
                length=run.length if packer.tokens else -1,  # counted exactly already,
            )
        )
    return drafts
