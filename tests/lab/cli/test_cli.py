"""`python -m lab`: every subcommand, its JSON, and its bad-input paths."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import AUDIT, ROOT, SAMPLES, SHARED_CORPUS
from tests.support import run_cli as run

PLATFORM = str(SAMPLES / "platform_data.md")
REVENUE = str(SAMPLES / "regional_revenue.md")


def test_chunk_json_has_the_chunk_fields(capsys) -> None:
    code, out, _ = run(capsys, "chunk", REVENUE, "--json")
    data = json.loads(out)
    assert code == 0 and len(data) == 3
    assert set(data[0]) >= {
        "index",
        "body",
        "overlap_prefix",
        "heading_path",
        "kind",
        "transcribed",
        "page",
        "start",
        "end",
        "length",
        "header_repeated",
    }
    assert data[2]["kind"] == "table" and data[2]["heading_path"][-1] == "Revenue by territory"


def test_chunk_table_for_people(capsys) -> None:
    code, out, _ = run(
        capsys, "chunk", PLATFORM, "--strategy", "fixed", "--unit", "words", "--size", "24"
    )
    assert code == 0
    assert out.splitlines()[0] == "8 chunks, fixed, size 24 words, overlap 0"


def test_runt_merge_off_keeps_the_shed_runt_and_the_old_flag_still_works(capsys) -> None:
    lengths = {}
    for flag in ("--runt-merge", "--sweep"):
        for direction in ("backward", "off"):
            code, out, _ = run(capsys, "chunk", REVENUE, flag, direction, "--json")
            assert code == 0
            lengths[flag, direction] = [c["length"] for c in json.loads(out)]
    assert len(lengths["--runt-merge", "off"]) == len(lengths["--runt-merge", "backward"]) + 1
    assert lengths["--sweep", "off"] == lengths["--runt-merge", "off"]
    assert lengths["--sweep", "backward"] == lengths["--runt-merge", "backward"]


def test_survival_json_is_published_lottery_table(capsys) -> None:
    code, out, _ = run(
        capsys,
        "survival",
        PLATFORM,
        "--answer",
        AUDIT,
        "--strategy",
        "fixed",
        "--unit",
        "words",
        "--sizes",
        "22:52:2",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["sizes"] == list(range(22, 53, 2))
    yes = {22, 26, 28, 34, 36, 38, 40, 42, 44, 52}
    assert data["intact"] == [s in yes for s in data["sizes"]]


def test_survival_structural_keeps_it_everywhere(capsys) -> None:
    code, out, _ = run(
        capsys, "survival", PLATFORM, "--answer", AUDIT, "--unit", "words", "--sizes", "22:60"
    )
    assert code == 0 and out.startswith("answer intact at 39 of 39 sizes (structural, words)")


def test_score_json_ranks_the_orphan_first(capsys) -> None:
    code, out, _ = run(
        capsys,
        "score",
        REVENUE,
        "--query",
        "what was Mumbai's FY24 revenue?",
        "--strategy",
        "fixed",
        "--size",
        "1800",
        "--overlap",
        "0",
        "--json",
    )
    rows = json.loads(out)
    assert code == 0 and [r["rank"] for r in rows] == [1, 2, 3]
    assert set(rows[0]) == {"index", "rank", "score", "length", "body", "fts5_rank", "by_retriever"}
    assert rows[0]["by_retriever"] == {"bm25 (lucene)": {"rank": 1, "score": rows[0]["score"]}}
    assert (
        rows[0]["body"].strip() == "| Mumbai | FY24 | 18,412 | 4.2% |" and rows[0]["length"] == 34
    )
    assert rows[0]["fts5_rank"] == 1


def test_stats_over_a_folder_lists_the_invariant(capsys) -> None:
    code, out, _ = run(capsys, "stats", str(SAMPLES), "--json")
    data = json.loads(out)
    assert code == 0 and data["documents"] == 13 and data["invariant_holds"] is True
    assert data["effective_max"] == 2249 and data["floor"] == 450
    assert data["chunks"] >= 7 and data["min"] <= data["median"] <= data["max"]


def test_stats_lists_the_chunks_to_read_with_their_number_and_first_line(capsys) -> None:
    code, out, _ = run(capsys, "stats", str(SAMPLES), "--strategy", "fixed", "--size", "40")
    assert code == 0 and "chunks to read: " in out and "cuts a sentence " in out
    listed = out[out.index("chunks to read: ") :].splitlines()
    kb = listed[listed.index("  support_kb.md") + 1 :]
    rows = kb[: next((i for i, line in enumerate(kb) if not line.startswith("    ")), len(kb))]
    assert rows[0] == "    chunk 1: ends with a heading or lead-in: # Tallyframe help center"
    assert any(row.startswith("    chunk 2: cuts a sentence: ") for row in rows)
    code, out, _ = run(
        capsys, "stats", str(SAMPLES), "--strategy", "fixed", "--size", "40", "--json"
    )
    quality = json.loads(out)["quality"]
    first = quality["chunks"][0]
    assert set(first) == {"doc", "chunk", "checks", "first"} and first["chunk"] >= 1
    assert quality["counts"]["cuts a sentence"] == sum(
        "cuts a sentence" in c["checks"] for c in quality["chunks"]
    )


def test_check_passes_for_structural_and_fails_for_fixed(capsys) -> None:
    kb, gold = str(SAMPLES / "support_kb.md"), str(SAMPLES / "support_kb.gold.jsonl")
    code, out, _ = run(capsys, "check", kb, "--gold", gold)
    assert code == 0 and out.rstrip().endswith("PASS")
    code, out, _ = run(
        capsys,
        "check",
        kb,
        "--gold",
        gold,
        "--strategy",
        "fixed",
        "--unit",
        "words",
        "--size",
        "50",
    )
    assert code == 1 and out.splitlines()[-1].startswith("FAIL")
    assert "answer split across chunks 6 and 7: unretrievable at any k" in out


def test_check_json_keeps_missing_and_poorly_ranked_apart(capsys) -> None:
    doc, gold = str(SAMPLES / "inspection_manual.md"), str(SAMPLES / "inspection_manual.gold.jsonl")
    code, out, _ = run(capsys, "check", doc, "--gold", gold, "--k", "1", "--json")
    data = json.loads(out)
    assert code == 0  # ranking below k is reported, not failed: the chunks exist
    assert data["chunk_does_not_exist"] == 0 and data["chunk_ranks_poorly"] >= 1
    assert data["recall"]["1"] < 1.0 == data["intact_rate"]


def test_check_a_folder_with_doc_paths(tmp_path: Path, capsys) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("support_kb", "release_handbook"):
        (docs / f"{name}.md").write_text(
            (SAMPLES / f"{name}.md").read_text(encoding="utf-8"), encoding="utf-8"
        )
    (docs / "broken.md").write_bytes(b"\x00\x01binary\x00")
    lines = []
    for name in ("support_kb", "release_handbook"):
        for line in (SAMPLES / f"{name}.gold.jsonl").read_text(encoding="utf-8").splitlines():
            lines.append(json.dumps({**json.loads(line), "doc": f"docs/{name}.md"}))
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join(lines), encoding="utf-8")
    code, out, _ = run(capsys, "check", str(docs), "--gold", str(gold))
    assert code == 0 and "PASS" in out
    assert "not read:" in out and "broken.md" in out  # nothing skipped silently


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["chunk", "no/such/file.md"], "not found"),
        (["chunk", str(SAMPLES)], "folder"),
        (["chunk", PLATFORM, "--size", "0"], "size must be"),
        (
            ["chunk", PLATFORM, "--size", "10", "--overlap", "10"],
            "overlap must be smaller than size",
        ),
        (["survival", PLATFORM, "--answer", "not in the document at all"], "not"),
        (["survival", PLATFORM, "--answer", AUDIT, "--sizes", "30:20"], "--sizes"),
        (["survival", PLATFORM, "--answer", AUDIT, "--sizes", "a:b"], "--sizes"),
        (["score", PLATFORM, "--query", "?!"], "no searchable words"),
        (["check", PLATFORM, "--gold", "missing.jsonl"], "missing.jsonl"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv: list[str], needle: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and needle in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "content,needle",
    [
        (b"", "empty"),
        (b"\x00\x01\x02\x03binary\x00\x00", "binary"),
        ("caf\xe9 cr\xe8me brul\xe9e, enough text to guess".encode("latin-1"), "UTF-8"),
    ],
)
def test_unreadable_documents(tmp_path: Path, capsys, content: bytes, needle: str) -> None:
    path = tmp_path / "doc.md"
    path.write_bytes(content)
    code, _, err = run(capsys, "stats", str(path))
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_malformed_gold_line_names_the_line(tmp_path: Path, capsys) -> None:
    gold = tmp_path / "g.jsonl"
    gold.write_text(
        '{"question": "q", "answer": "The platform stores three categories of data."}\n{oops\n',
        encoding="utf-8",
    )
    code, _, err = run(capsys, "check", PLATFORM, "--gold", str(gold))
    assert code == 2 and "line 2" in err and len(err.strip().splitlines()) == 1


def test_gold_answer_missing_from_the_document(tmp_path: Path, capsys) -> None:
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"question": "q", "answer": "nowhere in the text"}\n', encoding="utf-8")
    code, _, err = run(capsys, "check", PLATFORM, "--gold", str(gold))
    assert code == 2 and "gold pair 1" in err


def test_unknown_strategy_is_one_line(capsys) -> None:
    code, _, err = run(capsys, "chunk", PLATFORM, "--strategy", "semantic")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "invalid choice" in err


def test_module_entry_point_runs_as_a_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "lab", "chunk", "does-not-exist.md"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr


@pytest.mark.shared_corpus
def test_stats_over_a_real_docs_folder_holds_the_invariant() -> None:
    folder = SHARED_CORPUS / "httpx"
    done = subprocess.run(
        [sys.executable, "-m", "lab", "stats", str(folder), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["invariant_holds"] is True


# ---------------------------------------------------------- more bad input, each door of the CLI


def test_a_folder_lists_what_it_could_not_read(tmp_path: Path, capsys) -> None:
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "kb.md").write_bytes((SAMPLES / "support_kb.md").read_bytes())
    (docs / "sub" / "scan.md").write_bytes(
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
    )
    (docs / "sub" / "latin.txt").write_bytes("caf\xe9 cr\xe8me".encode("cp1252"))
    code, out, _ = run(capsys, "stats", str(docs))
    assert code == 0 and out.startswith("1 document, ")
    assert (
        f"not read: {docs / 'sub' / 'scan.md'}: sub/scan.md looks like a binary file, not text"
        in out
    )
    assert f"not read: {docs / 'sub' / 'latin.txt'}: sub/latin.txt is not UTF-8" in out
    code, out, _ = run(capsys, "stats", str(docs), "--json")
    assert [Path(u["path"]).name for u in json.loads(out)["unreadable"]] == ["latin.txt", "scan.md"]


def test_a_folder_with_nothing_readable_exits_2(tmp_path: Path, capsys) -> None:
    (tmp_path / "notes.pdf").write_bytes(b"%PDF-1.7")
    code, _, err = run(capsys, "stats", str(tmp_path))
    assert code == 2 and "notes.pdf is not a readable PDF" in err
    assert len(err.strip().splitlines()) == 1


def test_a_crlf_gold_file_checks_as_its_lf_copy(tmp_path: Path, capsys) -> None:
    kb, lf = str(SAMPLES / "support_kb.md"), SAMPLES / "support_kb.gold.jsonl"
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(b"\xef\xbb\xbf" + lf.read_bytes().replace(b"\n", b"\r\n"))  # and a BOM
    _, want, _ = run(capsys, "check", kb, "--gold", str(lf), "--json")
    code, got, _ = run(capsys, "check", kb, "--gold", str(crlf), "--json")
    assert code == 0 and json.loads(got) == json.loads(want) and len(json.loads(got)["pairs"]) == 8


@pytest.mark.parametrize("encoding,label", [("cp1252", "Windows-1252"), ("utf-16", "UTF-16")])
def test_a_gold_file_not_in_utf8_names_its_encoding(
    tmp_path: Path, capsys, encoding: str, label: str
) -> None:
    gold = tmp_path / "g.jsonl"
    gold.write_bytes(
        (
            '{"question": "caf\u00e9?", '
            '"answer": "The platform stores three categories of data."}\n'
        ).encode(encoding)
    )
    code, _, err = run(capsys, "check", PLATFORM, "--gold", str(gold))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "g.jsonl is not UTF-8" in err and f"it looks like {label}" in err


def test_a_gold_question_without_words_names_its_line(tmp_path: Path, capsys) -> None:
    gold = tmp_path / "g.jsonl"
    gold.write_text(
        '{"question": "q", "answer": "The platform stores three categories of data."}\n'
        '{"question": "?! ...", "answer": "The platform stores three categories of data."}\n',
        encoding="utf-8",
    )
    code, _, err = run(capsys, "check", PLATFORM, "--gold", str(gold))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert 'line 2: "question" has no searchable words' in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv,needle",
    [
        (
            ["check", PLATFORM, "--gold", str(SAMPLES / "platform_data.gold.jsonl"), "--k", "0"],
            "--k must be",
        ),
        (["score", PLATFORM, "--query", "audit", "--k1", "inf"], "need k1 >= 0"),
        (["score", PLATFORM, "--query", "audit", "--b", "nan"], "need k1 >= 0"),
        (["survival", PLATFORM, "--answer", " \t\r\n "], "the answer is empty"),
    ],
)
def test_out_of_range_parameters_exit_2_with_one_line(capsys, argv: list[str], needle: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize(
    ("argv0", "prog"),
    [("/usr/local/bin/chunk-lab", "chunk-lab"), ("/src/lab/__main__.py", "python -m lab")],
)
def test_messages_name_the_command_the_user_typed(monkeypatch, capsys, argv0, prog) -> None:
    from lab.cli import main

    monkeypatch.setattr(sys, "argv", [argv0])
    with pytest.raises(SystemExit) as bad_usage:
        main(["chunk"])
    assert bad_usage.value.code == 2 and capsys.readouterr().err.startswith(f"{prog} chunk: ")
    assert main(["chunk", "no-such-file.md"]) == 2  # bad input, past the parser
    assert capsys.readouterr().err.startswith(f"{prog} chunk: ")


def _options(parser):
    """(subcommand, option) for every option of every subcommand, help included."""
    import argparse

    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, p in sub.choices.items():
        for action in p._actions:
            if action.help != argparse.SUPPRESS and not isinstance(action, argparse._HelpAction):
                yield name, action


def test_every_option_says_what_it_is_and_names_no_file_a_pip_user_lacks():
    from lab.cli.parser import build_parser

    parser = build_parser()
    silent = [
        f"{name} {'/'.join(a.option_strings) or a.dest}"
        for name, a in _options(parser)
        if not (a.help or "").strip()
    ]
    assert silent == []
    texts = [parser.format_help()] + [p.format_help() for p in _subparsers(parser)]
    for text in texts:
        assert "docs/" not in text and "requirements" not in text and ".txt)" not in text


def _subparsers(parser):
    import argparse

    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(sub.choices.values())


def test_counts_agree_with_their_nouns(tmp_path, capsys):
    from lab.cli.parser import main

    one = tmp_path / "one.md"
    one.write_text("Audit logs are kept for four hundred days.\n")
    assert main(["chunk", str(one)]) == 0
    assert capsys.readouterr().out.startswith("1 chunk, structural")
    assert main(["stats", str(one), "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("1 document, 1 chunk (structural")
    two = tmp_path / "two.md"
    two.write_text("Audit logs are kept for four hundred days. " * 80)
    assert main(["chunk", str(two), "--unit", "words", "--size", "40"]) == 0
    assert capsys.readouterr().out.startswith("16 chunks, structural")  # 640 words / 40


def test_pip_install_leaves_nothing_untracked(tmp_path):
    import subprocess

    from tests.support import ROOT

    ignored = subprocess.run(
        ["git", "check-ignore", "chunk_lab.egg-info/", "build/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ignored.stdout.split() == ["chunk_lab.egg-info/", "build/"]
