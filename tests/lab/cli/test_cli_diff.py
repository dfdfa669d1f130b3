"""`python -m lab diff`: the report in three formats, the CI gate and every bad-input path."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support import SAMPLES, SHARED_CORPUS
from tests.support import run_cli as run

KB = str(SAMPLES / "support_kb.md")
KB_GOLD = str(SAMPLES / "support_kb.gold.jsonl")
STRUCTURAL = "structural:chars:1800:150"
FIXED = "fixed:chars:1800:150"


def test_a_worse_b_exits_1_and_says_why(capsys) -> None:
    code, out, err = run(capsys, "diff", KB, "--a", STRUCTURAL, "--b", FIXED)
    assert code == 1 and err == ""
    assert "**B is worse than A: sentence cut rate rose from 0.0% to 4.7%**" in out
    assert "| sentence cut | 0 of 43 (0.0%) | 2 of 43 (4.7%) | ✗ worse |" in out


def test_a_better_or_equal_b_exits_0(capsys) -> None:
    code, out, _ = run(capsys, "diff", KB, "--a", FIXED, "--b", STRUCTURAL)
    assert code == 0 and "**B is not worse than A on any atomic element**" in out
    code, _, _ = run(capsys, "diff", KB, "--a", STRUCTURAL, "--b", STRUCTURAL)
    assert code == 0


def test_json_for_machines(capsys) -> None:
    code, out, _ = run(capsys, "diff", KB, "--a", STRUCTURAL, "--b", FIXED, "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["worse"] is True
    assert data["documents"] == [
        {"doc": "support_kb.md", "a": data["a"]["sizes"]["count"], "b": data["b"]["sizes"]["count"]}
    ]
    assert data["b"]["violations"]["sentence cut"] == {
        "violations": 2,
        "out_of": 43,
        "rate": 2 / 43,
        "whole_in_no_chunk": 0,  # the 150 characters of overlap hold both cut sentences
    }
    assert len(data["changed"]) == min(20, data["pairs"])


def _over(config: str, limit: int) -> tuple[int, int]:
    """(chunks over ``limit``, chunks) for the sample, counted here from the chunks'
    indexed text in the configuration's unit, apart from the diff."""
    from chunkers import ChunkOptions, chunk_with, indexed_text
    from chunkers.text import count_units

    strategy, unit, size, overlap = config.split(":")
    opts = ChunkOptions(size=int(size), overlap=int(overlap), unit=unit)
    chunks = chunk_with(Path(KB).read_text(encoding="utf-8"), strategy, opts)
    lengths = [count_units(indexed_text(c), unit, opts.tokenizer) for c in chunks]
    return sum(n > limit for n in lengths), len(lengths)


def test_the_embedder_limit_counts_each_sides_chunks_over_it(capsys) -> None:
    limit = 1500  # structural's chunks stay within it; fixed windows of 1800 pass it
    (a, a_of), (b, b_of) = _over(STRUCTURAL, limit), _over(FIXED, limit)
    assert a == 0 and b > 0
    argv = ["diff", KB, "--a", STRUCTURAL, "--b", FIXED, "--embedder-limit", str(limit)]
    code, out, _ = run(capsys, *argv, "--format", "json")
    assert code == 1  # the sentence cut, as without the option
    assert json.loads(out)["embedder_limit"] == {
        "limit": limit,
        "a": a,
        "b": b,
        "a_of": a_of,
        "b_of": b_of,
    }
    _, out, _ = run(capsys, *argv)
    # -- a row of the size table, which judges no row
    assert f"| over the embedder's limit ({limit:,}) | {a} of {a_of} | {b} of {b_of} |\n" in out
    _, out, _ = run(capsys, *argv, "--format", "html")
    assert "<td>over the embedder&#x27;s limit (1,500)</td>" in out
    _, out, _ = run(capsys, "diff", KB, "--a", STRUCTURAL, "--b", FIXED, "--format", "json")
    assert "embedder_limit" not in json.loads(out)  # without the option, nothing changes


def test_html_for_people(capsys) -> None:
    code, out, _ = run(capsys, "diff", KB, "--a", STRUCTURAL, "--b", FIXED, "--format", "html")
    assert code == 1 and out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    assert "<h2>Atomic-element violations</h2>" in out


def test_gold_gates_on_intact_share(capsys) -> None:
    argv = ["diff", KB, "--a", "structural:chars:600:100", "--b", "fixed:words:50:0"]
    code, out, _ = run(capsys, *argv, "--gold", KB_GOLD, "--format", "json")
    data = json.loads(out)
    assert code == 1
    assert (data["a"]["gold"]["intact"], data["b"]["gold"]["intact"]) == (8, 3)
    assert data["regressions"][0] == "intact share fell from 100.0% to 37.5% (8 to 3 of 8 answers)"
    code, out, _ = run(capsys, *argv, "--gold", KB_GOLD, "--k", "3")
    assert (
        "## Gold set (ranks within k=3, by bm25 (lucene))" in out
        and "| intact share | 8 of 8" in out
    )


def test_a_folder_with_a_multi_document_gold_file_skips_other_documents(
    tmp_path: Path, capsys
) -> None:
    for name in ("support_kb.md", "platform_data.md"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    lines = [json.loads(x) for x in Path(KB_GOLD).read_text().splitlines() if x.strip()]
    gold = tmp_path / "gold.jsonl"
    rows = [{**x, "doc": "support_kb.md"} for x in lines[:3]]
    rows.append({"question": "elsewhere?", "answer": "x", "doc": "other.md"})
    gold.write_text("\n".join(json.dumps(r) for r in rows))
    code, out, err = run(
        capsys, "diff", str(tmp_path), "--a", STRUCTURAL, "--b", STRUCTURAL,
        "--gold", str(gold), "--format", "json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["a"]["gold"]["questions"] == 3
    assert err == f"{gold}: 1 line(s) name other documents; skipped\n"
    assert sorted(d["doc"] for d in data["documents"]) == ["platform_data.md", "support_kb.md"]


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--a", "structural:chars:1800"], "config 'structural:chars:1800' must be STRATEGY:UNIT"),
        (["--a", "magic:chars:1800:150"], "strategy 'magic' is not one of structural"),
        (["--b", "fixed:pages:1800:150"], "unit 'pages' is not one of words, chars"),
        (["--b", "fixed:chars:lots:150"], "size 'lots' must be a whole number"),
        (["--b", "fixed:chars:100:100"], "overlap '100' must be a whole number from 0 to 99"),
        (["--k", "0"], "--k must be a whole number of at least 1, got 0"),
        (["--limit", "-1"], "--limit must be a whole number of at least 0, got -1"),
        (["--embedder-limit", "0"], "--embedder-limit must be a whole number of at least 1, got 0"),
        (["--format", "pdf"], "invalid choice: 'pdf'"),
        (["--gold", "missing.jsonl"], "gold file missing.jsonl was not found"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv: list[str], needle: str) -> None:
    base = {"--a": STRUCTURAL, "--b": FIXED}
    for flag, value in zip(argv[::2], argv[1::2], strict=True):
        base[flag] = value
    args = [x for kv in base.items() for x in kv]
    code, out, err = run(capsys, "diff", KB, *args)
    assert code == 2 and out == ""
    assert needle in err and err.count("\n") == 1, err


def test_a_missing_config_is_bad_input(capsys) -> None:
    code, _, err = run(capsys, "diff", KB, "--a", STRUCTURAL)
    assert code == 2 and "the following arguments are required: --b" in err


def test_a_missing_document_is_bad_input(tmp_path: Path, capsys) -> None:
    code, out, err = run(capsys, "diff", str(tmp_path / "nope.md"), "--a", FIXED, "--b", FIXED)
    assert code == 2 and out == "" and err.count("\n") == 1 and "nope.md" in err


@pytest.mark.parametrize(
    "lines,needle",
    [
        (['{"question": "q words"}'], 'line 1: missing "answer"'),
        (['{"question": "q words", "answer": "not in the document"}'], "is not in"),
        (['{"question": "q", "answer": "a", "doc": "elsewhere.md"}'], "name other documents"),
    ],
)
def test_bad_gold_is_one_line(tmp_path: Path, capsys, lines: list[str], needle: str) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join(lines))
    code, out, err = run(capsys, "diff", KB, "--a", FIXED, "--b", FIXED, "--gold", str(gold))
    assert code == 2 and out == "" and needle in err and err.count("\n") == 1, err


def test_a_folder_needs_doc_on_every_gold_line(tmp_path: Path, capsys) -> None:
    shutil.copy(SAMPLES / "support_kb.md", tmp_path / "support_kb.md")
    code, _, err = run(capsys, "diff", str(tmp_path), "--a", FIXED, "--b", FIXED, "--gold", KB_GOLD)
    assert code == 2 and 'a folder needs a "doc" on every gold line' in err


@pytest.mark.shared_corpus
def test_structure_against_fixed_windows_over_the_shared_corpus(capsys) -> None:
    code, out, _ = run(
        capsys, "diff", str(SHARED_CORPUS), "--a", STRUCTURAL, "--b", FIXED, "--format", "json"
    )
    data = json.loads(out)
    assert code == 1 and len(data["changed"]) == 20
    assert len(data["documents"]) >= 300
    for kind in ("table without header", "code split", "heading stranded", "sentence cut"):
        assert data["b"]["violations"][kind]["rate"] > data["a"]["violations"][kind]["rate"]
    # the chunk-quality report's checks are among the rates: the same checks, summed
    assert {"lead-in stranded", "over the size limit", "only markup"} <= set(
        data["a"]["violations"]
    )
    assert data["b"]["violations"]["lead-in stranded"]["violations"] > 0
    assert data["a"]["violations"]["table without header"]["violations"] == 0


FOLDER_DOCS = {
    "alpha.md": "# Alpha\n\nThe alpha service restarts every night at two.\n\n"
    "## Limits\n\nAlpha accepts at most forty requests a second per key.\n",
    "beta.md": "# Beta\n\nBeta stores invoices for seven years.\n\n"
    "```python\nprint('beta')\nprint('done')\n```\n",
    "gamma.md": "# Gamma\n\nGamma has no limits worth naming.\n\nIt runs on two machines.\n",
}


def test_a_folder_compares_with_a_langchain_dump_of_all_its_documents(
    tmp_path: Path, capsys
) -> None:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    folder = tmp_path / "docs"
    folder.mkdir()
    splitter = RecursiveCharacterTextSplitter(chunk_size=60, chunk_overlap=0)
    rows = []
    for name, text in FOLDER_DOCS.items():
        (folder / name).write_text(text)
        for i, piece in enumerate(splitter.split_text(text)):
            rows.append({"page_content": piece, "metadata": {"source": name, "chunk": i}})
    dump = tmp_path / "langchain.jsonl"
    dump.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    gold = tmp_path / "gold.jsonl"  # names only alpha.md: the others are measured, not judged
    gold.write_text(
        json.dumps(
            {
                "question": "How many requests?",
                "answer": "forty requests a second",
                "doc": "alpha.md",
            }
        )
        + "\n"
    )
    argv = ["diff", str(folder), "--a", "structural:chars:200:0", "--b", f"chunks:{dump}"]
    code, out, err = run(capsys, *argv, "--gold", str(gold), "--format", "json")
    data = json.loads(out)
    # -- the splitter leaves a heading alone at a chunk's end: B is worse, exit 1
    assert code == 1 and err == ""
    assert data["regressions"] == ["heading stranded rate rose from 0.0% to 25.0%"]
    per_doc = {d["doc"]: d["b"] for d in data["documents"]}
    assert per_doc == {name: len(splitter.split_text(text)) for name, text in FOLDER_DOCS.items()}
    assert data["b"]["sizes"]["count"] == len(rows)
    assert data["a"]["gold"]["questions"] == data["b"]["gold"]["questions"] == 1
    assert data["b"]["violations"]["code split"]["out_of"] == 1  # beta's, measured
    code, out, _ = run(capsys, *argv, "--gold", str(gold))
    assert "| beta.md |" in out and "| gamma.md |" in out


API = str(SAMPLES / "api_reference.md")
API_GOLD = str(SAMPLES / "api_reference.gold.jsonl")
# -- small structural chunks keep sentences whole; big fixed windows rank answers higher
WHOLE, RANKS = "structural:chars:300:0", "fixed:chars:1500:300"


def test_the_report_opens_with_what_to_change_when_wholeness_and_ranking_disagree(
    capsys,
) -> None:
    argv = ["diff", API, "--a", WHOLE, "--b", RANKS, "--gold", API_GOLD]
    code, out, _ = run(capsys, *argv, "--format", "json")
    said = json.loads(out)["advice"]
    code, out, _ = run(capsys, *argv)
    assert code == 1
    head = out.split("\n")
    assert head[4:6] == ["## What should I change?", ""]
    assert head[6] == said
    assert said == (
        "Figures read A vs B. Tie on intact answers (8 vs 8 of 8); A keeps more elements "
        "whole (atomic-element violations 2 of 160 vs 6 of 96; sentence cut 0 vs 5 of 64 "
        "(whole in no chunk 0 vs 0)). "
        "By bm25 (lucene), the 8 questions cannot tell A and B apart: MRR 0.734 vs 0.875 "
        "(B − A +0.141, 95 % interval -0.125 to +0.406), recall@10 1.000 vs 1.000; "
        "about 21 more questions would, were the difference to hold. "
        "A makes 39 chunks, mean 214.1 chars, 2,177 chars of context a question@10; "
        "B makes 7 chunks, mean 1,203 chars, 10,221 chars of context a question@10. "
        "Next: take A: B wins on neither wholeness nor ranking. "
        # -- B's top k sends 4.7 times A's text: at A's cost, A covers more
        "At k=10 B sends 4.7x A's context, so it leans on the comparison at equal cost "
        "(2,177 chars a question): coverage 1.000 vs 0.875, recall 1.000 vs 0.875."
    )


def test_each_rank_difference_has_a_reproducible_paired_interval(capsys) -> None:
    argv = ["diff", API, "--a", WHOLE, "--b", RANKS, "--gold", API_GOLD, "--format", "json"]
    _, out, _ = run(capsys, *argv)
    first = json.loads(out)["rank_differences"]
    assert [d["figure"] for d in first] == ["MRR", "recall@1", "recall@3", "recall@5", "recall@10"]
    for d in first:
        low, high = d["interval"]
        assert low <= d["difference"] <= high and d["difference"] == pytest.approx(d["b"] - d["a"])
        assert d["spans_zero"] == (low <= 0 <= high)
    _, out, _ = run(capsys, *argv)
    assert json.loads(out)["rank_differences"] == first  # seeded: the same every run


def test_a_tie_is_called_a_tie(capsys) -> None:
    code, out, _ = run(capsys, "diff", KB, "--a", FIXED, "--b", FIXED, "--gold", KB_GOLD)
    said = out.split("\n")[6]
    assert "Tie on ranking by bm25 (lucene): MRR " in said
    assert "keeps answers whole" not in said


def test_the_advice_weighs_the_embedders_limit(capsys) -> None:
    # -- big fixed windows pass a 300-character limit; small structural chunks do not
    argv = ["diff", API, "--a", RANKS, "--b", WHOLE, "--gold", API_GOLD]
    code, out, _ = run(capsys, *argv, "--embedder-limit", "300")
    said = out.split("\n")[6]
    assert "Over the embedder's limit (300): A 7 of 7, B " in said
    assert "text the index never sees" in said
    assert "Next: take B" in said


def test_without_gold_the_advice_says_what_it_cannot_judge(capsys) -> None:
    code, out, _ = run(capsys, "diff", API, "--a", WHOLE, "--b", RANKS, "--format", "html")
    assert "<h2>What should I change?</h2>" in out
    assert (
        "With no gold set (--gold) it cannot judge which ranks answers higher "
        "(MRR, recall@k) nor how many answers stay intact." in out
    )
    assert "Next: prefer A on structure, and rerun with --gold" in out


@pytest.mark.parametrize(
    "a,b,next_step",
    [
        (
            STRUCTURAL,
            "fixed:chars:600:100",
            "Next: take A: B wins on neither wholeness nor ranking.",
        ),
        (FIXED, FIXED, "Next: they are even on what this diff measures, at the same count"),
    ],
)
def test_the_advice_when_the_figures_agree(capsys, a: str, b: str, next_step: str) -> None:
    code, out, _ = run(capsys, "diff", KB, "--a", a, "--b", b, "--gold", KB_GOLD)
    assert next_step in out.split("\n")[6]


def test_a_folder_dump_naming_a_document_not_in_the_folder_is_one_line(
    tmp_path: Path, capsys
) -> None:
    for name, text in FOLDER_DOCS.items():
        (tmp_path / name).write_text(text)
    dump = tmp_path.parent / f"{tmp_path.name}.jsonl"
    row = {"page_content": "Delta text.", "metadata": {"source": "delta.md"}}
    dump.write_text(json.dumps(row) + "\n")
    code, out, err = run(capsys, "diff", str(tmp_path), "--a", STRUCTURAL, "--b", f"chunks:{dump}")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "its document 'delta.md' is none of the 3 in this folder" in err


def test_cut_at_a_boundary_and_whole_in_no_chunk_are_apart_in_the_diff(capsys) -> None:
    # 20 words of overlap repair most of the sentences 50-word windows cut
    argv = ["diff", KB, "--a", "fixed:words:50:0", "--b", "fixed:words:50:20"]
    code, out, _ = run(capsys, *argv, "--format", "json")
    data = json.loads(out)
    a, b = data["a"]["violations"]["sentence cut"], data["b"]["violations"]["sentence cut"]
    assert a["whole_in_no_chunk"] == a["violations"] == 17  # no overlap: every cut is lost
    assert b["violations"] == 26 and b["whole_in_no_chunk"] == 5
    code, out, _ = run(capsys, *argv)
    assert "| sentence cut | 17 of 43 (39.5%) | 26 of 43 (60.5%) | ✗ worse |" in out
    assert (
        "| sentence cut: whole in no chunk | 17 of 43 (39.5%) | 5 of 43 (11.6%) | ✓ better |" in out
    )
