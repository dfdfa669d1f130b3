"""Pausing the cyclic garbage collector while a document is chunked.

Chunking a long document builds hundreds of thousands of small objects and no
reference cycles. Every pass of the cyclic collector walks every live object,
so with it running a 16 MB document costs clearly more per MB than a 1 MB one
(the benchmark's linear-scaling figure). Reference counting still frees all of
it; the collector only waits until the chunking is done.

Re-entrant and thread-safe: the collector resumes, if it was on, when the last
chunking in flight ends.
"""

from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
_depth = 0
_resume = False


class collector_paused:  # noqa: N801 (used as a context manager, like a function)
    def __enter__(self) -> None:
        global _depth, _resume
        with _lock:
            if _depth == 0:
                _resume = gc.isenabled()
                gc.disable()
            _depth += 1

    def __exit__(self, *exc: object) -> None:
        global _depth
        with _lock:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()
