"""A long document's heavy computations in a worker process at low priority.

-- why -- an app process runs every session's Python under one lock (the GIL): while
one student's 4 MB upload is chunked there (one to two seconds of pure Python a
step), the other students on that process wait for it, and their half-second steps
take seconds. Here the chunkings, curves and sentence lists of a long document
(ui.caching.PROGRESS_CHARS characters or more) run in one worker process per app
process, at a lower CPU priority than the app, and the app's Python only rebuilds
their results.

The worker calls the same functions of chunkers/ and lab/ with the same arguments,
so every number is the one the app process would compute. When no worker can start
(or it dies), one line says so and the app computes in its own process, as before:
each function here returns None, meaning "compute it yourself".
"""

from __future__ import annotations

import dataclasses
import functools
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

from chunkers import Chunk, ChunkOptions, chunk_parsed, chunk_with, parse
from lab.measure.survival import SurvivalCurve, survival_curve
from ui.present.questions import answer_sentences

NICENESS = 10  # the worker gives way to the app processes (os.nice)
ROOT = Path(__file__).resolve().parent.parent
R = TypeVar("R")

_lock = threading.Lock()  # one call at a time: the worker is one process
_proc: subprocess.Popen | None = None
_off: str | None = None  # why there is no worker (then the app computes), once said
_FIELDS = tuple(f.name for f in dataclasses.fields(Chunk))


# -- why a plain subprocess, not multiprocessing -- Streamlit replaces the module
# __main__ with the app's script while it runs, and multiprocessing's spawn runs
# __main__ again in its children: the worker ran app.py and died. `python -m
# ui.worker` runs this module and nothing else.
def _started() -> subprocess.Popen | None:
    global _proc
    if _proc is None and _off is None:
        try:
            _proc = subprocess.Popen(
                [sys.executable, "-m", "ui.worker"],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *_path()])},
            )
        except OSError as e:
            _give_up(e)
    return _proc


def _path() -> list[str]:
    return [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]


def _give_up(e: BaseException) -> None:
    """No worker from now on: one line, then the app process computes."""
    global _proc, _off
    _off = str(e).splitlines()[0] if str(e) else type(e).__name__
    print(
        f"Chunk Lab: no worker process for long documents ({_off}); "
        "computing them in the app process",
        file=sys.stderr,
        flush=True,
    )
    if _proc is not None:
        _proc.kill()
        _proc = None


def _send(stream: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(len(data).to_bytes(8, "big") + data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    head = stream.read(8)
    if len(head) < 8:
        raise EOFError("the worker process ended")
    size = int.from_bytes(head, "big")
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the worker process ended")
    return pickle.loads(data)


def _run(fn: Callable[..., R], *args: Any, **kwargs: Any) -> R | None:
    """``fn(*args, **kwargs)`` in the worker (the GIL is free while this waits); None when there
    is no worker. An error ``fn`` raises (a bad setting, say) is raised here, as it
    would be in the app process."""
    with _lock:
        proc = _started()
        if proc is None:
            return None
        try:
            _send(proc.stdin, (fn, args, kwargs))  # type: ignore[arg-type]
            ok, value = _receive(proc.stdout)  # type: ignore[arg-type]
        except (OSError, EOFError, pickle.PickleError, TypeError, AttributeError) as e:
            _give_up(e)
            return None
    if ok:
        return value
    raise value


def shutdown() -> None:
    """End the worker (the next call starts one again)."""
    global _proc, _off
    with _lock:
        if _proc is not None:
            _proc.stdin.close()  # type: ignore[union-attr]
            _proc.wait(timeout=30)
        _proc, _off = None, None


def pid() -> int | None:
    """The worker's process id (started now if need be); None when there is none."""
    return _run(os.getpid)


def _serve() -> None:
    """The worker: answer calls from the app process (stdin) until it closes."""
    os.nice(NICENESS)
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # what the code called prints goes to the log, not into the replies
    requests = sys.stdin.buffer
    while True:
        try:
            fn, args, kwargs = _receive(requests)
        except EOFError:
            return  # the app process ended
        try:
            reply: tuple[bool, Any] = (True, fn(*args, **kwargs))
        except Exception as e:  # noqa: BLE001 -- raised again in the app process
            reply = (False, e)
        try:
            _send(replies, reply)
        except (pickle.PickleError, TypeError, AttributeError) as e:
            _send(replies, (False, RuntimeError(f"{type(e).__name__}: {e}")))


# -- in the worker --------------------------------------------------------------------


@functools.lru_cache(maxsize=2)
def _parsed(text: str) -> Any:
    return parse(text)  # one parse per document, for its structural chunkings and curves


def _chunk_rows(text: str, strategy: str, opts: ChunkOptions) -> list[tuple[Any, ...]]:
    # -- rows, not Chunks -- unpickling dataclasses holds the GIL for the whole call;
    # tuples load an order of magnitude faster and the Chunks are rebuilt in plain Python
    if strategy == "structural":
        got = chunk_parsed(_parsed(text), opts)
    else:
        got = chunk_with(text, strategy, opts)
    return [tuple(getattr(c, f) for f in _FIELDS) for c in got]


def _curve(text: str, answer: str, strategy: str, sizes: list[int], **opts: Any) -> SurvivalCurve:
    """survival_curve; a structural one from the document's one parse."""
    parsed = _parsed(text) if strategy == "structural" else None
    return survival_curve(text, answer, strategy, sizes, parsed=parsed, **opts)


# -- in the app process ---------------------------------------------------------------


def chunks(text: str, strategy: str, opts: ChunkOptions) -> list[Chunk] | None:
    """``text`` chunked by ``strategy`` with ``opts`` (chunkers.chunk_with; structural
    from the document's parse), computed in the worker; None when there is none."""
    rows = _run(_chunk_rows, text, strategy, opts)
    return None if rows is None else [Chunk(*row) for row in rows]


def curve(
    text: str,
    answer: str,
    strategy: str,
    sizes: list[int],
    unit: str,
    overlap: int,
    tokenizer: str | None,
) -> SurvivalCurve | None:
    """lab.measure.survival.survival_curve in the worker; None when there is none."""
    return _run(
        _curve, text, answer, strategy, sizes, unit=unit, overlap=overlap, tokenizer=tokenizer
    )


def sentences(text: str) -> list[str] | None:
    """ui.present.questions.answer_sentences in the worker; None when there is none."""
    return _run(answer_sentences, text)


if __name__ == "__main__":
    _serve()
