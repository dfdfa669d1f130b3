"""The compiled twins, when they are built and current.

The chunker's hottest steps have a compiled twin, for issue 5's speed.
_speedups.pyx holds those written for Cython: the block scan (parse.py's
Python scanner is the reference), turning drafts into Chunk records
(spans.finish_python) and the lone-surrogate and carriage-return checks every
strategy makes (text.surrogates_and_returns_python). Packing is pack.py itself,
compiled as it stands into _pack_compiled (setup.py). The tests hold each twin
to its reference on the corpus and on generated markdown. Without a build
(``scripts/build.sh``, which the test command runs) everything works the
same, on the Python code.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

NOT_BUILT = "the compiled speedups are not built: run scripts/build.sh"
STALE = "the compiled speedups are older than their source: run scripts/build.sh"
HERE = Path(__file__).parent


def usable(module: ModuleType | None, source: Path) -> tuple[ModuleType | None, str]:
    """The module, or None and why not. A build older than its source would
    chunk by outdated rules, so it is never used."""
    if module is None:
        return None, NOT_BUILT
    built = Path(module.__file__ or "")
    if source.exists() and built.exists() and source.stat().st_mtime > built.stat().st_mtime:
        return None, STALE
    return module, ""


def use_twin(twin: Callable[..., Any] | None, compiled: bool | None, why: str) -> bool:
    """Whether a step runs its twin. ``compiled``: None runs it when it is built,
    True insists on it (and says ``why`` not when it is missing), False never."""
    if twin is None:
        if compiled:
            raise RuntimeError(why)
        return False
    return compiled is not False


def _warn(module: ModuleType | None, usable_module: ModuleType | None, why: str) -> None:
    if module is not None and usable_module is None:
        warnings.warn(why + " (the Python code runs meanwhile)", stacklevel=3)


try:
    from . import _speedups as _module
except ImportError:
    _module = None

compiled, WHY_NOT = usable(_module, HERE / "_speedups.pyx")
_warn(_module, compiled, WHY_NOT)

# parse._Parser.run_python's twin: scan(parser, text)
scan: Callable[[Any, str], None] | None = compiled.scan if compiled else None
# spans.finish_python's twin: finish(src, drafts, unit)
finish: Callable[..., list] | None = compiled.finish if compiled else None
# text.surrogates_and_returns_python's twin
surrogates_and_returns: Callable[[str], tuple[bool, bool]] | None = (
    compiled.surrogates_and_returns if compiled else None
)


_pack: tuple[Callable[..., list] | None, str] | None = None


def pack_drafts() -> tuple[Callable[..., list] | None, str]:
    """pack.py's compiled pack_drafts, or None and why not. Looked up on first
    use: the compiled module imports the package this module is part of."""
    global _pack
    if _pack is None:
        try:
            from .structural import _pack_compiled as module
        except ImportError:
            module = None
        found, why = usable(module, HERE / "structural" / "pack.py")
        _warn(module, found, why)
        _pack = (found.pack_drafts if found else None), why
    return _pack
