"""The document converters people would otherwise run, timed on the same bytes as ours.

markitdown (Microsoft) converts PDF, HTML and Word; pymupdf4llm (Artifex, inside PyMuPDF
2) converts PDF, with its layout model (its default when installed) or without it (its
classic converter, the faster). Both come from requirements-bench.txt only: the app and
the library never import them. A converter that is not installed, or that fails on a
file, is reported in one line instead of a time.
"""

from __future__ import annotations

import contextlib
import io
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePath

Convert = Callable[[bytes, str], str]  # (the file's bytes, its name) -> markdown


@dataclass(frozen=True)
class DocPeer:
    name: str  # as the rows name it
    suffixes: tuple[str, ...]  # the formats it converts
    make: Callable[[], Convert]  # raises ImportError when it is not installed
    # -- False: too slow to time on the 1 MB PDFs in a benchmark run (its layout model
    # -- takes about half a second a page), timed on the real files only
    large_files: bool = True


def _markitdown() -> Convert:
    from markitdown import MarkItDown, StreamInfo

    converter = MarkItDown(enable_plugins=False)  # its file-type model loads here, once

    def run(data: bytes, name: str) -> str:
        info = StreamInfo(extension=PurePath(name).suffix.lower(), filename=name)
        return converter.convert_stream(io.BytesIO(data), stream_info=info).markdown

    return run


def _markitdown_no_math() -> Convert:
    """markitdown with its Word pre-pass (equations to LaTeX) skipped: under
    beautifulsoup4 4.15, which drops the namespace prefixes of the XML it re-serialises,
    that pass leaves a document mammoth cannot read, so the plain one fails on every
    Word file here. The rest of its conversion (mammoth, then its HTML converter) runs."""
    from markitdown.converters import _docx_converter

    run = _markitdown()

    def no_math(data: bytes, name: str) -> str:
        keep = _docx_converter.pre_process_docx
        _docx_converter.pre_process_docx = lambda stream: stream
        try:
            return run(data, name)
        finally:
            _docx_converter.pre_process_docx = keep

    return no_math


def _pymupdf4llm(layout: bool) -> Callable[[], Convert]:
    def make() -> Convert:
        import pymupdf
        import pymupdf4llm

        # -- its parser's messages (that no OCR engine is installed) go to a stream of
        # -- its own, kept out of the table
        pymupdf.set_messages(stream=io.StringIO())

        def run(data: bytes, name: str) -> str:
            pymupdf4llm.use_layout(layout)  # a switch of the module's own: set before each call
            with contextlib.redirect_stdout(io.StringIO()):  # (and a bare print of its own)
                return pymupdf4llm.to_markdown(pymupdf.open(stream=data, filetype="pdf"))

        return run

    return make


DOC_PEERS = (
    DocPeer("markitdown", (".pdf", ".html", ".htm", ".docx"), _markitdown),
    DocPeer("markitdown, its Word math pre-pass skipped", (".docx",), _markitdown_no_math),
    DocPeer("pymupdf4llm", (".pdf",), _pymupdf4llm(layout=False)),
    DocPeer("pymupdf4llm with layout", (".pdf",), _pymupdf4llm(layout=True), large_files=False),
)


@dataclass
class Timing:
    """One converter's wall-clock times on one file, or why there are none."""

    times: list[float]
    failure: str = ""  # one line: not installed, or the converter's own error

    @property
    def median(self) -> float:
        return statistics.median(self.times)


def _one_line(err: BaseException) -> str:
    """A converter's error as one line: its last line says the cause (markitdown's
    first says only that its attempts failed)."""
    lines = [line.strip(" -") for line in str(err).splitlines() if line.strip(" -")]
    return f"failed: {(lines[-1] if lines else type(err).__name__)[:100]}"


def timed_in_turns(
    ours: Callable[[], object],
    peers: Sequence[tuple[str, Callable[[], object] | str]],
    runs: int,
    warmup: bool,
    peer_runs: int | None = None,
) -> tuple[list[float], dict[str, Timing]]:
    """Ours and each peer on the same input, taking turns run by run (a busy minute of a
    shared machine falls on all of them); wall clock. A peer given as a string is one that
    could not be made (the string says why). ``peer_runs`` caps the peers' runs where one
    run of theirs takes many seconds (and skips their warm-up here: the caller warms them
    up on something smaller); ours still runs ``runs`` times."""
    timings = {name: Timing([], fn) if isinstance(fn, str) else Timing([]) for name, fn in peers}
    calls = {name: fn for name, fn in peers if not isinstance(fn, str)}
    ours_times: list[float] = []
    for r in range(-1 if warmup else 0, runs):
        for name, fn in (("", ours), *calls.items()):
            timing = timings.get(name)
            if timing is not None and (
                timing.failure
                or (peer_runs is not None and (r < 0 or len(timing.times) >= peer_runs))
            ):
                continue  # (a capped peer is warmed up by the caller, not here)
            t0 = time.perf_counter()
            try:
                fn()
            except Exception as err:  # a peer's bug is its row's one line, not our crash
                if timing is None:
                    raise
                timing.failure = _one_line(err)
                continue
            dt = time.perf_counter() - t0
            if r < 0:
                continue
            (ours_times if timing is None else timing.times).append(dt)
    return ours_times, timings


def peers_for(suffix: str, large: bool = False) -> list[tuple[str, Convert | str]]:
    """The peers that convert files of this suffix (``large``: those timed on the 1 MB
    PDFs), made once; "not installed" where one cannot be imported."""
    out: list[tuple[str, Convert | str]] = []
    for peer in DOC_PEERS:
        if suffix not in peer.suffixes or (large and not peer.large_files):
            continue
        try:
            out.append((peer.name, peer.make()))
        except ImportError as err:
            out.append((peer.name, f"not installed ({err.name})"))
    return out
