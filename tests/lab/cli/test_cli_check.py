"""`python -m lab check` with passages, CSV, one document of many, formats, thresholds,
progress bars and Dask; every bad input exits 2 with one line."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from lab.cli import main
from tests.support import ROOT, SAMPLES, SHARED_CORPUS
from tests.support import run_cli as run

KB = str(SAMPLES / "support_kb.md")
KB_GOLD = str(SAMPLES / "support_kb.gold.jsonl")
DATA = ROOT / "tests" / "data"


def _gold(tmp_path: Path, *lines: dict, name: str = "g.jsonl") -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return str(path)


REFUND = "Refunds are available within 30 days of purchase"


def test_passages_report_recall_coverage_and_intact_per_passage(tmp_path: Path, capsys) -> None:
    gold = _gold(
        tmp_path,
        {
            "question": "what is the refund window?",
            "passages": [{"text": REFUND}, {"start": 0, "end": 40}],
        },
    )
    code, out, _ = run(capsys, "check", KB, "--gold", gold, "--json")
    data = json.loads(out)
    assert code == 0 and data["passed"] and data["questions"] == 1 and data["passages"] == 2
    (pair,) = data["pairs"]
    assert [p["intact"] for p in pair["passages"]] == [True, True]
    assert set(data["coverage"]) == set(data["recall"]) == {"1", "3", "5", "10"}
    assert 0 < data["coverage"]["1"] <= data["coverage"]["10"] == 1.0
    code, out, _ = run(capsys, "check", KB, "--gold", gold)
    assert "coverage@1 " in out and "coverage@10" in out and out.rstrip().endswith("PASS")


@pytest.mark.parametrize(
    "passage,needle",
    [
        ({"start": 10, "end": 10**6}, "line 2): span 10-1000000 runs outside support_kb.md"),
        ({"text": "a sentence that is nowhere"}, "line 2): passage 'a sentence that is nowhere'"),
    ],
)
def test_a_passage_not_in_its_document_exits_2_naming_the_line(
    tmp_path: Path, capsys, passage: dict, needle: str
) -> None:
    gold = _gold(
        tmp_path,
        {"question": "refund?", "passages": [{"text": REFUND}]},
        {"question": "refund?", "passages": [passage]},
    )
    code, out, err = run(capsys, "check", KB, "--gold", gold)
    assert code == 2 and out == "" and needle in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_csv_gold_file_checks_as_its_jsonl_twin(tmp_path: Path, capsys) -> None:
    jsonl = _gold(
        tmp_path,
        {"question": "refund?", "passages": [{"text": REFUND}, {"start": 0, "end": 40}]},
        {"question": "billing?", "answer": "Annual billing costs the same as ten months"},
    )
    csv = tmp_path / "g.csv"
    csv.write_text(
        "question,answer,text,start,end\n"
        f"refund?,,{REFUND},,\n"
        "refund?,,,0,40\n"
        "billing?,Annual billing costs the same as ten months,,,\n",
        encoding="utf-8",
    )
    _, want, _ = run(capsys, "check", KB, "--gold", jsonl, "--json")
    code, got, _ = run(capsys, "check", KB, "--gold", str(csv), "--json")
    assert code == 0 and json.loads(got) == json.loads(want)


def test_a_bad_csv_row_exits_2_naming_its_line(tmp_path: Path, capsys) -> None:
    csv = tmp_path / "g.csv"
    csv.write_text(f"question,text,start,end\nrefund?,{REFUND},,\nq?,,7,x\n", encoding="utf-8")
    code, _, err = run(capsys, "check", KB, "--gold", str(csv))
    assert code == 2 and "g.csv line 3" in err and len(err.strip().splitlines()) == 1


def test_one_document_checks_only_its_lines_and_counts_the_rest(tmp_path: Path, capsys) -> None:
    gold = _gold(
        tmp_path,
        {"question": "refund?", "doc": "support_kb.md", "answer": REFUND},
        {"question": "audit?", "doc": "platform_data.md", "answer": "Audit logs"},
        {"question": "refund window?", "answer": REFUND},  # no doc: it is for this one
        {"question": "rollback?", "doc": "docs/release_handbook.md", "answer": "rollback"},
    )
    code, out, _ = run(capsys, "check", KB, "--gold", gold)
    assert code == 0 and "skipped 2 gold line(s) naming other documents" in out
    code, out, _ = run(capsys, "check", KB, "--gold", gold, "--json")
    data = json.loads(out)
    assert data["questions"] == 2 and data["skipped_other_documents"] == 2


def test_one_document_with_no_line_of_its_own_exits_2(tmp_path: Path, capsys) -> None:
    gold = _gold(tmp_path, {"question": "audit?", "doc": "platform_data.md", "answer": "Audit"})
    code, _, err = run(capsys, "check", KB, "--gold", gold)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "no line of" in err and "support_kb.md (1 name other documents)" in err


def test_a_folder_takes_doc_names_relative_to_itself(tmp_path: Path, capsys) -> None:
    gold = _gold(
        tmp_path,
        {"question": "refund?", "doc": "support_kb.md", "answer": REFUND},
        {"question": "audit?", "doc": "platform_data.md", "passages": [{"text": "Audit logs"}]},
    )
    code, out, _ = run(capsys, "check", str(SAMPLES), "--gold", gold, "--json")
    data = json.loads(out)
    assert code == 0 and [p["doc"] for p in data["pairs"]] == ["support_kb.md", "platform_data.md"]


def test_markdown_report_for_a_pull_request(capsys) -> None:
    code, out, _ = run(capsys, "check", KB, "--gold", KB_GOLD, "--format", "markdown")
    assert code == 0 and out.startswith("## Index gate: PASS")
    assert "| metric | @1 | @3 | @5 | @10 |" in out and "| coverage |" in out


def test_thresholds_fail_the_gate_below_them(capsys) -> None:
    doc, gold = str(SAMPLES / "inspection_manual.md"), str(SAMPLES / "inspection_manual.gold.jsonl")
    code, out, _ = run(capsys, "check", doc, "--gold", gold, "--k", "1")
    assert code == 0  # ranking below k alone does not fail the gate
    code, out, _ = run(capsys, "check", doc, "--gold", gold, "--k", "1", "--min-recall", "1")
    assert code == 1 and "BELOW THRESHOLD: recall@1" in out
    assert out.splitlines()[-1] == "FAIL: below threshold: recall@1 0.625 < 1.0"
    code, out, _ = run(capsys, "check", doc, "--gold", gold, "--k", "1", "--min-coverage", "0")
    assert code == 0


@pytest.mark.parametrize(
    "extra,needle",
    [
        (["--min-recall", "1.5"], "--min-recall must be a share from 0 to 1"),
        (["--min-coverage", "-0.1"], "--min-coverage must be a share from 0 to 1"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"], "not allowed with"),
        (["--format", "html"], "invalid choice"),
    ],
)
def test_bad_check_options_exit_2_with_one_line(capsys, extra: list[str], needle: str) -> None:
    code, out, err = run(capsys, "check", KB, "--gold", KB_GOLD, *extra)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err


def test_workers_without_dask_says_so_in_one_line(capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    code, out, err = run(capsys, "check", KB, "--gold", KB_GOLD, "--workers", "2")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "Dask is not installed: pip install 'chunk-lab[dask]'" in err


def test_local_workers_that_die_starting_say_so_in_one_line(capsys, monkeypatch, tmp_path) -> None:
    # -- a spawned worker re-runs the caller's __main__: one that is gone kills it
    gone = type(sys)("__main__")
    gone.__file__ = str(tmp_path / "deleted_script.py")
    monkeypatch.setitem(sys.modules, "__main__", gone)
    code, out, err = run(capsys, "check", KB, "--gold", KB_GOLD, "--workers", "1")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "could not start the local Dask workers" in err


# ------------------------------------------------------------------ progress bars


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("command", ["check", "stats"])
def test_a_terminal_sees_a_progress_bar_and_quiet_silences_it(monkeypatch, command) -> None:
    argv = [command, str(SAMPLES)]
    if command == "check":
        argv += ["--gold", str(DATA / "samples.gold.jsonl")]
    for quiet, shown in ((False, True), (True, False)):
        terminal, out = _Terminal(), io.StringIO()
        monkeypatch.setattr(sys, "stderr", terminal)
        monkeypatch.setattr(sys, "stdout", out)
        assert main(argv + (["--quiet"] if quiet else [])) == 0
        assert ("chunking" in terminal.getvalue()) is shown, terminal.getvalue()
        assert "chunking" not in out.getvalue()  # bars never go to stdout


def test_no_bar_when_stderr_is_not_a_terminal(capsys) -> None:
    code, _, err = run(capsys, "stats", str(SAMPLES))
    assert code == 0 and err == ""


# ------------------------------------------------------------------ Dask


@pytest.mark.slow
def test_a_local_dask_cluster_reports_byte_for_byte_what_the_serial_run_does(capsys) -> None:
    # Dask is a test requirement (scripts/test.sh installs requirements-dask.txt)
    argv = ["check", str(SAMPLES), "--gold", str(DATA / "samples.gold.jsonl"), "--json"]
    code, serial, _ = run(capsys, *argv)
    assert code == 0
    code, distributed, _ = run(capsys, *argv, "--workers", "2")
    assert code == 0 and distributed == serial
    code, serial_stats, _ = run(capsys, "stats", str(SAMPLES), "--json")
    code, distributed_stats, _ = run(capsys, "stats", str(SAMPLES), "--json", "--workers", "2")
    assert distributed_stats == serial_stats


@pytest.mark.shared_corpus
def test_the_shipped_passage_gold_set_passes_on_the_shared_corpus(capsys) -> None:
    folder = str(SHARED_CORPUS / "httpx")
    for gold in ("httpx.gold.jsonl", "httpx.gold.csv"):
        code, out, _ = run(capsys, "check", folder, "--gold", str(DATA / gold), "--json")
        data = json.loads(out)
        assert code == 0 and data["questions"] == 5 and data["passages"] == 6
        assert data["recall"]["10"] == 1.0 and data["coverage"]["10"] == 1.0


def _runt_doc(tmp_path: Path) -> tuple[str, str]:
    """A document whose answer every strategy keeps whole, and whose last few words
    make a runt in 25-word fixed windows and in structural chunks with the merge off."""
    words = " ".join(f"word{i}" for i in range(40))
    doc = tmp_path / "d.md"
    doc.write_text(f"# Intro\n\n{REFUND}. {words}\n\n# Tail\n\nShort tail.\n", encoding="utf-8")
    return str(doc), _gold(tmp_path, {"question": "refund window?", "answer": REFUND})


FIXED_25 = ("--strategy", "fixed", "--unit", "words", "--size", "25", "--overlap", "0")


def test_runts_are_warned_not_failed_for_a_strategy_that_promises_no_floor(tmp_path, capsys):
    doc, gold = _runt_doc(tmp_path)
    code, out, _ = run(capsys, "check", doc, "--gold", gold, *FIXED_25)
    assert "runts: 1 below the floor, 0 excused, 1 failing" in out
    assert "WARNING: 1 runt with no excuse (reported, not failed" in out
    assert code == 0 and out.splitlines()[-1] == "PASS"
    code, out, _ = run(capsys, "check", doc, "--gold", gold, *FIXED_25, "--json")
    data = json.loads(out)
    assert data["passed"] and data["failed_rules"] == [] and len(data["warnings"]) == 1


def test_max_runts_fails_any_strategy_and_the_last_line_names_the_rule(tmp_path, capsys):
    doc, gold = _runt_doc(tmp_path)
    code, out, _ = run(capsys, "check", doc, "--gold", gold, *FIXED_25, "--max-runts", "0")
    assert code == 1
    assert out.splitlines()[-1] == "FAIL: 1 runt with no excuse (more than --max-runts 0)"
    code, out, _ = run(capsys, "check", doc, "--gold", gold, *FIXED_25, "--max-runts", "1")
    assert code == 0 and out.splitlines()[-1] == "PASS"


def test_runts_fail_the_structural_strategy_which_promises_a_floor(tmp_path, capsys):
    doc, gold = _runt_doc(tmp_path)
    argv = ["check", doc, "--gold", gold, "--unit", "words", "--size", "30", "--overlap", "0"]
    code, out, _ = run(capsys, *argv, "--runt-merge", "off")
    assert code == 1
    assert out.splitlines()[-1] == "FAIL: 1 runt with no excuse (structural promises a floor)"
    code, out, _ = run(capsys, *argv, "--runt-merge", "off", "--format", "markdown")
    assert out.startswith("## Index gate: FAIL: 1 runt with no excuse")


def test_a_cut_answer_names_its_rule_on_the_last_line(capsys) -> None:
    code, out, _ = run(capsys, "check", KB, "--gold", KB_GOLD, "--strategy", "fixed",
                       "--unit", "words", "--size", "37", "--overlap", "0")  # fmt: skip
    assert code == 1
    assert out.splitlines()[-1] == "FAIL: 5 answers in no chunk (chunk does not exist)"


def test_max_runts_below_zero_is_one_line(capsys) -> None:
    code, out, err = run(capsys, "check", KB, "--gold", KB_GOLD, "--max-runts", "-1")
    assert code == 2
    assert err.strip().endswith("--max-runts must be a whole number of at least 0, got -1")
    assert len(err.strip().splitlines()) == 1


def test_cut_at_a_boundary_and_whole_in_no_chunk_are_reported_apart(capsys) -> None:
    # 50-word windows cut six answers at a boundary; 20 words of overlap keep every one
    # whole in the next chunk, so none is whole in no chunk
    argv = ["check", KB, "--gold", KB_GOLD, "--strategy", "fixed", "--unit", "words"]
    code, out, _ = run(capsys, *argv, "--size", "50", "--overlap", "20", "--json")
    data = json.loads(out)
    assert (data["passages_cut_at_boundary"], data["passages_whole_in_no_chunk"]) == (6, 0)
    assert code == 0
    code, out, _ = run(capsys, *argv, "--size", "50", "--overlap", "0")
    assert "passages cut at a boundary: " in out and code == 1
    said = re.search(r"passages cut at a boundary: (\d+)   whole in no chunk: (\d+)", out)
    assert said is not None
    cut, none = int(said.group(1)), int(said.group(2))
    assert none >= 1 and cut >= none
