"""The compiled twins (_speedups.pyx), when they are built and current.

Two steps of the structural chunker have a Cython twin, for issue 5's speed:
the block scan (parse.py's Python scanner is the reference) and turning
drafts into Chunk records (spans.finish_python is the reference). The tests
hold each twin to its reference on the corpus and on generated markdown.
Without a build (``scripts/build.sh``, which the test command runs)
everything works the same, on the Python references.
"""
from __future__ import annotations

import warnings
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

NOT_BUILT = "the compiled speedups are not built: run scripts/build.sh"
STALE = "the compiled speedups are older than _speedups.pyx: run scripts/build.sh"


def usable(module: ModuleType | None, source: Path) -> tuple[ModuleType | None, str]:
    """The module, or None and why not. A build older than its source would
    chunk by outdated rules, so it is never used."""
    if module is None:
        return None, NOT_BUILT
    built = Path(module.__file__ or "")
    if source.exists() and built.exists() and source.stat().st_mtime > built.stat().st_mtime:
        return None, STALE
    return module, ""


try:
    from . import _speedups as _module
except ImportError:
    _module = None

compiled, WHY_NOT = usable(_module, Path(__file__).with_name("_speedups.pyx"))
if _module is not None and compiled is None:
    warnings.warn(WHY_NOT + " (the Python code runs meanwhile)", stacklevel=2)

# parse._Parser.run_python's twin: scan(parser, text)
scan: Callable[[Any, str], None] | None = compiled.scan if compiled else None
# spans.finish_python's twin: finish(src, drafts, unit)
finish: Callable[..., list] | None = compiled.finish if compiled else None
