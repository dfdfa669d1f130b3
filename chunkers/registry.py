"""The strategies the app lists, and the one entry point."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from .doctype import classify
from .fixed import fixed_drafts
from .limit import Fitted, fit
from .model import Chunk
from .options import DEFAULT_STRATEGY, ChunkOptions
from .peers import chonkie_recursive_drafts, chonkie_token_drafts, semchunk_drafts
from .recursive import recursive_drafts
from .routing import route_for
from .sentence import sentence_drafts, sentence_drafts_near
from .spans import Draft, finish
from .structural import ParsedDocument, pack_drafts, pack_drafts_near, parse, structural_drafts
from .text import SourceText
from .typed import api_drafts, contract_drafts, faq_drafts, transcript_drafts


@dataclass(frozen=True, slots=True)
class Strategy:
    name: str
    display_name: str
    description: str
    drafts: Callable[[SourceText, ChunkOptions], list[Draft]]
    floor: bool = False  # it merges runts: a chunk below the floor is a broken promise


def _by_name(*strategies: Strategy) -> dict[str, Strategy]:
    return {s.name: s for s in strategies}


STRATEGIES: dict[str, Strategy] = _by_name(
    Strategy(
        "structural",
        "Structural",
        "The structure-aware chunker: cuts only between blocks, keeps tables whole or repeats "
        "their header, quarantines transcribed text and merges runts backward.",
        structural_drafts,
        floor=True,
    ),
    Strategy(
        "fixed",
        "Fixed size",
        "Windows of exactly `size` units with stride size - overlap: the boundary lottery.",
        fixed_drafts,
    ),
    Strategy(
        "sentence",
        "Sentence",
        "Packs whole sentences up to `size`; a sentence longer than `size` is cut at "
        "lines, then stops and clause marks, then words, and its chunks say so "
        "(`sentence_cut`). No chunk passes `size`. Overlap in whole sentences.",
        sentence_drafts,
    ),
    Strategy(
        "recursive",
        "LangChain recursive",
        "LangChain's RecursiveCharacterTextSplitter with markdown separators, "
        "the splitter most pipelines run.",
        recursive_drafts,
    ),
)


# -- the chunkers people run instead, by name through chunk() and chunk_with(); kept
# -- apart from STRATEGIES, the lab's own four that the labs compare side by side at
# -- every size (a peer's sweep costs more, and Chonkie is optional): the sidebar, the
# -- command line and a diff offer them by name (OFFERED), and Labs 3 and 6 add the
# -- sidebar's choice beside the four
PEERS: dict[str, Strategy] = _by_name(
    Strategy(
        "chonkie-recursive",
        "Chonkie recursive",
        "Chonkie's RecursiveChunker with its default rules: paragraphs, sentences, "
        "punctuation, words. No overlap: the chunker has none.",
        chonkie_recursive_drafts,
    ),
    Strategy(
        "chonkie-token",
        "Chonkie token",
        "Chonkie's TokenChunker: windows of `size` units with `overlap` units shared.",
        chonkie_token_drafts,
    ),
    Strategy(
        "semchunk",
        "semchunk",
        "semchunk: splits at the most meaningful whitespace and punctuation it can, "
        "then merges pieces up to `size`; overlap in units.",
        semchunk_drafts,
    ),
)


def _routed(src: SourceText, opts: ChunkOptions) -> list[Draft]:
    """The routed strategy: the text's type by its marks, then that type's chunker."""
    return get_strategy(route_for(classify(src.norm).doc_type)).drafts(src, opts)


# -- routing and the chunker of each document type (chunkers.typed): offered by name
# -- like the peers, and kept out of STRATEGIES, whose four every lab sweeps side by side
TYPED: dict[str, Strategy] = _by_name(
    Strategy(
        "routed",
        "Routed by type",
        "Each document through its type's chunker (FAQ, API, transcript, contract; "
        "prose to the structural chunker), by a rule-based classifier of its marks.",
        _routed,
        # prose keeps the structural floor; a type's short unit (an FAQ pair, a speaker
        # turn) is a runt its chunker excuses by name, so it does not fail the gate
        floor=True,
    ),
    Strategy(
        "faq",
        "FAQ",
        "One question and its answer per chunk; a long answer cut at its own seams, "
        "the question in every part's heading path.",
        faq_drafts,
    ),
    Strategy(
        "api",
        "API reference",
        "One endpoint per chunk with its description, parameters and first example; "
        "the endpoint line in every part's heading path.",
        api_drafts,
    ),
    Strategy(
        "transcript",
        "Transcript",
        "Chunks start at speaker turns, whole turns packed up to the size; the "
        "speakers in the heading path, a long turn cut at sentences.",
        transcript_drafts,
    ),
    Strategy(
        "contract",
        "Contract",
        "Chunks start at clauses and sub-clauses, the clause path (4. Redistribution > (b)) "
        "as the heading path.",
        contract_drafts,
    ),
)


# -- every strategy a caller may name: the lab's own, the peers, then routing and the
# -- type chunkers (a sidebar, the command line's --strategy, a diff configuration)
OFFERED: dict[str, Strategy] = {**STRATEGIES, **PEERS, **TYPED}


def promises_floor(name: str) -> bool:
    """Whether the strategy ``name`` merges runts, so that a runt it leaves is a fault
    (False for a peer, chunks made elsewhere, or a name that is no strategy)."""
    found = OFFERED.get(name)
    return bool(found and found.floor)


def get_strategy(name: str) -> Strategy:
    """The strategy a caller names: one of the lab's own (STRATEGIES) or a peer.

    Raises:
        ValueError: the name is neither; the message lists the names there are.
    """
    found = OFFERED.get(name)
    if found is None:
        names = ", ".join(OFFERED)
        raise ValueError(f"strategy must be one of {names}, got {name!r}")
    return found


def chunk(
    text: str,
    strategy: str = DEFAULT_STRATEGY,
    size: int | None = None,
    overlap: int | None = None,
    unit: str = "chars",
    **options: object,
) -> list[Chunk]:
    """Chunk ``text`` with a named strategy.

    With no size, the structural defaults apply: 1800 chars with 150 overlap. An
    explicit size without an overlap means no overlap, so ``chunk(t, "fixed",
    24, unit="words")`` is the boundary-lottery lab as it opens.

    Args:
        size: the largest chunk, in ``unit`` (chars, words or tokens).
        overlap: how much of the previous chunk each chunk repeats, in ``unit``.
        **options: the other ChunkOptions fields (runt_merge, heading_paths,
            tokenizer, limit).

    Returns:
        The chunks in text order; none for an empty or blank text.

    Raises:
        ValueError: an unknown strategy or an option out of range (one line).
        LimitUnreachable: with ``limit``, no size keeps every chunk within it.
    """
    strat = get_strategy(strategy)
    return chunk_with(text, strat.name, ChunkOptions.sized(size, overlap, unit=unit, **options))


def chunk_with(text: str, strategy: str, opts: ChunkOptions) -> list[Chunk]:
    """``chunk`` with the options already made; the chunks of chunk_fitted."""
    return chunk_fitted(text, strategy, opts).chunks


def chunk_fitted(text: str, strategy: str, opts: ChunkOptions) -> Fitted:
    """The chunks, and the size they were made at: ``opts.size``, or with
    ``opts.limit`` the size chosen to keep every indexed text within it
    (chunkers.limit).

    Raises:
        ValueError: ``text`` is not a str, or the strategy is unknown.
        LimitUnreachable: no size keeps every indexed text within ``opts.limit``.
    """
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    strat = get_strategy(_resolved(text, strategy))
    if not text or text.isspace():  # (strip() would copy the whole text to say so)
        return Fitted([], opts.size)
    if strat.name == "structural" and opts.limit is not None:
        parsed = parse(text)  # -- parse once, pack at each size tried
        return fit(
            opts, lambda o: finish(parsed.source, pack_drafts(parsed, o), o.unit, o.tokenizer)
        )
    src = SourceText.of(text)
    return fit(opts, lambda o: finish(src, strat.drafts(src, o), o.unit, o.tokenizer))


def _resolved(text: str, strategy: str) -> str:
    """``strategy``, or for "routed" the strategy the text's type goes to: named once,
    so a sweep or a limit's search over sizes classifies once, and a prose document
    keeps the structural chunker's parse-once path."""
    if strategy != "routed":
        return strategy
    return route_for(classify(text).doc_type)


def chunk_parsed(parsed: ParsedDocument, opts: ChunkOptions) -> list[Chunk]:
    """Structural chunks from a parse made once with ``parse(text)``: for sweeps."""
    if not parsed.source.norm or parsed.source.norm.isspace():
        return []
    return fit(
        opts, lambda o: finish(parsed.source, pack_drafts(parsed, o), o.unit, o.tokenizer)
    ).chunks


def chunk_sweep(
    text: str,
    strategy: str,
    options: Iterable[ChunkOptions],
    parsed: ParsedDocument | None = None,
) -> Iterator[list[Chunk]]:
    """The chunks of one text at each of many options (a sweep over sizes), with
    what no size changes made once: the structural parse (``parsed``, when the
    caller holds one), and for the other strategies the text's token offsets and
    token counts (kept on one SourceText; its sentences are kept by text, see
    chunkers.sentence.document_sentences).

    Args:
        parsed: ``parse(text)`` made earlier, reused by the structural strategy
            (the other strategies ignore it).

    Returns:
        A lazy iterator: one list of chunks per options, in the order given.
    """
    strat = get_strategy(_resolved(text, strategy) if isinstance(text, str) else strategy)
    if strat.name == "structural":
        parsed = parse(text) if parsed is None else parsed
        for opts in options:
            yield chunk_parsed(parsed, opts)
        return
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    src = SourceText.of(text) if text and not text.isspace() else None
    for opts in options:
        if src is None:
            yield []
            continue
        yield fit(opts, lambda o: finish(src, strat.drafts(src, o), o.unit, o.tokenizer)).chunks


def chunk_sweep_near(
    text: str,
    strategy: str,
    options: Iterable[ChunkOptions],
    near: tuple[int, int],
    parsed: ParsedDocument | None = None,
) -> Iterator[tuple[int, list[Chunk]]]:
    """chunk_sweep kept to characters ``near`` = (lo, hi) of ``text``: at each options,
    the chunks that reach into them (a body ending past lo, a body or its overlap
    starting before hi; one or two more past them may come too), numbered as in the
    whole chunking, and the number of the first (how many come before it).

    -- why -- a chunk's number counts every chunk before it, so those are packed at
    -- every size, but none of them is made; and packing stops past hi where no chunk
    -- crosses (structural: a section no chunk crosses; sentence: the chunk after
    -- hi). The other strategies, and a size a limit chooses, chunk the whole text.
    """
    name = _resolved(text, strategy) if isinstance(text, str) else strategy
    if name not in ("structural", "sentence") or not text or text.isspace():
        for chunks in chunk_sweep(text, strategy, options, parsed):
            yield _reaching(chunks, *near)
        return
    if name == "structural":
        parsed = parse(text) if parsed is None else parsed
        src = parsed.source
    else:
        parsed, src = None, SourceText.of(text)
    lo, hi = src.to_norm(near[0]), src.to_norm(near[1]) + 1
    for opts in options:
        found = None
        if opts.limit is None:
            found = (
                sentence_drafts_near(src, opts, lo, hi)
                if parsed is None
                else pack_drafts_near(parsed, opts, lo, hi)
            )
        if found is None:  # (the whole text, then the chunks near lo..hi)
            (chunks,) = chunk_sweep(text, name, [opts], parsed)
            yield _reaching(chunks, *near)
            continue
        first, drafts = found
        yield first, finish(src, drafts, opts.unit, opts.tokenizer, first)


def _reaching(chunks: list[Chunk], lo: int, hi: int) -> tuple[int, list[Chunk]]:
    """The chunks that reach characters lo..hi, and the number of the first."""
    at = next((i for i, c in enumerate(chunks) if c.end > lo), len(chunks))
    stop = at
    for i in range(at, len(chunks)):
        c = chunks[i]
        if min(c.start, c.overlap_start if c.overlap_prefix else c.start) < hi:
            stop = i + 1
    return at, chunks[at:stop]
