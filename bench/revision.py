"""The structural chunker as it was at an earlier commit, loaded beside today's.

    python -m bench.run --against <commit>

adds a row that times the chunker of that commit against today's, in the same
process, on the same fresh text, the two taking turns run by run: so "no slower
than before this change" is one row of one run, not two runs on a machine whose
speed drifts from minute to minute.

The commit's ``chunkers/`` package is read from git into a temporary folder
under another name (relative imports keep it whole); it must need nothing that
today's environment lacks.
"""

from __future__ import annotations

import atexit
import importlib
import io
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class RevisionError(ValueError):
    """A commit whose chunker cannot be loaded: the message is one line for the user."""


def chunker_at(revision: str, root: Path = ROOT) -> Callable[[str], object]:
    """``chunk`` (structural, its defaults) of the package ``chunkers/`` at ``revision``."""
    found = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    if found.returncode != 0:
        raise RevisionError(f"no commit {revision!r} in this repository's history")
    commit = found.stdout.strip()
    name = f"chunkers_at_{commit[:12]}"
    if name not in sys.modules:
        archive = subprocess.run(
            ["git", "archive", "--format=tar", commit, "chunkers"],
            cwd=root,
            capture_output=True,
        )
        if archive.returncode != 0:
            raise RevisionError(f"commit {revision!r} has no chunkers/ package")
        folder = Path(tempfile.mkdtemp(prefix="chunk-lab-at-"))
        # (the package is imported from there for as long as this process runs)
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(folder, filter="data")
        (folder / "chunkers").rename(folder / name)
        sys.path.insert(0, str(folder))
        try:
            importlib.import_module(name)
        except ImportError as err:
            raise RevisionError(f"the chunker at {revision!r} does not import here: {err}") from err
    return sys.modules[name].chunk


def label(revision: str) -> str:
    """How the figures name the chunker at ``revision`` (a hash shortened)."""
    short = revision[:12] if re.fullmatch(r"[0-9a-f]{13,40}", revision) else revision
    return f"structural chunker at {short}"
