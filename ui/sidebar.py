"""The sidebar: document, question and answer, strategy, unit, size, overlap.

(The presenter switch sits on the page itself, see ui.frame: a projector hides the sidebar.)"""

from __future__ import annotations

from dataclasses import dataclass, field

import streamlit as st

from chunkers import ChunkOptions
from chunkers.model import UNITS
from chunkers.options import Unit
from chunkers.registry import OFFERED
from lab.inputs.convert import needs_conversion
from lab.inputs.documents import (
    MB,
    Document,
    DocumentError,
    decode_as,
    encoding_label,
    read_document,
)
from lab.inputs.gold import GoldQuestion
from lab.inputs.placement import IMPORTED, ChunkOrigin, PlacementError
from lab.inputs.samples import sample_names
from lab.report.markup import md_escape
from lab.retrieval.tokenize import tokenize
from lab.text import clip
from ui import cached, chunk_files, state
from ui.present import code_snippets, sweeps, urlstate

MAX_UPLOAD_MB = 5  # also server.maxUploadSize in .streamlit/config.toml
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * MB
_READ_AS = "_read_as"
_CHUNK_NAME = "_chunk_file_name"  # the uploaded chunk file's name, for pins
_CHUNK_ID = "_chunk_file_id"  # the upload whose chunks were offered last
_CONVERTED = "_converted_upload"  # (file id, Document or DocumentError) of a converted upload
UPLOAD_TYPES = ["md", "txt", "pdf", "html", "htm", "docx"]
SIZE_HIDDEN = "size_slider_hidden"  # the sidebar's size slider where the lab's control drags


@dataclass
class Context:
    """What every lab works on, as the sidebar left it."""

    doc_name: str | None  # the sample's name; None for an upload
    doc_label: str  # what the user calls the document
    text: str | None  # None until a usable document is there
    strategy: str  # a strategy's name, or "chunks:<digest>" for an uploaded chunk file
    unit: str  # a unit's name: words, chars, or "cl100k_base tokens" (ui.present.sweeps)
    size: int
    overlap: int
    question: str | None = None
    answer: str | None = None
    qa_source: str = "gold"
    gold: list[GoldQuestion] = field(default_factory=list)
    answer_missing: str | None = None  # why the answer given is not in the document

    @property
    def chunked(self) -> cached.Chunking:
        """The document and how the sidebar chunks it, as the cached functions of
        ui.cached take it (a lab that chunks another way: ``ctx.chunked._replace(...)``)."""
        return cached.Chunking(self.text or "", self.strategy, self.size, self.overlap, self.unit)

    @property
    def opts(self) -> ChunkOptions:
        return self.chunked.opts

    @property
    def origin(self) -> ChunkOrigin:
        return ChunkOrigin.named(self.strategy)

    @property
    def config(self) -> dict:
        q = st.session_state.get(state.QUESTION, 0)
        opts = self.opts
        strategy = self.strategy
        if self.origin.imported:  # the file's name, not its digest
            strategy = str(ChunkOrigin(st.session_state.get(_CHUNK_NAME, ""), imported=True))
        return {
            "doc": self.doc_name or self.doc_label,
            "q": q if q >= 0 else "own",
            "strategy": strategy,
            "unit": opts.unit,
            # the tokenizer under the link's name for it, only in tokens
            **({"tok": opts.tokenizer} if opts.unit == "tokens" else {}),
            "size": self.size,
            "overlap": self.overlap,
        }

    def answered(self) -> tuple[GoldQuestion, ...]:
        """The gold questions as the labs check them: question and answer only, so
        the same set read again (other line numbers) hits the same cached result."""
        return tuple(GoldQuestion(p.question, p.answer) for p in self.gold)


def _doc_label(name: str) -> str:
    return f"{name}.md"


def _read_as(file_id: str, encoding: str) -> None:
    st.session_state[_READ_AS] = (file_id, encoding)


def _upload() -> Document | None:
    ss = st.session_state
    f = st.sidebar.file_uploader(
        f"Upload a .md, .txt, .pdf, .html or .docx file (up to {MAX_UPLOAD_MB} MB)",
        type=UPLOAD_TYPES,
        key=state.UPLOAD,
        max_upload_size=MAX_UPLOAD_MB,
    )
    if f is None:
        return None
    raw = f.getvalue()
    read_as = ss.get(_READ_AS)
    try:
        if read_as and read_as[0] == f.file_id:
            doc = decode_as(raw, read_as[1], f.name)
            if len(raw) > MAX_UPLOAD_BYTES:
                raise DocumentError(f"{f.name} is over the {MAX_UPLOAD_MB} MB limit")
        else:
            doc = _read_upload(raw, f.name, f.file_id)
    except DocumentError as e:
        st.sidebar.error(md_escape(str(e).splitlines()[0]))  # the file name is the user's
        if e.encoding and not read_as:
            st.sidebar.button(
                f"Read it as {encoding_label(e.encoding)}",
                key="read_as_button",
                on_click=_read_as,
                args=(f.file_id, e.encoding),
            )
        return None
    if ss.get(state.UPLOAD_ID) != f.file_id:  # a new document: an answer pasted for another goes
        ss[state.UPLOAD_ID] = f.file_id
        ss[state.ANSWER_PASTE] = ""
    for note in doc.notes:  # what conversion says (a page read another way), a line each
        st.sidebar.info(md_escape(note))
    return doc


def _read_upload(raw: bytes, name: str, file_id: str) -> Document:
    """The upload read once per file: converting a PDF, web page or Word file is
    the slow part of a read, and every widget change reruns the page. A refusal
    is kept too, so it is not redone."""
    ss = st.session_state
    kept = ss.get(_CONVERTED)
    if kept and kept[0] == file_id:
        if isinstance(kept[1], DocumentError):
            raise kept[1]
        return kept[1]
    try:
        doc = read_document(raw, name=name, max_bytes=MAX_UPLOAD_BYTES)
    except DocumentError as e:
        if needs_conversion(name):
            ss[_CONVERTED] = (file_id, e)
        raise
    if needs_conversion(name):
        ss[_CONVERTED] = (file_id, doc)
    return doc


def upload_gold() -> list[GoldQuestion]:
    """The gold set loaded (on the integrity lab) for the upload now open, if any."""
    ss = st.session_state
    loaded = ss.get(state.UPLOAD_GOLD)
    return list(loaded[2]) if loaded and loaded[0] == ss.get(state.UPLOAD_ID) else []


def _check_answer(ctx: Context) -> None:
    """An answer that is not in the document is set aside with its reason: the lab
    shows the reason where the verdict goes and keeps everything else."""
    if ctx.answer and ctx.text is not None:
        ctx.answer_missing = cached.missing_answer(ctx.text, ctx.answer)
        if ctx.answer_missing:
            ctx.answer = None


def _question(ctx: Context) -> None:
    ss = st.session_state
    pairs = ctx.gold
    choices = list(range(len(pairs))) + [state.OWN_QUESTION]
    if ss.get(state.QUESTION) not in choices:
        ss[state.QUESTION] = choices[0]
    st.sidebar.selectbox(
        "Question",
        choices,
        key=state.QUESTION,
        format_func=lambda i: clip(pairs[i].question, 70) if i >= 0 else "Your own question…",
    )
    q = ss[state.QUESTION]
    if q >= 0:
        ctx.question, ctx.answer, ctx.qa_source = pairs[q].question, pairs[q].answer, "gold"
        st.sidebar.caption(f"Answer: “{md_escape(clip(pairs[q].answer, 110))}”")
        return
    ctx.qa_source = "own"
    ss.setdefault(state.OWN_Q, "")
    own = st.sidebar.text_input(
        "Your question", key=state.OWN_Q, placeholder="how long are audit logs kept?"
    )
    ctx.question = own.strip() or None
    if ctx.question and not tokenize(ctx.question):
        # BM25 has nothing to search for: say so once, and rank nothing
        st.sidebar.warning(
            "This question has no searchable words (only punctuation, symbols or "
            "spaces); type a word to rank the chunks."
        )
        ctx.question = None
    mode = st.sidebar.radio(
        "Answer", (state.PICK, state.PASTE), key=state.ANSWER_MODE, horizontal=True
    )
    if mode == state.PICK:
        options = cached.sentences(ctx.text or "")
        if ss.get(state.ANSWER_PICK) not in options:
            ss[state.ANSWER_PICK] = None
        picked = st.sidebar.selectbox(
            "Answer sentence",
            options,
            key=state.ANSWER_PICK,
            index=None,
            placeholder="choose the sentence that answers it",
            format_func=lambda s: clip(s, 80),
        )
        ctx.answer = picked
    else:
        ss.setdefault(state.ANSWER_PASTE, "")
        pasted = st.sidebar.text_area(
            "Answer text, copied from the document", key=state.ANSWER_PASTE, height=80
        )
        ctx.answer = pasted.strip() or None


def render(lab: str | None = None) -> Context:
    """The sidebar for ``lab`` (the page being drawn), and what it leaves every lab."""
    ss = st.session_state
    sb = st.sidebar
    samples = sample_names()
    choices = samples + [state.UPLOAD_CHOICE]
    if ss.get(state.DOC) not in choices:
        ss[state.DOC] = urlstate.DEFAULT_DOC
    sb.selectbox(
        "Document",
        choices,
        key=state.DOC,
        on_change=state.on_doc_change,
        format_func=lambda n: "Upload a file…" if n == state.UPLOAD_CHOICE else _doc_label(n),
    )
    if ss[state.DOC] == state.UPLOAD_CHOICE:
        doc = _upload()
        ctx = Context(
            None,
            doc.name if doc else "upload",
            doc.text if doc else None,
            "",
            "",
            0,
            0,
            qa_source="own",
            gold=upload_gold() if doc else [],
        )
    else:
        name = ss[state.DOC]
        ctx = Context(
            name,
            _doc_label(name),
            cached.sample_text(name),
            "",
            "",
            0,
            0,
            gold=cached.gold_questions(name),
        )
        gs = cached.gold_set(name)
        if gs is not None and gs.bad_lines:
            sb.warning(md_escape(gs.problem_line(f"{name}.gold.jsonl")))
    _question(ctx)
    _check_answer(ctx)

    imported = _chunk_file(ctx)
    choices = list(OFFERED) + ([IMPORTED] if imported else [])
    if ss.get(state.STRATEGY) not in choices:
        ss[state.STRATEGY] = urlstate.DEFAULTS.strategy
    sb.selectbox(
        "Strategy",
        choices,
        key=state.STRATEGY,
        format_func=sweeps.display_name,
        help=" · ".join(f"{s.display_name}: {s.description}" for s in OFFERED.values())
        + " · Your chunks: a chunk file uploaded below, placed in the document.",
    )
    sb.radio("Unit", UNITS, key=state.UNIT, horizontal=True, on_change=state.on_unit_change)
    base = ss[state.UNIT]
    unit = _unit(ctx, base)
    strategy = ss[state.STRATEGY]
    strategy = imported if strategy == IMPORTED and imported else strategy
    lo, hi = sweeps.SIZE_LIMITS[base]
    step = sweeps.SIZE_STEP[base]
    state.settle(state.SIZE, urlstate.clamp_size(ss.get(state.SIZE, 24), base), (lo, hi, step))
    live = sweeps.drags_live(lab, ctx.text, ctx.answer, strategy)
    # -- why hidden, not left out, where the lab's size control drags live -- a second
    # -- slider for the same setting, which waits for the release, is the one a newcomer
    # -- reaches for first: the page shows one. The widget stays (hidden by the page's
    # -- CSS, ui.frame) as the setting's home: links, pins and the lab's control move it,
    # -- and a widget Streamlit does not draw forgets its value.
    with sb.container(key=SIZE_HIDDEN if live else "size_slider"):
        st.slider(
            f"Chunk size ({unit})",
            lo,
            hi,
            step=step,
            key=state.SIZE,
            on_change=state.on_size_change,
        )
    if live:
        sb.caption(
            f"Chunk size ({unit}): the size slider at the top of the page sets it, and "
            "redraws the verdict while you drag it."
        )
    size = ss[state.SIZE]
    top = urlstate.max_overlap(size)
    state.settle(state.OVERLAP, urlstate.clamp_overlap(ss.get(state.OVERLAP, 0), size), (0, top))
    sb.slider(f"Overlap ({unit}, below the size)", 0, top, key=state.OVERLAP)
    sb.caption(
        f"Uploads: .md or .txt, UTF-8, up to {MAX_UPLOAD_MB} MB; "
        ".pdf, .html and .docx are converted to markdown."
    )
    ctx.strategy = strategy
    ctx.unit, ctx.size, ctx.overlap = unit, size, ss[state.OVERLAP]
    _copy_as_code(ctx)
    return ctx


def _unit(ctx: Context, base: str) -> str:
    """The unit's name; in tokens, the tokenizer's choice and the document's tokens
    per word under it (so a size in words from the lessons reads in tokens)."""
    if base != "tokens":
        return base
    ss = st.session_state
    if ss.get(state.TOKENIZER) not in sweeps.APP_TOKENIZERS:
        ss[state.TOKENIZER] = urlstate.DEFAULTS.tok
    st.sidebar.selectbox(
        "Tokenizer",
        sweeps.APP_TOKENIZERS,
        key=state.TOKENIZER,
        help="Counted offline, token for token as tiktoken counts: cl100k_base is GPT-4's "
        "and OpenAI's text-embedding-3 models', o200k_base GPT-4o's.",
    )
    tokenizer = ss[state.TOKENIZER]
    if ctx.text is not None:
        ratio = cached.words_to_tokens(ctx.text, tokenizer)
        if ratio:
            st.sidebar.caption(
                f"This document: {ratio:.2f} {tokenizer} tokens per word, so 24 words are "
                f"about {round(24 * ratio)} tokens and 512 tokens about {round(512 / ratio)} "
                "words."
            )
    return str(Unit("tokens", tokenizer))


def _chunk_file(ctx: Context) -> str | None:
    """The uploader for chunks made elsewhere: the strategy name that stands for them
    when they can be placed in the document, else None (the problem in one line)."""
    ss = st.session_state
    with st.sidebar.expander("Your chunks", expanded=bool(ss.get(state.CHUNK_FILE))):
        f = st.file_uploader(
            "Chunks made by any pipeline (JSONL or CSV: LangChain, LlamaIndex, Chonkie, "
            "your own), to measure as the strategy “Your chunks”",
            type=["jsonl", "ndjson", "json", "csv"],
            key=state.CHUNK_FILE,
            max_upload_size=MAX_UPLOAD_MB,
        )
        if f is None or ctx.text is None:
            return None
        strategy = chunk_files.register_chunk_file(f.name, f.getvalue())
        try:
            placed = chunk_files.placement(ctx.text, strategy, "chars")
        except PlacementError as e:
            st.error(md_escape(str(e).splitlines()[0]))
            return None
        ss[_CHUNK_NAME] = f.name
        if ss.get(_CHUNK_ID) != f.file_id:  # a new file: measure it now
            ss[_CHUNK_ID] = f.file_id
            ss[state.STRATEGY] = IMPORTED
        findings = placed.report(ctx.text, each_overlap=False)
        st.caption(
            f"{len(placed.chunks)} chunk(s) placed in {md_escape(ctx.doc_label)}, "
            f"{len(placed.unplaced)} not placed."
        )
        for line in findings[:5]:
            st.caption(md_escape(line))
        if len(findings) > 5:
            st.caption(f"and {len(findings) - 5} more")
        return strategy


def _copy_as_code(ctx: Context) -> None:
    """The settings as the few lines of Python that make the same chunks."""
    with st.sidebar.expander("Copy as code"):
        for s in code_snippets.snippets(
            ctx.strategy, ctx.unit, ctx.size, ctx.overlap, ctx.doc_label
        ):
            st.caption(s.title)
            st.code(s.code, language="python")
