"""The compiled block scanner (_scan.pyx), when it is built and current.

Finding blocks was half of the structural chunker's time, and a Python loop
over lines and blocks could not keep up with the compiled peers (issue 5), so
the scan has a Cython twin. The Python scanner in parse.py stays the
reference: the tests hold both to the same blocks and sections on the corpus
and on generated markdown. Without a build (``scripts/build.sh``, which the
test command runs) everything works the same, on the Python scanner.
"""
from __future__ import annotations

import warnings
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

Scan = Callable[[Any, str], None]
NOT_BUILT = "the compiled scanner is not built: run scripts/build.sh"
STALE = "the compiled scanner is older than _scan.pyx: run scripts/build.sh"


def usable(module: ModuleType | None, source: Path) -> tuple[Scan | None, str]:
    """The module's scan, or None and why not. A build older than its source
    would scan by outdated rules, so it is never used."""
    if module is None:
        return None, NOT_BUILT
    built = Path(module.__file__ or "")
    if source.exists() and built.exists() and source.stat().st_mtime > built.stat().st_mtime:
        return None, STALE
    return module.scan, ""


try:
    from . import _scan as _module
except ImportError:
    _module = None

scan, WHY_NOT = usable(_module, Path(__file__).with_name("_scan.pyx"))
if _module is not None and scan is None:
    warnings.warn(WHY_NOT + " (the Python scanner runs meanwhile)", stacklevel=2)
