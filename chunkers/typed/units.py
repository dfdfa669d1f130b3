"""What every type's chunker shares: its units in the text, and packing them.

A type's chunker only says where its units begin (a question, an endpoint, a
speaker's turn, a clause: a Mark) and what heading path each carries. Here a
unit runs from its mark to the next mark, or to a section heading at its own
level or above; text outside every unit (a document's opening, a section's
introduction) is a gap, chunked by the structural chunker with the headings
above it. A unit that fits the size is one chunk, or packs with the units after
it of the same group; one too big is cut by the structural chunker (its blocks,
then the seam ladder inside a block), its unit's path on every part. So there is
one packer and one ladder of seams, and a type's chunker adds only its cuts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from ..doctype import FENCE, HEADING
from ..options import ChunkOptions
from ..spans import Draft
from ..structural import pack_drafts, parse
from ..text import SourceText, count_units


@dataclass(frozen=True, slots=True)
class Line:
    start: int
    end: int  # before its line break
    text: str
    in_fence: bool  # inside a fenced code block (a fence line itself counts as inside)


def lines(text: str) -> Iterator[Line]:
    """Every line with its offsets, and whether it lies in a code fence."""
    pos, n, fence = 0, len(text), False
    while pos <= n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl
        line = text[pos:end]
        opens = FENCE.match(line) is not None
        yield Line(pos, end, line, fence or opens)
        if opens:
            fence = not fence
        if nl < 0:
            break
        pos = nl + 1


@dataclass(frozen=True, slots=True)
class Mark:
    """Where a unit begins, and what it carries."""

    start: int
    path: tuple[str, ...]  # the heading path of every chunk made from it
    level: int = 7  # a section heading at this level or above ends it (7: any heading)
    group: object = None  # units of one group (not None) may share a chunk


@dataclass(frozen=True, slots=True)
class Heading:
    start: int
    level: int
    title: str


def headings(text: str) -> list[Heading]:
    """The ATX headings outside code fences."""
    out = []
    for ln in lines(text):
        if not ln.in_fence and (m := HEADING.match(ln.text)):
            out.append(Heading(ln.start, len(m[1]), m[2].strip()))
    return out


def heading_stack(stack: list[Heading], h: Heading) -> list[Heading]:
    """The headings above the text after ``h``: ``stack`` with ``h`` in its place."""
    return [*(s for s in stack if s.level < h.level), h]


def titles(stack: list[Heading]) -> tuple[str, ...]:
    return tuple(h.title for h in stack)


@dataclass(slots=True)
class _Span:
    start: int
    end: int
    mark: Mark | None  # None: a gap
    above: tuple[str, ...] = ()  # a gap's headings above its start
    own: int = -1  # a unit's own start, when headings travel with it (else -1)


def _spans(text: str, marks: list[Mark], heads: list[Heading]) -> list[_Span]:
    """The text cut into units and gaps, covering all of it in order."""
    starts = {m.start for m in marks}
    events: list[tuple[int, int, Mark | Heading]] = [(m.start, 0, m) for m in marks]
    events += [(h.start, 1, h) for h in heads if h.start not in starts]
    events.sort(key=lambda e: (e[0], e[1]))
    spans = [_Span(0, 0, None)]
    stack: list[Heading] = []
    for at, _, ev in events:
        cur = spans[-1]
        if isinstance(ev, Mark):
            cur.end = at
            spans.append(_Span(at, at, ev))
            # a mark on a heading line ends the sections at its level and below
            stack = [s for s in stack if s.level < ev.level]
            continue
        if cur.mark is not None and ev.level > cur.mark.level:
            continue  # a heading inside the unit: it stays in it
        stack = heading_stack(stack, ev)
        if cur.mark is None:
            continue  # (a gap runs on through its own headings)
        cur.end = at
        spans.append(_Span(at, at, None, titles(stack[:-1])))
    spans[-1].end = len(text)
    spans = [s for s in spans if s.end > s.start]
    # the headings that end a gap (a group's title before its first question) travel
    # with the unit after it; a gap of nothing else goes with them
    out: list[_Span] = []
    for s in spans:
        if out and out[-1].mark is None and s.mark is not None:
            gap = out[-1]
            tail = _trailing_headings(text, gap.start, gap.end)
            if tail < gap.end:
                above = gap.above if tail == gap.start else _above(text, gap, tail)
                if tail == gap.start:
                    out.pop()
                else:
                    gap.end = tail
                s = _Span(tail, s.end, s.mark, above, own=s.start)
        out.append(s)
    return out


def _trailing_headings(text: str, s: int, e: int) -> int:
    """Where the run of headings (and blank lines) that ends text[s:e] begins; e when
    its last line with text is no heading."""
    at = e
    for ln in reversed(list(lines(text[s:e]))):
        if ln.text.strip() and not (HEADING.match(ln.text) and not ln.in_fence):
            break
        if ln.text.strip():
            at = s + ln.start
    return at


def _above(text: str, gap: _Span, at: int) -> tuple[str, ...]:
    """The headings above ``at``: the gap's, then those inside it before ``at``."""
    stack: list[Heading] = []
    for h in headings(text[gap.start : at]):
        stack = heading_stack(stack, h)
    return (*gap.above, *titles(stack))


def _structural(
    norm: str, s: int, e: int, opts: ChunkOptions, path: tuple[str, ...], excuse: str
) -> list[Draft]:
    """text[s:e] by the structural chunker, its offsets moved to the document's, with
    ``path`` above every part's own headings. (Pages and trust are the document's
    to say: a part of it cannot tell them, so they are left unsaid.)"""
    sub = pack_drafts(parse(SourceText.of(norm[s:e])), opts)
    out = []
    for d in sub:
        own = tuple(t for t in d.heading_path if t not in path)
        out.append(
            replace(
                d,
                start=d.start + s,
                end=d.end + s,
                header=None if d.header is None else (d.header[0] + s, d.header[1] + s),
                overlap_start=d.overlap_start + s,
                overlap_end=d.overlap_end + s,
                heading_path=(path + own) if opts.heading_paths else (),
                page=None,
                last_page=None,
                transcribed=False,
                runt_excuse=(excuse if len(sub) == 1 and d.runt_excuse else d.runt_excuse),
            )
        )
    return out


def _trimmed(norm: str, s: int, e: int) -> tuple[int, int]:
    """The span without the blank lines around it (a chunk holds text, not gaps)."""
    while s < e and norm[s] in " \t\n":
        s += 1
    while e > s and norm[e - 1] in " \t\n":
        e -= 1
    return s, e


def pack_units(
    src: SourceText,
    marks: list[Mark],
    opts: ChunkOptions,
    excuse: str,
    gap_excuse: str,
    joined_path: Callable[[list[tuple[str, ...]]], tuple[str, ...]] | None = None,
) -> list[Draft]:
    """The drafts of a document cut at ``marks``.

    Args:
        excuse: why a unit shorter than the runt floor stands alone ("a question
            and its answer"): it is whole, and joining it to a neighbour would
            join two units.
        gap_excuse: why text outside every unit, shorter than the floor, stands
            alone ("text outside the questions").
        joined_path: the path of a chunk several units share, from their paths
            (default: the first unit's).
    """
    norm = src.norm
    spans = _spans(norm, sorted(marks, key=lambda m: m.start), headings(norm))
    floor = opts.floor
    drafts: list[Draft] = []
    packed: list[tuple[str, ...]] = []  # the paths in the open chunk
    open_group: object = None

    def count(s: int, e: int) -> int:
        return count_units(norm[s:e], opts.unit, opts.tokenizer)

    def close() -> None:
        if packed and len(packed) > 1 and joined_path is not None:
            last = drafts[-1]
            last.heading_path = joined_path(packed) if opts.heading_paths else ()
        packed.clear()

    for sp in spans:
        s, e = _trimmed(norm, sp.start, sp.end)
        if s >= e:
            continue
        if sp.mark is None:
            close()
            open_group = None
            drafts += _structural(norm, s, e, opts, sp.above, gap_excuse)
            continue
        mark = sp.mark
        path = mark.path if opts.heading_paths else ()
        n = count(s, e)
        # a unit that fits, under headings that travel with it: they may take it past
        # the size up to the effective maximum (the runt merge's allowance, for a title
        # of a few words); past that they stand alone, and the unit stays whole
        carried = sp.own > s and count(sp.own, e) <= opts.size
        if carried and n > opts.effective_max:
            close()
            open_group = None
            drafts += _structural(norm, s, sp.own, opts, sp.above, gap_excuse)
            s, n = _trimmed(norm, sp.own, e)[0], count(sp.own, e)
        if n > (opts.effective_max if carried else opts.size):
            close()
            open_group = None
            drafts += _structural(norm, s, e, opts, path, excuse)
            continue
        last = drafts[-1] if drafts else None
        same = packed and last is not None and mark.group is not None and mark.group == open_group
        joined = count(last.start, e) if same and last is not None else -1
        if 0 <= joined <= opts.size:
            assert last is not None
            last.end = e
            last.runt_excuse = excuse if joined < floor else ""
            packed.append(mark.path)
            continue
        close()
        drafts.append(Draft(s, e, heading_path=path, runt_excuse=excuse if n < floor else ""))
        packed.append(mark.path)
        open_group = mark.group
    close()
    return drafts
