"""The chunk view as data and escaped HTML: no Streamlit here.

The document is cut at every chunk boundary, overlap boundary and answer
boundary, so each segment knows which chunk's body it lies in, whether some
later chunk copied it as overlap (from the real ``overlap_start``/``overlap_end``
offsets, never an assumed width) and whether it is part of the answer.
Every piece of document text goes through ``html.escape``: a document can
never inject markup or script into the page.
"""

from __future__ import annotations

import hashlib
import html
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from chunkers import Chunk, ChunkOptions
from chunkers.model import HEADING_SEPARATOR
from chunkers.options import Unit
from chunkers.text import count_units
from lab.measure.survival import Survival, verdict_line
from lab.retrieval.bm25 import ChunkScore
from ui.palette import ANSWER, CHUNK_SHADES, OVERLAP_SHADE, RUNT, chunk_shade

MAX_VIEW_CHARS = 12_000  # longer documents show a window around the answer
CARD_PREVIEW_CHARS = 400
CARD_WINDOW = 100  # cards shown at once: a long document's cards come in windows of this many


@dataclass(frozen=True, slots=True)
class Segment:
    start: int
    end: int
    chunk: int | None  # index of the chunk whose body holds this text (None: between chunks)
    overlap_into: tuple[int, ...] = ()  # chunks that copied this text as overlap prefix
    answer: bool = False


def segments(
    text: str,
    chunks: Sequence[Chunk],
    answer_span: tuple[int, int] | None = None,
    window: tuple[int, int] | None = None,
) -> list[Segment]:
    """Cut ``text`` (or ``text[window]``) into uniformly marked segments."""
    lo, hi = window if window else (0, len(text))
    cuts = {lo, hi}
    for c in chunks:
        cuts.update((c.start, c.end))
        if c.overlap_end > c.overlap_start:
            cuts.update((c.overlap_start, c.overlap_end))
    if answer_span:
        cuts.update(answer_span)
    points = sorted(p for p in cuts if lo <= p <= hi)
    bodies = sorted((c.start, c.end, c.index) for c in chunks)
    starts = [b[0] for b in bodies]
    overlaps = [
        (c.overlap_start, c.overlap_end, c.index) for c in chunks if c.overlap_end > c.overlap_start
    ]
    out: list[Segment] = []
    for a, b in pairwise(points):
        if a == b:
            continue
        i = bisect_right(starts, a) - 1
        holder = bodies[i][2] if i >= 0 and bodies[i][0] <= a < bodies[i][1] else None
        into = tuple(idx for s, e, idx in overlaps if s <= a < e)
        ans = answer_span is not None and answer_span[0] <= a < answer_span[1]
        out.append(Segment(a, b, holder, into, ans))
    return out


def view_window(
    text_len: int,
    answer_span: tuple[int, int] | None,
    max_chars: int = MAX_VIEW_CHARS,
    around: tuple[int, int] | None = None,
) -> tuple[int, int]:
    """The whole text when short; otherwise ``max_chars`` around ``around`` (by default
    the answer, or the start)."""
    if text_len <= max_chars:
        return (0, text_len)
    around = around or answer_span
    centre = (around[0] + around[1]) // 2 if around else 0
    lo = max(0, min(centre - max_chars // 2, text_len - max_chars))
    return (lo, lo + max_chars)


_CHUNK_LABEL = (
    '<span style="font-size:0.7em;font-weight:700;color:#333;background:#fff;'
    'border:1px solid #888;border-radius:3px;padding:0 3px;margin:0 2px;">{n}</span>'
)


def _style(seg: Segment) -> str:
    parts = []
    if seg.overlap_into:
        # hatched yellow: readable as "copied" even without colour vision
        parts.append(
            f"background:repeating-linear-gradient(45deg,{OVERLAP_SHADE}66 0 6px,"
            f"{OVERLAP_SHADE}cc 6px 12px)"
        )
    elif seg.chunk is not None:
        parts.append(f"background:{chunk_shade(seg.chunk)}")
    if seg.answer:
        parts.append(f"border-bottom:3px solid {ANSWER};font-weight:600")
    return ";".join(parts)


SCROLL_TARGET = "data-scroll-target"  # on the answer's first piece and the card holding it


def document_html(
    text: str,
    chunks: Sequence[Chunk],
    answer_span: tuple[int, int] | None = None,
    *,
    max_chars: int = MAX_VIEW_CHARS,
    height_px: int | None = 520,
    around: tuple[int, int] | None = None,
) -> str:
    """The document with chunk spans shaded, overlap hatched and the answer underlined;
    a long one as a window around ``around`` (by default the answer)."""
    lo, hi = view_window(len(text), answer_span, max_chars, around)
    starts = {c.start: c.index for c in chunks}
    pieces: list[str] = []
    target_placed = False
    if lo > 0:
        pieces.append(f"<em>… {lo:,} characters before …</em>\n")
    for seg in segments(text, chunks, answer_span, (lo, hi)):
        if seg.start in starts:
            pieces.append(_CHUNK_LABEL.format(n=starts[seg.start] + 1))
        body = html.escape(text[seg.start : seg.end])
        style = _style(seg)
        title = ""
        if seg.overlap_into:
            title = (
                ' title="copied as overlap into chunk '
                + ", ".join(str(i + 1) for i in seg.overlap_into)
                + '"'
            )
        if seg.answer and not target_placed:  # where the box opens: the answer, or its split
            title += f" {SCROLL_TARGET}"
            target_placed = True
        pieces.append(f'<span style="{style}"{title}>{body}</span>' if style else body)
    if hi < len(text):
        pieces.append(f"\n<em>… {len(text) - hi:,} characters after …</em>")
    scroll = f"max-height:{height_px}px;overflow-y:auto;" if height_px else ""
    return (
        f'<div class="chunk-doc" style="{scroll}white-space:pre-wrap;line-height:1.7;'
        'font-size:0.92em;border:1px solid #ddd;border-radius:6px;padding:10px;">'
        + "".join(pieces)
        + "</div>"
    )


def legend_html() -> str:
    a, b = CHUNK_SHADES
    return (
        '<div style="font-size:0.8em;">'
        f'<span style="background:{a};padding:1px 6px;">chunk 1</span> '
        f'<span style="background:{b};padding:1px 6px;">chunk 2</span> '
        f'<span style="background:{OVERLAP_SHADE}99;padding:1px 6px;">copied as overlap</span> '
        f'<span style="border-bottom:3px solid {ANSWER};font-weight:600;">answer</span>'
        "</div>"
    )


# --------------------------------------------------------------------------- verdict


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool | None  # None: no answer to check
    text: str  # the survival check's words, with its mark
    missing: bool = False  # the answer given is not in the document: text is the warning


def verdict(survival: Survival | None) -> Verdict:
    if survival is None:
        return Verdict(None, "no answer picked: choose the answer text to see whether it survives")
    mark = "✓" if survival.intact else "✗"
    return Verdict(survival.intact, f"{mark} {survival.verdict}")


def short_verdict(survival: Survival | None) -> Verdict:
    """The verdict in a few words, for a narrow column on a projector:
    "✓ intact in chunk 9", "✗ split, chunks 6–7" (verdict_line's short form)."""
    if survival is None:
        return Verdict(None, "no answer picked")
    held = survival.chunk_index if survival.intact else None
    words = verdict_line(held, survival.pieces, short=True)
    return Verdict(held is not None, f"{'✓' if held is not None else '✗'} {words}")


# --------------------------------------------------------------------------- cards


@dataclass(frozen=True, slots=True)
class Card:
    index: int  # 0-based, as Chunk.index
    number: int  # 1-based, as people count and as the verdict says
    rank: int | None
    score: float | None
    length: int
    unit: str
    kind: str
    heading_path: str
    page: int | None
    runt: bool
    runt_excuse: str
    holds_answer: bool  # the answer sits whole in this chunk
    answer_piece: bool  # this chunk holds part of a split answer
    transcribed: bool
    header_repeated: bool
    overlap: int  # length of the overlap prefix, in the lab's unit (as ``length``)
    body: str = field(repr=False, default="")
    sentence_cut: str = ""  # the seam a sentence too long for a chunk was cut at, if any
    last_page: int | None = None  # the page of its last character


def chunk_cards(
    chunks: Sequence[Chunk],
    scores: Sequence[ChunkScore] | None,
    opts: ChunkOptions,
    survival: Survival | None = None,
    total: int | None = None,
) -> list[Card]:
    """A card per chunk of ``chunks`` (all of a document's, or a window of ``total``)."""
    by_index = {s.index: s for s in scores or ()}
    pieces = set(survival.pieces) if survival and not survival.intact else set()
    holder = survival.chunk_index if survival and survival.intact else None
    single = (len(chunks) if total is None else total) == 1
    cards = []
    for c in chunks:
        s = by_index.get(c.index)
        cards.append(
            Card(
                index=c.index,
                number=c.index + 1,
                rank=s.rank if s else None,
                score=s.score if s else None,
                length=c.length,
                unit=opts.unit_name,
                kind=c.kind,
                heading_path=HEADING_SEPARATOR.join(c.heading_path),
                page=c.page,
                last_page=c.last_page,
                runt=(c.length < opts.floor) and not single,
                runt_excuse=c.runt_excuse,
                holds_answer=c.index == holder,
                answer_piece=c.index in pieces,
                transcribed=c.transcribed,
                header_repeated=c.header_repeated,
                overlap=(
                    count_units(c.overlap_prefix, opts.unit, opts.tokenizer)
                    if c.overlap_prefix
                    else 0
                ),
                body=c.body,
                sentence_cut=c.sentence_cut,
            )
        )
    return cards


def page_label(page: int | None, last_page: int | None) -> str:
    """ "page 12", or "pages 3–4" for a chunk that spans pages."""
    if page is None:
        return "page —"
    if last_page is not None and last_page != page:
        return f"pages {page}–{last_page}"
    return f"page {page}"


def card_title(card: Card) -> str:
    """One plain line: 'chunk 3 · rank #1 · BM25 0.217 · 24 words · prose'."""
    bits = [f"chunk {card.number}"]
    if card.rank is not None:
        bits.append(f"rank #{card.rank}")
        bits.append(f"BM25 {card.score:.3f}")
    bits.append(f"{card.length:,} {card.unit}")
    bits.append(card.kind)
    return " · ".join(bits)


def card_flags(card: Card) -> list[str]:
    flags = []
    if card.holds_answer:
        flags.append("holds the answer")
    if card.answer_piece:
        flags.append("holds part of the answer")
    if card.runt:
        flags.append(
            "runt (below floor" + (f": {card.runt_excuse}" if card.runt_excuse else "") + ")"
        )
    if card.transcribed:
        flags.append("transcribed")
    if card.header_repeated:
        flags.append("header repeated")
    if card.sentence_cut:
        flags.append(f"sentence cut at {_SEAM_WORDS.get(card.sentence_cut, card.sentence_cut)}")
    if card.overlap:
        flags.append(f"+{card.overlap:,} {card.unit} overlap")
    return flags


# how each seam a sentence can be cut at reads on a card (chunkers.seams.SEAMS)
_SEAM_WORDS = {
    "line": "a line break",
    "stop": "a stop",
    "clause": "a clause mark",
    "word": "a space",
    "char": "a character",
}


def cards_html(
    cards: Sequence[Card], *, preview_chars: int = CARD_PREVIEW_CHARS, height_px: int | None = 520
) -> str:
    """All cards as one escaped HTML block (one element, however many chunks)."""
    out = []
    target = next((c.index for c in cards if c.holds_answer or c.answer_piece), None)
    for card in cards:
        border = (
            ANSWER if (card.holds_answer or card.answer_piece) else (RUNT if card.runt else "#ccc")
        )
        body = card.body if len(card.body) <= preview_chars else card.body[:preview_chars] + " …"
        meta = []
        if card.heading_path:
            meta.append(html.escape(card.heading_path))
        meta.append(page_label(card.page, card.last_page))
        flags = card_flags(card)
        mark = f" {SCROLL_TARGET}" if card.index == target else ""
        out.append(
            f'<div class="chunk-card"{mark} style="border:2px solid {border};border-left:8px solid '
            f'{chunk_shade(card.index)};border-radius:6px;padding:6px 8px;margin-bottom:6px;">'
            f'<div style="font-weight:700;">{html.escape(card_title(card))}</div>'
            f'<div style="font-size:0.8em;color:#444;">{" · ".join(meta)}</div>'
            + (
                '<div style="font-size:0.8em;font-weight:600;">'
                f"{html.escape(' · '.join(flags))}</div>"
                if flags
                else ""
            )
            + f'<div style="white-space:pre-wrap;font-size:0.82em;margin-top:4px;">'
            f"{html.escape(body)}</div></div>"
        )
    scroll = f"max-height:{height_px}px;overflow-y:auto;" if height_px else ""
    return f'<div class="chunk-cards" style="{scroll}">' + "".join(out) + "</div>"


# Opens the document box and the card box of the same chunk view (the column block
# around this script) at their scroll target, a third of the way down, so the text
# before the answer shows too. Without a target a box opens at the top. The view's
# digest in a comment makes the script new, so it runs again, whenever the view changes.
_SCROLL_JS = """<script>/* view %s */
(function () {
  var me = document.currentScript;
  function go(triesLeft) {
    var block = me && me.closest('[data-testid="stHorizontalBlock"]');
    var boxes = block ? block.querySelectorAll(".chunk-doc, .chunk-cards") : [];
    if (boxes.length < 2 && triesLeft > 0) {
      setTimeout(function () { go(triesLeft - 1); }, 50);
      return;
    }
    boxes.forEach(function (box) {
      var t = box.querySelector("[%s]");
      if (!t) { box.scrollTop = 0; return; }
      var top = t.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
      box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    });
  }
  go(40);
})();
</script>"""


def scroll_script(view_html: str) -> str:
    """Our fixed script that opens the chunk view at the answer (no document text in it)."""
    digest = hashlib.blake2b(view_html.encode(), digest_size=8).hexdigest()
    return _SCROLL_JS % (digest, SCROLL_TARGET)


# --------------------------------------------------------------------------- a long document


def answer_chunk(survival: Survival | None) -> int | None:
    """The chunk a view opens at: the one holding the answer, or its first piece."""
    if survival is None:
        return None
    if survival.intact:
        return survival.chunk_index
    return survival.pieces[0] if survival.pieces else None


def window_start(total: int, focus: int | None, window: int = CARD_WINDOW) -> int:
    """The first card (0-based) of a window of ``window`` cards that shows ``focus`` a
    third of the way down (the cards before it show too); 0 without a focus."""
    if focus is None or total <= window:
        return 0
    return max(0, min(focus - window // 3, total - window))


def find_chunks(chunks: Sequence[Chunk], query: str) -> list[int]:
    """Indexes of the chunks whose text holds ``query`` (case and runs of whitespace
    ignored), in document order."""
    words = query.casefold().split()
    if not words:
        return []
    needle = " ".join(words)
    return [c.index for c in chunks if needle in " ".join(c.body.casefold().split())]


def window_line(lo: int, hi: int, total: int, focus: int | None) -> str:
    """What the card box shows of a long document: 'Cards 255-354 of 2,328, around the
    answer (chunk 354)'."""
    line = f"Cards {lo + 1:,}–{hi:,} of {total:,}"
    if focus is not None and lo <= focus < hi:
        line += f", around the answer (chunk {focus + 1:,})"
    return line + "."


def count_line(chunks: Sequence[Chunk], text: str, unit: str) -> str:
    """The count caption: 'chunks: 8 from 192 words'."""
    u = Unit.named(unit)
    return f"chunks: {len(chunks)} from {count_units(text, u.base, u.tokenizer):,} {unit}"
