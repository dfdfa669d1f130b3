"""The three lessons on the command line: check --small-to-big, boilerplate and
check --strip-boilerplate, stats --save-baseline / --baseline (drift); every bad
input exits 2 with one line."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.support import ROOT, SAMPLES
from tests.support import run_cli as run

DATA = ROOT / "tests" / "data"
MANUAL = str(SAMPLES / "warehouse_manual.md")
MANUAL_GOLD = str(SAMPLES / "warehouse_manual.gold.jsonl")


# --------------------------------------------------------------------------- small-to-big


def test_check_small_to_big_reports_each_question_and_overall(capsys) -> None:
    argv = ["check", str(SAMPLES), "--gold", str(DATA / "samples.gold.jsonl"), "--k", "3"]
    code, out, _ = run(capsys, *argv, "--small-to-big", "300:1800", "--json", "--quiet")
    data = json.loads(out)
    [s2b] = data["small_to_big"]  # one report per retriever: BM25 alone by default
    assert s2b["retriever"] == "bm25 (lucene)"
    assert code == 0 and (s2b["children"], s2b["parents"]) == (
        "structural:chars:300:0",
        "structural:chars:1800:0",
    )
    assert s2b["plain"] == "structural:chars:1800:150" and s2b["k"] == 3
    arms = ["chunks", "children", "parents", "chunks at the parents' budget"]
    assert list(s2b["overall"]) == arms
    assert len(s2b["questions"]) == data["questions"] == 9
    q = s2b["questions"][0]
    assert set(q) >= {"question", "doc", "duplicates_removed", "context_without_dedupe", *arms}
    assert s2b["duplicates_removed"] == sum(q["duplicates_removed"] for q in s2b["questions"])
    assert s2b["mean_context_without_dedupe"] >= s2b["overall"]["parents"]["mean_context"]
    # the same figures in the table, before the verdict
    code, out, _ = run(capsys, *argv, "--small-to-big", "300:1800", "--quiet")
    lines = out.rstrip().split("\n")
    assert lines[-1] == "PASS"
    assert any(
        line.startswith("small-to-big, ranked by bm25 (lucene): children structural:chars:300:0")
        for line in lines
    )
    assert any(line.startswith("parent dedupe removed ") for line in lines)
    assert sum(line.startswith(("children  ", "parents  ")) for line in lines) == 2
    code, out, _ = run(capsys, *argv, "--small-to-big", "300:1800", "--format", "markdown")
    assert "## Small-to-big" in out and "| delivered | recall@3 |" in out


def test_check_small_to_big_ranks_with_every_retriever_named(capsys, no_network) -> None:
    argv = ["check", str(SAMPLES), "--gold", str(DATA / "samples.gold.jsonl"), "--k", "3"]
    argv += ["--small-to-big", "300:1800", "--retriever", "bm25,dense", "--quiet"]
    code, out, _ = run(capsys, *argv, "--json")
    reports = json.loads(out)["small_to_big"]
    assert code == 0 and [r["retriever"] for r in reports] == ["bm25 (lucene)", "dense (wordllama)"]
    # -- the same tiers and gold set, judged twice: the figures are each judge's own
    assert {r["children"] for r in reports} == {"structural:chars:300:0"}
    assert reports[0]["overall"] != reports[1]["overall"]
    code, out, _ = run(capsys, *argv)
    assert out.count("small-to-big, ranked by ") == 2 and "ranked by dense (wordllama)" in out


@pytest.mark.parametrize(
    "spec,message",
    [
        ("1800:300", "children (structural:chars:1800:0) are not smaller than their parents"),
        ("nonsense", "small-to-big 'nonsense' must be CHILD_SIZE:PARENT_SIZE"),
    ],
)
def test_small_to_big_tiers_that_do_not_fit_exit_2(capsys, spec: str, message: str) -> None:
    kb = str(SAMPLES / "support_kb.md")
    gold = str(SAMPLES / "support_kb.gold.jsonl")
    code, out, err = run(capsys, "check", kb, "--gold", gold, "--small-to-big", spec)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"check: --small-to-big: {message}" in err


# --------------------------------------------------------------------------- boilerplate


def test_boilerplate_lists_what_it_found(capsys) -> None:
    code, out, _ = run(capsys, "boilerplate", MANUAL, "--size", "600", "--overlap", "0")
    assert code == 0
    head, *rows = out.strip().split("\n")
    assert head.startswith("2 repeated block(s) in 1 document(s): 3,555 of 9,291 characters")
    assert "11 of 23 chunks consist mostly of it (structural, size 600 chars)" in head
    assert "12 of 12 pages" in rows[2] and "Confidential. This manual" in rows[2]
    code, out, _ = run(capsys, "boilerplate", MANUAL, "--json")
    data = json.loads(out)
    assert [f["units"] for f in data["findings"]] == [12, 12]
    assert data["thresholds"] == {
        "min_share": 0.5,
        "placed_share": 0.25,
        "min_units": 3,
        "mostly": 0.5,
    }
    assert len(data["findings"][0]["occurrences"]) == 12


def test_strip_writes_copies_and_leaves_the_originals_alone(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "docs"
    shutil.copytree(SAMPLES, folder)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    out_dir = tmp_path / "clean"
    code, out, _ = run(capsys, "boilerplate", str(folder), "--strip", str(out_dir))
    assert code == 0 and "wrote 13 stripped copies to" in out
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    clean = (out_dir / "warehouse_manual.md").read_text(encoding="utf-8")
    assert "Confidential." not in clean and "## Page 12" in clean
    assert (out_dir / "support_kb.md").read_bytes() == before["support_kb.md"]
    # never over the originals
    code, out, err = run(capsys, "boilerplate", str(folder), "--strip", str(folder))
    assert code == 2 and "would write over the original" in err and err.count("\n") == 1
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_boilerplate_bad_input_exits_2_in_one_line(tmp_path: Path, capsys) -> None:
    code, _, err = run(capsys, "boilerplate", str(SAMPLES / "support_kb.md"))
    assert code == 2 and err.count("\n") == 1
    assert "support_kb.md has no '## Page N' sections: per-page detection needs" in err
    (tmp_path / "empty").mkdir()
    code, _, err = run(capsys, "boilerplate", str(tmp_path / "empty"))
    assert code == 2 and "no *.md or *.txt files in empty" in err and err.count("\n") == 1


def _gold_with_footer(tmp_path: Path) -> str:
    lines = Path(MANUAL_GOLD).read_text(encoding="utf-8")
    extra = {"question": "which revision is current?", "answer": "WOM-2 Revision 4"}
    path = tmp_path / "g.jsonl"
    path.write_text(lines + json.dumps(extra) + "\n", encoding="utf-8")
    return str(path)


def test_check_on_stripped_text_reports_gold_in_stripped_text(tmp_path: Path, capsys) -> None:
    argv = ["check", MANUAL, "--strategy", "sentence", "--size", "500", "--k", "3"]
    code, out, _ = run(capsys, *argv, "--gold", MANUAL_GOLD, "--strip-boilerplate", "--json")
    data = json.loads(out)
    assert code == 0 and data["passed"] and data["questions"] == 10
    assert data["stripped"]["removed_chars"] > 3000 and data["stripped"]["gold_in_stripped"] == []
    _, plain_out, _ = run(capsys, *argv, "--gold", MANUAL_GOLD, "--json")
    assert data["chunks"] < json.loads(plain_out)["chunks"]

    gold = _gold_with_footer(tmp_path)
    code, out, _ = run(capsys, *argv, "--gold", gold, "--strip-boilerplate", "--json")
    data = json.loads(out)
    assert code == 1 and not data["passed"] and data["questions"] == 10
    assert data["stripped"]["gold_in_stripped"] == [
        {
            "question": "which revision is current?",
            "doc": "warehouse_manual.md",
            "line": 11,
            "reason": "its answer lies in text stripped as boilerplate",
        }
    ]
    code, out, _ = run(capsys, *argv, "--gold", gold, "--strip-boilerplate")
    assert code == 1 and out.splitlines()[-1].startswith("FAIL")
    assert (
        "  STRIPPED: which revision is current? (gold line 11): its answer lies in text "
        "stripped as boilerplate" in out
    )


# --------------------------------------------------------------------------- drift


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    for source, names in (
        ("reports", ("regional_revenue.md", "compute_pricing.md")),
        ("handbooks", ("release_handbook.md", "support_kb.md", "api_reference.md")),
    ):
        (root / source).mkdir(parents=True)
        for n in names:
            shutil.copy(SAMPLES / n, root / source / n)
    shutil.copy(SAMPLES / "platform_data.md", root / "platform_data.md")
    return root


def _as_a_bad_converter_would(path: Path) -> None:
    """Headings lost (their marks dropped), a table flattened into one line per cell."""
    text = re.sub(r"(?m)^#{1,6} +", "", path.read_text(encoding="utf-8"))
    out = []
    for line in text.split("\n"):
        if line.startswith("|"):
            if not set(line) <= set("|-: "):
                out += [cell.strip() for cell in line.strip("|").split("|")]
        else:
            out.append(line)
    path.write_text("\n".join(out), encoding="utf-8")


def test_a_document_broken_by_a_converter_is_flagged_and_no_other(tmp_path: Path, capsys) -> None:
    root, base = _folder(tmp_path), tmp_path / "baseline.json"
    code, out, _ = run(capsys, "stats", str(root), "--save-baseline", str(base), "--quiet")
    assert code == 0 and f"baseline saved to {base}: 3 source(s), 6 document(s)" in out
    saved = json.loads(base.read_text(encoding="utf-8"))
    assert set(saved["sources"]) == {".", "reports", "handbooks"}
    assert len(saved["all"]["histogram"]) == len(saved["bin_edges"]) == 21
    code, out, _ = run(capsys, "stats", str(root), "--baseline", str(base), "--quiet")
    assert code == 0 and "no drift: every source and document within the thresholds" in out

    _as_a_bad_converter_would(root / "reports" / "regional_revenue.md")
    code, out, _ = run(capsys, "stats", str(root), "--baseline", str(base), "--quiet", "--json")
    drift = json.loads(out)["drift"]
    assert code == 1 and drift["drifted"]
    assert drift["moved_documents"] == ["reports/regional_revenue.md"]
    assert drift["moved_sources"] == ["reports"]
    figures = {m["figure"] for m in drift["moved"] if m["level"] == "document"}
    assert {"p5", "median", "chunks per 1,000 chars"} <= figures
    code, out, _ = run(capsys, "stats", str(root), "--baseline", str(base), "--quiet")
    assert code == 1
    assert "DRIFT: 1 source(s) (reports) and 1 document(s) (reports/regional_revenue.md)" in out
    row = next(line for line in out.split("\n") if " median " in line and "document" in line)
    assert "reports/regional_revenue.md" in row and "+28%" in row


def test_bad_baselines_exit_2_naming_the_problem_and_the_fix(tmp_path: Path, capsys) -> None:
    root, base = _folder(tmp_path), tmp_path / "baseline.json"
    run(capsys, "stats", str(root), "--save-baseline", str(base), "--quiet")

    def refused(*extra: str) -> str:
        code, out, err = run(capsys, "stats", str(root), "--quiet", *extra)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        return err

    err = refused("--baseline", str(base), "--size", "1000")
    assert (
        "baseline.json was saved for structural:chars:1800:150 (runt merge backward), this run "
        "is structural:chars:1000:0 (runt merge backward); run with the baseline's settings, or "
        "save a new baseline" in err
    )
    old = json.loads(base.read_text(encoding="utf-8"))
    old["version"] = 0
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    err = refused("--baseline", str(tmp_path / "old.json"))
    assert "old.json was saved by another version of chunk-lab" in err
    assert "save a new baseline with --save-baseline" in err
    err = refused("--baseline", str(SAMPLES / "support_kb.md"))
    assert "support_kb.md is not a chunk-lab baseline; save one with" in err
    err = refused("--baseline", str(tmp_path / "missing.json"))
    assert "baseline missing.json was not found; check the path" in err
    (tmp_path / "empty").mkdir()
    code, _, err = run(capsys, "stats", str(tmp_path / "empty"), "--save-baseline", str(base))
    assert code == 2 and "no *.md or *.txt files in empty" in err
