"""The README's map ("What is where") names every module of chunkers/ and lab/ by its
file name, under its package, so a new module cannot land unnamed and a module
moved or removed cannot stay on the map.

The map is the fenced block under that heading, a tree by indentation: an entry
line starts with one name or a few (``gold.py, gold_paths.py``), each a file or a
folder ending in ``/``, then two spaces and what it holds; deeper lines that start
with anything else go on with the description above them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support import ROOT

MAPPED = ("chunkers", "lab")  # every module below these must be on the map
_NAME = r"[\w.-]+(?:\.py|/)"
_ENTRY = re.compile(rf"( *)({_NAME}(?:,? {_NAME})*)(?: {{2,}}\S|$)")


def map_block(readme: str) -> str:
    """The fenced block under "## What is where"."""
    section = readme.split("\n## What is where\n", 1)[1]
    return section.split("```", 2)[1].split("\n", 1)[1]


def named_paths(block: str) -> set[str]:
    """Every path the map names, folders ending in "/" (``lab/cli/args.py``, ``lab/cli/``)."""
    named: set[str] = set()
    stack: list[tuple[int, str]] = []  # (indentation, folder) of the folders above
    for line in block.splitlines():
        m = _ENTRY.match(line)
        if m is None:
            continue  # a description going on, or a blank line
        indent, names = len(m.group(1)), re.split(r",? ", m.group(2))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        folder = stack[-1][1] if stack else ""
        named.update(folder + name for name in names)
        if len(names) == 1 and names[0].endswith("/"):
            stack.append((indent, folder + names[0]))
    return named


def modules(root: Path) -> set[str]:
    """Every module of the mapped packages (a package's ``__init__.py`` aside: its
    folder stands for it), and every package folder."""
    found: set[str] = set()
    for top in MAPPED:
        for path in (root / top).rglob("*.py"):
            rel = path.relative_to(root).as_posix()
            if path.name == "__init__.py":
                found.add(rel.removesuffix("__init__.py"))
            else:
                found.add(rel)
    return found


def map_problems(block: str, tree: set[str], root: Path = ROOT) -> list[str]:
    """One line per module the map leaves out or names wrongly, saying what to do
    (a folder of data the map names, such as lab/examples/, is no module but is there)."""
    named = named_paths(block)
    lines = [
        f"README.md's map (What is where) does not name {path}: add a line "
        f"'{path.rstrip('/').rsplit('/', 1)[-1]}{'/' if path.endswith('/') else ''}  "
        f"<what it holds>' under {path.rstrip('/').rsplit('/', 1)[0]}/"
        for path in sorted(tree - named)
    ]
    lines += [
        f"README.md's map (What is where) names {path}, which is not in the tree"
        for path in sorted(named - tree)
        if path.startswith(tuple(f"{top}/" for top in MAPPED)) and not (root / path).exists()
    ]
    return lines


def test_the_map_names_every_module_of_chunkers_and_lab() -> None:
    block = map_block((ROOT / "README.md").read_text(encoding="utf-8"))
    problems = map_problems(block, modules(ROOT))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_a_module_missing_from_the_map_is_named_in_one_line() -> None:
    block = (
        "app.py            the entry\n"
        "lab/              the measurements\n"
        "  text.py         whitespace collapsed; the form answers are compared in,\n"
        "                  see survival.py below\n"
        "  measure/        the measurements, as data\n"
        "    survival.py   intact or not\n"
        "    drag.py, costs.py  the slider; the bill\n"
        "  cli/            the command line\n"
        "chunkers/         pure chunking\n"
        "  limit.py        --limit\n"
    )
    tree = {
        "lab/",
        "lab/text.py",
        "lab/measure/",
        "lab/measure/survival.py",
        "lab/measure/drag.py",
        "lab/measure/costs.py",
        "lab/measure/budget.py",
        "lab/cli/",
        "chunkers/",
        "chunkers/limit.py",
    }
    assert map_problems(block, tree) == [
        "README.md's map (What is where) does not name lab/measure/budget.py: "
        "add a line 'budget.py  <what it holds>' under lab/measure/"
    ]
    stale = block + "lab/\n  measure/\n    gone.py       a module since removed\n"
    assert map_problems(stale, tree)[-1] == (
        "README.md's map (What is where) names lab/measure/gone.py, which is not in the tree"
    )
    named = named_paths(block)
    assert "lab/measure/costs.py" in named and "lab/cli/" in named
    assert "chunkers/limit.py" in named and "lab/limit.py" not in named
