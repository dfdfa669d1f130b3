from chunkers import STRATEGIES
from lab.inputs.gold import load_gold
from lab.inputs.samples import get_sample, list_samples, sample_names
from lab.measure.survival import find_answer
from ui.palette import CHUNK_SHADES, STRATEGY_COLOURS, strategy_colour


def test_every_sample_has_a_gold_file_whose_answers_are_in_it():
    samples = list_samples()
    assert "platform_data" in sample_names() and len(samples) >= 7
    for s in samples:
        assert s.gold_path is not None, s.name
        gold = load_gold(s.gold_path)
        assert gold.questions and not gold.bad_lines
        text = s.path.read_text(encoding="utf-8")
        for p in gold.questions:
            find_answer(text, p.answer)


def test_get_sample_unknown_name():
    import pytest

    with pytest.raises(ValueError):
        get_sample("nope")


def test_each_strategy_has_its_own_colour():
    assert set(STRATEGY_COLOURS) == set(STRATEGIES)
    assert len(set(STRATEGY_COLOURS.values())) == len(STRATEGY_COLOURS)
    assert strategy_colour("unknown") == "#000000" and len(CHUNK_SHADES) == 2


# ------------------------------------------------------------------ the package on its own


def test_the_samples_are_found_through_their_packages_and_ship_with_them():
    import tomllib
    from fnmatch import fnmatch

    from lab.inputs.samples import EXAMPLES_DIR, SAMPLES_DIR
    from tests.support import ROOT

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = config["tool"]["setuptools"]["package-data"]
    # -- the samples sit at the project's top, as their own package; the examples in lab
    assert SAMPLES_DIR.resolve() == (ROOT / "sample_docs").resolve()
    assert EXAMPLES_DIR.resolve() == (ROOT / "lab" / "examples").resolve()
    for folder, package, prefix in (
        (SAMPLES_DIR, "sample_docs", ""),
        (EXAMPLES_DIR, "lab", "examples/"),
    ):
        files = [prefix + f.name for f in folder.iterdir() if f.suffix in (".md", ".jsonl", ".pdf")]
        assert files, folder
        not_shipped = [f for f in files if not any(fnmatch(f, g) for g in shipped[package])]
        assert not_shipped == [], "add these to [tool.setuptools.package-data] in pyproject.toml"


def test_an_installed_wheel_runs_on_its_samples(tmp_path):
    """The project built as a wheel and installed away from the checkout (as pip
    installs it) lists its samples there and checks one against its gold set."""
    import json
    import shutil
    import subprocess
    import sys

    from tests.support import ROOT

    # -- built from a copy: an in-tree build leaves build/ and egg-info in the checkout
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for package in ("chunkers", "lab", "sample_docs"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("*.pyc"))
    quiet = ["--quiet", "--disable-pip-version-check", "--no-deps"]
    pip = [sys.executable, "-m", "pip"]
    built = subprocess.run(
        [*pip, "wheel", *quiet, "--no-build-isolation", "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("chunk_lab-*.whl")
    site = tmp_path / "site"
    installed = subprocess.run(
        [*pip, "install", *quiet, "--target", str(site), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stderr
    home = tmp_path / "elsewhere"
    home.mkdir()

    def run(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "lab", *argv],
            cwd=home,
            env={"PATH": "", "PYTHONPATH": str(site)},
            capture_output=True,
            text=True,
            timeout=120,
        )

    listed = run("samples", "--json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert {r["kind"] for r in rows} == {"sample", "example"}
    assert all(r["document"].startswith(str(site)) for r in rows)
    assert {r["name"] for r in rows if r["kind"] == "sample"} >= {"support_kb", "platform_data"}
    kb = next(r for r in rows if r["name"] == "support_kb")
    checked = run("check", kb["document"], "--gold", kb["gold"], "--json")
    assert checked.returncode == 0 and json.loads(checked.stdout)["passed"], checked.stderr
    example = next(r for r in rows if r["kind"] == "example")
    chunked = run("chunk", example["document"], "--json")
    assert chunked.returncode == 0 and json.loads(chunked.stdout), chunked.stderr
