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


def test_the_samples_are_found_through_the_package_and_ship_with_it():
    import tomllib
    from fnmatch import fnmatch
    from pathlib import Path

    import lab
    from lab.inputs.samples import EXAMPLES_DIR, SAMPLES_DIR
    from tests.support import ROOT

    package = Path(lab.__file__).resolve().parent
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = config["tool"]["setuptools"]["package-data"]["lab"]
    for folder in (SAMPLES_DIR, EXAMPLES_DIR):
        # -- inside the package, wherever it is installed: no checkout needed
        assert folder.resolve().parent == package, folder
        files = [f.relative_to(package).as_posix() for f in folder.iterdir() if f.is_file()]
        assert files, folder
        not_shipped = [f for f in files if not any(fnmatch(f, g) for g in shipped)]
        assert not_shipped == [], "add these to [tool.setuptools.package-data] in pyproject.toml"


def test_a_copy_of_the_package_alone_runs_on_its_samples(tmp_path):
    """The library copied away from the checkout (as pip installs it) lists its
    samples there and checks one against its gold set."""
    import json
    import shutil
    import subprocess
    import sys

    from tests.support import ROOT

    for package in ("lab", "chunkers"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("*.pyc"))

    def run(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "lab", *argv],
            cwd=tmp_path,
            env={"PATH": "", "PYTHONPATH": str(tmp_path)},
            capture_output=True,
            text=True,
            timeout=120,
        )

    listed = run("samples", "--json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert {r["kind"] for r in rows} == {"sample", "example"}
    assert all(r["document"].startswith(str(tmp_path)) for r in rows)
    kb = next(r for r in rows if r["name"] == "support_kb")
    checked = run("check", kb["document"], "--gold", kb["gold"], "--json")
    assert checked.returncode == 0 and json.loads(checked.stdout)["passed"], checked.stderr
    example = next(r for r in rows if r["kind"] == "example")
    chunked = run("chunk", example["document"], "--json")
    assert chunked.returncode == 0 and json.loads(chunked.stdout), chunked.stderr
