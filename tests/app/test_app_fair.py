"""Lab 6's budget: the line the app shows is the command line's, number for number; the
lesson over sizes at k and at a budget; a budget below one chunk in one line."""

from __future__ import annotations

import json

from lab.report.fair_render import budget_line
from tests.app.app_harness import APP, all_text, open_lab, rerun
from tests.support import run_cli

KB = str(APP.parent / "sample_docs" / "support_kb.md")
KB_GOLD = str(APP.parent / "sample_docs" / "support_kb.gold.jsonl")
# the integrity lab's preset link: support_kb, fixed 50 words, no overlap
PRESET = dict(doc="support_kb", strategy="fixed", unit="words", size="50", overlap="0")


def _cli_budget(capsys, budget: int) -> dict:
    code, out, _ = run_cli(capsys, "check", KB, "--gold", KB_GOLD, "--strategy", "fixed",
                           "--unit", "words", "--size", "50", "--overlap", "0", "--k", "10",
                           "--budget", str(budget), "--json", "--quiet")  # fmt: skip
    assert code in (0, 1)
    return json.loads(out)["budget"]


def test_the_budget_line_is_the_command_lines(capsys):
    at = open_lab("integrity", **PRESET)
    at.number_input(key="lab6_budget").set_value(120)
    rerun(at)
    expected = budget_line(_cli_budget(capsys, 120), 10)
    assert f"**{expected}**" in [m.value for m in at.markdown]
    assert "chunks fit on average" in expected


def test_a_budget_below_one_chunk_says_what_the_first_needs():
    at = open_lab("integrity", **PRESET)
    at.number_input(key="lab6_budget").set_value(5)
    rerun(at)
    (error,) = [e.value for e in at.error if "budget" in e.value]
    assert "holds no whole chunk" in error and "needs" in error and "\n" not in error


def test_the_lesson_sets_sizes_at_k_beside_sizes_at_a_budget():
    at = open_lab("integrity", **PRESET)
    heads = [h.value for h in at.subheader]
    assert "Bigger chunks win at top 1; at 400 tokens they do not" in heads
    (table,) = [t.value for t in at.table if "chunks that fit" in t.value.columns]
    assert table["size (tokens)"].astype(int).tolist() == [100, 200, 400, 800]
    fit = table["chunks that fit"].astype(float).tolist()
    assert fit == sorted(fit, reverse=True)  # the same budget holds fewer big chunks
    # the crossover: at the top 1 the biggest chunks cover most, at the budget the least
    at_k = table["coverage@1"].astype(float).tolist()
    at_budget = table["coverage@400"].astype(float).tolist()
    assert at_k[-1] == max(at_k) and at_budget[-1] == min(at_budget) < max(at_budget)
    assert "choose a size at the budget your prompt has" in all_text(at)


def test_lab8_compares_both_sides_at_the_budget_as_the_diff_does(capsys):
    from tests.app.app_harness import PRICING, set_widget

    at = open_lab("compare", **PRICING)
    set_widget(at, "selectbox", "lab8_strategy", "structural")
    set_widget(at, "number_input", "lab8_size", 300)
    set_widget(at, "number_input", "lab8_budget", 400)
    heads = [h.value for h in at.subheader]
    assert "At equal cost (400 chars a question: the budget given)" in heads
    mine = {"chunks", "coverage", "recall", "IoU"}
    (table,) = [d.value for d in at.dataframe if mine <= set(d.value.iloc[:, 0].tolist())]
    doc = str(APP.parent / "sample_docs" / "compute_pricing.md")
    gold = str(APP.parent / "sample_docs" / "compute_pricing.gold.jsonl")
    code, out, _ = run_cli(capsys, "diff", doc, "--a", "structural:chars:600:100",
                           "--b", "structural:chars:300:100", "--gold", gold,
                           "--budget", "400", "--format", "json")  # fmt: skip
    e = json.loads(out)["equal_cost"]
    assert e["tokens"] == 400
    rows = {r["figure"]: (r["A"], r["B"]) for r in table.to_dict("records")}
    assert rows["coverage"] == (f"{e['a'][0]['coverage']:.3f}", f"{e['b'][0]['coverage']:.3f}")
    assert rows["chunks"] == (f"{e['a'][0]['chunks']:.3f}", f"{e['b'][0]['chunks']:.3f}")


def test_lab5_context_failures_are_the_command_lines(capsys, tmp_path):
    at = open_lab("tables", doc="compute_pricing", strategy="structural", unit="words",
                  size="20", overlap="0")  # fmt: skip
    assert "What context in the index buys: top-20 failures" in [h.value for h in at.subheader]
    (table,) = [t.value for t in at.table if "top-20 failures" in t.value.columns
                and "judge" in t.value.columns]  # fmt: skip
    # (the table's cells are Markdown: "41\\.9%" reads 41.9%)
    shown = {
        (r["indexed with the chunk"].replace("\\", ""), r["judge"]): {
            k: str(v).replace("\\", "") for k, v in r.items()
        }
        for r in table.to_dict("records")
    }
    # the command line over the same documents and gold sets
    samples = APP.parent / "sample_docs"
    gold = tmp_path / "samples.gold.jsonl"
    lines = []
    for g in sorted(samples.glob("*.gold.jsonl")):
        doc = g.name.replace(".gold.jsonl", ".md")
        for raw in g.read_text(encoding="utf-8").splitlines():
            if raw.strip():
                lines.append(json.dumps({**json.loads(raw), "doc": doc}))
    gold.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for mode in ("path", "title+path"):
        code, out, _ = run_cli(capsys, "check", str(samples), "--gold", str(gold),
                               "--strategy", "structural", "--unit", "words", "--size", "20",
                               "--overlap", "0", "--context", mode, "--retriever", "bm25,dense",
                               "--json", "--quiet")  # fmt: skip
        for row in json.loads(out)["context"]["retrievers"]:
            judge = row["retriever"]
            assert shown[(mode, judge)]["top-20 failures"] == f"{row['failure_at_20']:.1%}"
            assert shown[("none", judge)]["top-20 failures"] == f"{row['failure_at_20_none']:.1%}"
            change = row["relative_change"]
            assert shown[(mode, judge)]["change against none"] == (
                "" if change is None else f"{change:+.0%}"
            )
    assert "Anthropic's contextual retrieval" in all_text(at)


def test_lab6_indexes_the_title_and_says_once_which_title_it_used():
    from tests.app.app_harness import set_widget, upload

    at = open_lab("integrity")
    doc = "## Counts\n\nStock is counted every Friday by the depot team.\n"
    upload(at, "depot_notes.md", doc)
    gold = json.dumps({"question": "when is stock counted", "answer": "every Friday"}) + "\n"
    at.file_uploader(key="lab6_gold").upload("g.jsonl", gold.encode(), "application/json")
    rerun(at)
    assert not [c for c in at.caption if "has no title" in c.value]  # heading paths only
    set_widget(at, "selectbox", "lab6_context", "title+path")
    notes = [c.value for c in at.caption if "has no title" in c.value]
    assert len(notes) == 1 and "'depot_notes'" in notes[0]
