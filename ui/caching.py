"""How a long document's results are cached: the size from which work runs one step
at a time behind a progress bar or in the worker process, and a cache that keeps a
long document's results as shared objects rather than copies."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import streamlit as st

# Beyond this many characters a sweep over a chunking strategy runs one size at
# a time behind a progress bar (fixed-size sweeps are arithmetic and always
# instant). Each step ends in a Streamlit call, where a rerun (the user moved a
# widget: runner.fastReruns) stops the sweep; finished sizes stay cached, so
# coming back, or moving the size slider, only computes the sizes not yet seen.
PROGRESS_CHARS = 150_000
# A long document (PROGRESS_CHARS or more) keeps fewer chunkings and score lists,
# and keeps them as shared objects (st.cache_resource), not as copies. -- why --
# st.cache_data pickles what it keeps and unpickles it at every use, which on a long
# document costs more than the chunking it saves (docs/performance.md). What is kept
# is read-only: chunks are frozen, and no caller changes the lists.
LONG_ENTRIES = 16

P = ParamSpec("P")
R = TypeVar("R")


def cached_by_size(
    max_entries: int, doing: Callable[[dict[str, Any]], str] | None = None
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Cache a function of a document (its first argument, a Chunking) twice: in
    st.cache_data, ``max_entries`` results for an ordinary document, and in
    st.cache_resource, LONG_ENTRIES shared results for one of PROGRESS_CHARS or more.
    Each call is keyed on every argument, defaults filled in, so spelling a default
    out hits the same entry.
    On a document of PROGRESS_CHARS or more, work that takes longer than half a
    second says what it is doing: ``doing(arguments)``, in a spinner."""

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(fn)

        def cache(suffix: str, keep: Callable[..., Any]) -> Callable[..., R]:
            plain: Callable[..., R] = fn  # called with every argument bound, by position

            def call(*args: Any) -> R:
                return plain(*args)

            # -- Streamlit keys a cache on the function's module, name and source; every
            # -- `call` has the same source, so its name is what keeps the caches apart,
            # -- and its module is the function's, which the cache's name says
            call.__name__ = call.__qualname__ = fn.__name__ + suffix
            call.__module__ = fn.__module__
            return keep(call)

        small = cache("", st.cache_data(max_entries=max_entries, show_spinner=False))
        long = cache("_long", st.cache_resource(max_entries=LONG_ENTRIES, show_spinner=False))

        @functools.wraps(fn)
        def cached(*args: P.args, **kwargs: P.kwargs) -> R:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            text = bound.args[0].text  # every function cached so takes a Chunking first
            if len(text) < PROGRESS_CHARS:
                return small(*bound.args)
            if doing is None:
                return long(*bound.args)
            with st.spinner(doing(bound.arguments)):
                return long(*bound.args)

        return cached

    return decorate
