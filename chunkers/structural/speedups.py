"""The compiled block scanner (_scan.pyx), when it is built and current.

Parsing is most of the structural chunker's time, and a Python loop over
blocks cannot match the compiled peers (issue 5), so the scan that finds
blocks has a Cython twin. The Python scanner in parse.py stays the
reference: the tests hold both to the same blocks on the corpus and on
generated markdown. Without a build (``scripts/build.sh``, which the test
command runs) everything works, on the Python scanner.
"""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Callable

scan: Callable[[Any, str], None] | None = None
WHY_NOT = ""  # why scan is None

try:
    from . import _scan
except ImportError:
    WHY_NOT = "the compiled scanner is not built: run scripts/build.sh"
else:
    _source = Path(__file__).with_name("_scan.pyx")
    # a build older than its source would scan by outdated rules: never use it
    if _source.exists() and _source.stat().st_mtime > Path(_scan.__file__).stat().st_mtime:
        WHY_NOT = "the compiled scanner is older than _scan.pyx: run scripts/build.sh"
        warnings.warn(WHY_NOT + " (using the Python scanner meanwhile)", stacklevel=2)
    else:
        scan = _scan.scan
