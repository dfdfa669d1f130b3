"""The architecture as the files say it: imports flow lab_pages -> ui -> lab -> chunkers,
lab/, chunkers/ and ui/present/ never import Streamlit (ui/present/ not even through
the rest of ui), lab/'s roles flow cli -> report -> measure -> inputs -> retrieval (only
the command line imports the renderers), and no package imports itself in a circle (a
lazy import inside a function counts: it is a cycle all the same)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support import ROOT

LAYERS = ("lab_pages", "ui", "lab", "chunkers")  # each may import only those after it


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, modules: frozenset[str] = frozenset()) -> set[str]:
    """Every module this file imports, at any depth, relative imports resolved.
    ``from package import name`` imports the submodule when ``name`` is one of
    ``modules``, else the package itself."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                found.add(sub if sub in modules else module)
    return found


def _files(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


def _graph(layer: str) -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in _files(layer)}
    return {
        name: {m for m in _imports(p, frozenset(modules)) if m in modules} - {name}
        for name, p in modules.items()
    }


@pytest.mark.parametrize("layer", LAYERS)
def test_imports_flow_one_way(layer: str) -> None:
    above = LAYERS[: LAYERS.index(layer)]
    wrong = [
        f"{_module_name(p)} imports {m}"
        for p in _files(layer)
        for m in sorted(_imports(p))
        if m.split(".")[0] in above
    ]
    assert wrong == []


def test_the_class_setup_never_imports_the_benchmark() -> None:
    # -- the benchmark drives a class through deploy/; a class is deployed without bench/
    wrong = [
        f"{_module_name(p)} imports {m}"
        for p in _files("deploy")
        for m in sorted(_imports(p))
        if m.split(".")[0] == "bench"
    ]
    assert wrong == []


BENCH_ONLY = {"markitdown", "pymupdf", "pymupdf4llm", "fitz"}  # requirements-bench.txt's converters


@pytest.mark.parametrize("layer", [*LAYERS, "deploy"])
def test_the_benchmarks_document_converters_stay_in_the_benchmark(layer: str) -> None:
    # -- the app and the library convert documents offline with their own runtime
    # -- requirements; markitdown and PyMuPDF are only timed beside them
    files = _files(layer) + ([ROOT / "app.py"] if layer == LAYERS[0] else [])
    wrong = [
        f"{_module_name(p)} imports {m}"
        for p in files
        for m in sorted(_imports(p))
        if m.split(".")[0] in BENCH_ONLY
    ]
    assert wrong == []


@pytest.mark.parametrize("layer", ["lab", "chunkers"])
def test_measurements_and_chunking_never_import_streamlit(layer: str) -> None:
    wrong = [
        _module_name(p)
        for p in _files(layer)
        if any(m.split(".")[0] == "streamlit" for m in _imports(p))
    ]
    assert wrong == []


# lab/'s roles, each importing only those after it: the command line uses the
# renderers, the renderers lay out measurements, measurements read inputs and rank
# with retrieval, inputs check a question with retrieval's tokenizer.
LAB_ROLES = ("cli", "report", "measure", "inputs", "retrieval")
LAB_SHARED = {"lab", "lab.text", "lab.__main__"}  # the package, its text helpers, its entry


def _role(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "lab" and len(parts) > 1 and parts[1] in LAB_ROLES else None


def test_every_lab_module_has_a_role() -> None:
    assert [m for m in _graph("lab") if _role(m) is None and m not in LAB_SHARED] == []


def test_lab_roles_flow_one_way() -> None:
    wrong = []
    for module, imported in _graph("lab").items():
        role = _role(module)
        allowed = set(LAB_ROLES[LAB_ROLES.index(role) :]) if role else set()
        for m in sorted(imported):
            if m == "lab.text" or (module == "lab.__main__" and m == "lab.cli"):
                continue
            if _role(m) not in allowed:
                wrong.append(f"{module} imports {m}")
    assert wrong == []


def test_only_the_command_line_imports_the_renderers() -> None:
    wrong = [
        f"{module} imports {m}"
        for module, imported in _graph("lab").items()
        if _role(module) not in ("cli", "report")
        for m in imported
        if _role(m) == "report"
    ]
    assert wrong == []


def _reached(graph: dict[str, set[str]], start: str) -> set[str]:
    """``start`` and every module of the graph it imports, at any depth."""
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(graph[node])
    return seen


def test_the_presentation_code_never_imports_streamlit() -> None:
    # -- ui/present/ turns measurements into what a page shows: testable and cacheable
    # -- without a running app, so neither it nor any ui module it reaches imports Streamlit
    graph = _graph("ui")
    with_streamlit = {
        _module_name(p)
        for p in _files("ui")
        if any(m.split(".")[0] == "streamlit" for m in _imports(p))
    }
    present = sorted(m for m in graph if m.startswith("ui.present."))
    assert "ui.present.sweeps" in present and "ui.sidebar" in with_streamlit
    wrong = [
        f"{m} reaches {r}" for m in present for r in sorted(_reached(graph, m) & with_streamlit)
    ]
    assert wrong == []


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of the graph, as the modules along it, or []."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("layer", LAYERS)
def test_no_package_imports_itself_in_a_circle(layer: str) -> None:
    assert _cycle(_graph(layer)) == []
