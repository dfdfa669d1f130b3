"""The compiled twins, when they are built and current.

The chunker's hottest steps have a compiled twin, for speed. _speedups.pyx
holds those written for Cython: turning drafts into Chunk records
(spans.finish_python is the reference) and the lone-surrogate and
carriage-return checks every strategy makes (text.surrogates_and_returns_python).
Packing is pack.py itself, compiled as it stands into _pack_compiled
(setup.py; structural/__init__.py loads it). Block recognition has no twin:
the CommonMark engine does it (structural/engine.py). The tests hold each twin
to its reference. Without a build (``scripts/build.sh``, which the test
command runs) everything works the same, on the Python code.

This module imports nothing of the package (a leaf), so any step may use it.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

NOT_BUILT = "the compiled speedups are not built: run scripts/build.sh"
STALE = "the compiled speedups are older than their source: run scripts/build.sh"
HERE = Path(__file__).parent

# The one switch for the twins, for tests and the benchmark: None runs a twin
# when it is built, True insists on it (a missing twin is an error), False runs
# the Python code. CHUNK_LAB_TWINS=on|off sets it for a whole process.
FORCE: bool | None = {"on": True, "off": False}.get(os.environ.get("CHUNK_LAB_TWINS", ""))


def usable(module: ModuleType | None, source: Path) -> tuple[ModuleType | None, str]:
    """The module, or None and why not. A build older than its source would
    chunk by outdated rules, so it is never used."""
    if module is None:
        return None, NOT_BUILT
    built = Path(module.__file__ or "")
    if source.exists() and built.exists() and source.stat().st_mtime > built.stat().st_mtime:
        return None, STALE
    return module, ""


def use_twin(twin: Callable[..., Any] | None, why: str = "") -> bool:
    """Whether a step runs its twin, as FORCE says (``why``: why it is missing)."""
    if twin is None:
        if FORCE:
            raise RuntimeError(why or NOT_BUILT)
        return False
    return FORCE is not False


def load(module: ModuleType | None, source: Path) -> tuple[ModuleType | None, str]:
    """usable(), warning when a build exists but is stale."""
    found, why = usable(module, source)
    if module is not None and found is None:
        warnings.warn(why + " (the Python code runs meanwhile)", stacklevel=2)
    return found, why


try:
    from . import _speedups as _module
except ImportError:
    _module = None

compiled, WHY_NOT = load(_module, HERE / "_speedups.pyx")

# spans.finish_python's twin: finish(src, drafts, unit, chunk_class, count_units)
finish: Callable[..., list] | None = compiled.finish if compiled else None
# text.surrogates_and_returns_python's twin
surrogates_and_returns: Callable[[str], tuple[bool, bool]] | None = (
    compiled.surrogates_and_returns if compiled else None
)
