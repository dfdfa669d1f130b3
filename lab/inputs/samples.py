"""The sample documents (the ``sample_docs`` package at the project's top), each with
its gold file, and the examples a lab runs live (lab/examples/).

-- why through the packages -- both folders are package data, so an installed
copy finds them where it finds its own code, with no checkout beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

# regular packages on disk: their resources are plain files with plain paths
SAMPLES_DIR = Path(str(files("sample_docs")))
GOLD_SUFFIX = ".gold.jsonl"
# documents a lab shows on its own: not samples (not in the picker, nor in a folder's stats)
EXAMPLES_DIR = Path(str(files("lab") / "examples"))


@dataclass(frozen=True, slots=True)
class Sample:
    name: str  # file stem, as it appears in URLs: "platform_data"
    path: Path
    gold_path: Path | None

    @property
    def filename(self) -> str:
        return self.path.name


def list_samples(directory: Path = SAMPLES_DIR) -> list[Sample]:
    """Every ``*.md`` in the directory, sorted by name, with its gold file if present."""
    out = []
    for path in sorted(directory.glob("*.md")):
        gold = directory / f"{path.stem}{GOLD_SUFFIX}"
        out.append(Sample(path.stem, path, gold if gold.is_file() else None))
    return out


def sample_names(directory: Path = SAMPLES_DIR) -> list[str]:
    return [s.name for s in list_samples(directory)]


def get_sample(name: str, directory: Path = SAMPLES_DIR) -> Sample:
    """The sample called ``name`` (its file stem); ValueError when there is none."""
    for s in list_samples(directory):
        if s.name == name:
            return s
    raise ValueError(f"no sample document named {name!r}")
