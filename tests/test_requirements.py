"""One source of dependency truth: pyproject.toml names every dependency with the range
the library works with; each requirements file pins exactly the packages of its group,
at a version inside that range."""

from __future__ import annotations

import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.support import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]

# each requirements file and the pyproject groups it pins (beyond the files it includes)
FILES = {
    "requirements.txt": ["", "app"],
    "requirements-peers.txt": ["peers"],
    "requirements-dask.txt": ["dask"],
    "requirements-bench.txt": ["bench"],
    "requirements-dev.txt": ["test", "build"],
}


def group(name: str) -> list[Requirement]:
    """The requirements of a pyproject group ("" the runtime, "build" the build system),
    with the project's own extras expanded."""
    if name == "":
        listed = PROJECT["dependencies"]
    elif name == "build":
        listed = PYPROJECT["build-system"]["requires"]
    else:
        listed = PROJECT["optional-dependencies"][name]
    out: list[Requirement] = []
    for line in listed:
        req = Requirement(line)
        if canonicalize_name(req.name) == "chunk-lab":
            for extra in sorted(req.extras):
                out += group(extra)
        else:
            out.append(req)
    return out


def pins(file: str) -> tuple[dict[str, str], dict[str, str]]:
    """(the file's own pins, its pins with those of the files it includes)."""
    own: dict[str, str] = {}
    every: dict[str, str] = {}
    for raw in (ROOT / file).read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-r "):
            every.update(pins(line[3:].strip())[1])
            continue
        req = Requirement(line)  # a pin may name extras: markitdown[pdf,docx]==0.1.9
        pinned = [spec.version for spec in req.specifier if spec.operator == "=="]
        assert len(pinned) == len(req.specifier) == 1, f"{file}: {raw!r} is not an exact pin"
        own[canonicalize_name(req.name)] = pinned[0]
    every.update(own)
    return own, every


@pytest.mark.parametrize("file", FILES)
def test_each_requirements_file_pins_its_groups_within_their_ranges(file):
    own, every = pins(file)
    wanted = [req for name in FILES[file] for req in group(name)]
    unpinned = [req.name for req in wanted if canonicalize_name(req.name) not in every]
    assert unpinned == [], f"{file} pins no version of {unpinned}"
    outside = [
        f"{req.name}=={every[canonicalize_name(req.name)]} (pyproject: {req})"
        for req in wanted
        if every[canonicalize_name(req.name)] not in req.specifier
    ]
    assert outside == [], f"{file} pins outside pyproject's range: {outside}"
    named = {canonicalize_name(req.name) for req in wanted}
    extra = sorted(set(own) - named)
    assert extra == [], f"{file} pins {extra}, which pyproject.toml does not name there"


def test_test_tools_are_pinned_exactly_in_pyproject_too():
    for req in group("test"):
        if canonicalize_name(req.name) in {"hypothesis", "mypy", "pytest", "pytest-xdist", "ruff"}:
            assert str(req.specifier).startswith("=="), f"{req} is not an exact pin"
