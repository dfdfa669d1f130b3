"""The gate's one decider: which rule fails, in what words, and what is only warned about."""

from __future__ import annotations

from chunkers import ChunkOptions, chunk_with
from lab.measure.stats import runt_invariant
from lab.measure.verdict import gate_verdict, runts_fail


def test_a_clean_run_passes():
    v = gate_verdict(missing=0, strategy="structural")
    assert v.passed and v.line == "PASS" and v.failed == v.warnings == ()


def test_runts_fail_only_a_strategy_that_promises_a_floor_unless_a_maximum_is_given():
    assert runts_fail("structural", None) == 0
    assert runts_fail("fixed", None) is None and runts_fail("chunks:f.jsonl", None) is None
    assert runts_fail("fixed", 3) == 3
    warned = gate_verdict(missing=0, strategy="sentence", runts=2)
    assert warned.passed and warned.warnings == (
        "2 runts with no excuse (reported, not failed: sentence promises no floor)",
    )
    failed = gate_verdict(missing=0, strategy="structural", runts=1)
    assert failed.line == "FAIL: 1 runt with no excuse (structural promises a floor)"
    assert gate_verdict(missing=0, strategy="fixed", runts=2, max_runts=2).passed
    over = gate_verdict(missing=0, strategy="fixed", runts=3, max_runts=2)
    assert over.failed == ("3 runts with no excuse (more than --max-runts 2)",)


def test_every_failed_rule_is_named_in_order():
    v = gate_verdict(
        missing=2, strategy="structural", runts=1, below=["recall@5 0.600 < 0.8"], stripped=1
    )
    assert v.line == (
        "FAIL: 2 answers in no chunk (chunk does not exist); 1 runt with no excuse "
        "(structural promises a floor); below threshold: recall@5 0.600 < 0.8; "
        "1 gold passage in text stripped as boilerplate"
    )


def test_routed_keeps_the_structural_floor_while_its_excused_runts_pass():
    # -- a short FAQ pair is a runt its chunker excuses by name: routed still passes
    faq = "# FAQ\n\n" + "".join(
        f"## How do I do thing {n}?\n\n"
        + ("You open the settings page and press the button. " * (9 if n else 1))
        + "\n\n"
        for n in range(4)
    )
    opts = ChunkOptions(size=400, overlap=0)
    chunks = chunk_with(faq, "routed", opts)
    runts = [c for c in chunks if c.length < opts.floor]
    assert runts and all(c.runt_excuse for c in runts)
    unexcused = len(runt_invariant({"faq.md": chunks}, opts)["failing"])
    assert unexcused == 0
    assert gate_verdict(missing=0, strategy="routed", runts=unexcused).passed
    # -- an unexcused runt fails routed as it fails structural
    assert runts_fail("routed", None) == 0
    assert not gate_verdict(missing=0, strategy="routed", runts=1).passed
