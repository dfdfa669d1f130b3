"""Routing on the command line: `types DIR`, a folder's doctypes.json, --strategy routed,
and check, stats, diff and drift broken down by document type."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from chunkers import ChunkOptions, chunk_with
from lab.measure.paired import paired_difference
from tests.support import SAMPLES, run_cli

MIXED = ("library_faq", "api_reference", "council_transcript", "software_licence", "support_kb")


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """A folder of one document per type, and one gold file naming each line's document."""
    lines = []
    for name in MIXED:
        shutil.copy(SAMPLES / f"{name}.md", tmp_path / f"{name}.md")
        for raw in (SAMPLES / f"{name}.gold.jsonl").read_text(encoding="utf-8").splitlines():
            lines.append(json.dumps({**json.loads(raw), "doc": f"{name}.md"}))
    (tmp_path / "gold.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def test_types_says_each_document_s_type_and_evidence_in_one_line(capsys, mixed):
    code, out, _ = run_cli(capsys, "types", str(mixed))
    assert code == 0
    rows = {ln.split()[0]: ln.split()[1:3] for ln in out.splitlines() if ".md " in ln}
    assert rows == {
        "api_reference.md": ["api", "api"],
        "council_transcript.md": ["transcript", "transcript"],
        "library_faq.md": ["faq", "faq"],
        "software_licence.md": ["contract", "contract"],
        "support_kb.md": ["prose", "structural"],
    }
    assert "speaker turn(s)" in out and "endpoint line(s)" in out


def test_a_mapping_file_overrides_the_rules_and_routes_by_it(capsys, mixed):
    (mixed / "doctypes.json").write_text('{"support_kb.md": "faq"}', encoding="utf-8")
    code, out, _ = run_cli(capsys, "types", str(mixed), "--json")
    assert code == 0
    found = {d["document"]: d for d in json.loads(out)["documents"]}
    assert found["support_kb.md"]["type"] == "faq"
    assert found["support_kb.md"]["evidence"] == "set in doctypes.json"
    code, out, _ = run_cli(capsys, "stats", str(mixed), "--strategy", "routed", "--json")
    # support_kb goes through the FAQ chunker now, and is counted as an FAQ
    faq = json.loads(out)["by_type"]["faq"]
    made = [
        chunk_with((mixed / f"{n}.md").read_text(encoding="utf-8"), "faq", ChunkOptions())
        for n in ("library_faq", "support_kb")
    ]
    assert (faq["documents"], faq["chunks"]) == (2, sum(map(len, made)))
    # and the chunks a pipeline loads are the FAQ chunker's too
    out_file = mixed.parent / "chunks.jsonl"
    argv = ("chunk", str(mixed), "--strategy", "routed", "--format", "jsonl", "-o", str(out_file))
    assert run_cli(capsys, *argv)[0] == 0
    rows = [json.loads(ln) for ln in out_file.read_text(encoding="utf-8").splitlines()]
    kb = [r for r in rows if r["config"]["document"] == "support_kb.md"]
    assert len(kb) == len(made[1])


@pytest.mark.parametrize(
    "mapping,message",
    [
        ('{"support_kb.md": "slides"}', "types are faq, api, transcript, contract, prose"),
        ('{"missing.md": "faq"}', "no document 'missing.md' in the folder"),
        ("not json", "doctypes.json: not JSON"),
        ('["faq"]', "must map document names to types"),
    ],
)
def test_a_bad_mapping_file_is_one_line(capsys, mixed, mapping, message):
    (mixed / "doctypes.json").write_text(mapping, encoding="utf-8")
    for argv in (("types", str(mixed)), ("stats", str(mixed), "--strategy", "routed")):
        code, out, err = run_cli(capsys, *argv)
        assert code == 2, (argv, out, err)
        assert message in err and len(err.strip().splitlines()) == 1


def test_check_breaks_its_figures_down_by_type(capsys, mixed):
    argv = ("check", str(mixed), "--gold", str(mixed / "gold.jsonl"), "--quiet", "--k", "1")
    code, out, _ = run_cli(capsys, *argv, "--strategy", "routed", "--json")
    data = json.loads(out)
    assert list(data["by_type"]) == ["faq", "api", "transcript", "contract", "prose"]
    assert sum(f["questions"] for f in data["by_type"].values()) == data["questions"]
    faq = data["by_type"]["faq"]
    assert faq["documents"] == 1 and faq["questions"] == 8
    # a short question and its answer is an excused runt: the gate does not fail on it
    assert data["runts"]["failing"] == []
    assert any(e["excuse"] == "a question and its answer" for e in data["runts"]["excused"])
    code, out, _ = run_cli(capsys, *argv, "--strategy", "routed", "--size", "600")
    lines = out.splitlines()
    assert lines[-1].startswith(("PASS", "FAIL"))
    assert lines[-2].startswith("by type (recall@1): ") and "weakest: " in lines[-2]


def test_stats_and_drift_by_type(capsys, mixed, tmp_path_factory):
    base = tmp_path_factory.mktemp("base") / "base.json"
    run_cli(capsys, "stats", str(mixed), "--strategy", "routed", "--save-baseline", str(base))
    code, out, _ = run_cli(capsys, "stats", str(mixed), "--strategy", "routed", "--json")
    data = json.loads(out)
    assert data["by_type"]["transcript"]["documents"] == 1
    assert sum(f["chunks"] for f in data["by_type"].values()) == data["chunks"]
    transcript = mixed / "council_transcript.md"
    short_turns = "\n\n".join(f"{who}: Agreed." for who in ("Chair", "Treasurer") * 40)
    transcript.write_text(f"# A short meeting\n\n{short_turns}\n", encoding="utf-8")
    code, out, _ = run_cli(
        capsys, "stats", str(mixed), "--strategy", "routed", "--baseline", str(base), "--json"
    )
    drift = json.loads(out)["drift"]["by_type"]
    assert drift["transcript"]["moved"] == ["council_transcript.md"]
    assert all(not f["moved"] for t, f in drift.items() if t != "transcript")
    routed = ("stats", str(mixed), "--strategy", "routed")
    code, out, _ = run_cli(capsys, *routed, "--baseline", str(base))
    assert "drift by type: faq 0 of 1 moved; api 0 of 1 moved; transcript 1 of 1 moved" in out


def test_diff_compares_routed_with_one_strategy_per_type(capsys, mixed):
    argv = (
        "diff",
        str(mixed),
        "--gold",
        str(mixed / "gold.jsonl"),
        "--a",
        "structural:chars:600:0",
        "--b",
        "routed:chars:600:0",
        "--k",
        "1",
    )
    code, out, _ = run_cli(capsys, *argv, "--format", "json")
    by_type = json.loads(out)["by_type"]
    assert by_type["chunks"]["prose"]["a"] == by_type["chunks"]["prose"]["b"]  # prose unchanged
    gold = by_type["gold"]
    assert gold["prose"]["change"] == 0 and gold["prose"]["interval"] == [0.0, 0.0]
    assert gold["all"]["questions"] == 38
    code, out, _ = run_cli(capsys, *argv)
    assert "## By document type" in out and "paired bootstrap" in out
    code, out, _ = run_cli(capsys, *argv, "--format", "html")
    assert "<h2>By document type</h2>" in out and out.rstrip().endswith("</html>")


def test_the_by_type_interval_is_the_diffs_paired_bootstrap():
    same = [1.0, 0.0, 1.0, 1.0]
    d = paired_difference(same, same)
    assert (d.difference, d.low, d.high) == (0.0, 0.0, 0.0)
    d = paired_difference([0.0] * 20, [1.0] * 10 + [0.0] * 10)
    assert d.difference == 0.5 and 0 < d.low < 0.5 < d.high <= 1
    with pytest.raises(ValueError, match="the same questions"):
        paired_difference([1.0], [1.0, 0.0])
