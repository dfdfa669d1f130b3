"""Small-to-big: children inside their parents, parents deduplicated and capped, and
the figures of the four ways of delivering context."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunkers import chunk_with
from lab.inputs.gold import GoldQuestion, load_gold
from lab.inputs.samples import list_samples
from lab.measure.diff import ConfigError, parse_config
from lab.measure.integrity import GoldRun
from lab.measure.small_to_big import (
    ARMS,
    BUDGET,
    CHILDREN,
    PARENTS,
    SmallToBig,
    SmallToBigError,
    evaluate,
    hierarchy,
    parse_tiers,
    window,
)
from tests.support import SAMPLES

PLAIN = parse_config("structural:chars:1800:150")


def _samples() -> tuple[dict[str, str], list[GoldQuestion]]:
    docs, pairs = {}, []
    for s in list_samples():
        docs[s.name] = s.path.read_text(encoding="utf-8")
        pairs += [
            GoldQuestion(g.question, g.answer, s.name) for g in load_gold(s.gold_path).questions
        ]
    return docs, pairs


@pytest.mark.parametrize(
    "spec", ["300:1800", "60:300", "fixed:words:40:0/structural:words:300:0", "120:600"]
)
def test_every_child_lies_inside_its_parent_and_is_its_text(spec: str) -> None:
    tiers = parse_tiers(spec, "words" if spec in ("60:300",) else "chars")
    for s in list_samples():
        text = s.path.read_text(encoding="utf-8")
        tree = hierarchy(text, tiers)
        assert len(tree.children) == len(tree.parent_of) >= len(tree.parents) > 0
        assert [c.index for c in tree.children] == list(range(len(tree.children)))
        for child, number in zip(tree.children, tree.parent_of, strict=True):
            parent = tree.parents[number]
            assert parent.start <= child.start < child.end <= parent.end, (s.name, child.index)
            assert child.body.endswith(text[child.start : child.end])
            # the child says where it is: its parent's headings come first
            assert child.heading_path[: len(parent.heading_path)] == parent.heading_path
        # the children of a parent cover its text: nothing of a parent is lost
        for i, p in enumerate(tree.parents):
            mine = [c for c, n in zip(tree.children, tree.parent_of, strict=True) if n == i]
            covered = sum(c.end - c.start for c in mine)
            assert covered >= len(text[p.start : p.end].strip()) * 0.95, (s.name, i)


def test_a_table_fragment_parents_children_keep_the_header() -> None:
    text = (SAMPLES / "compute_pricing.md").read_text(encoding="utf-8")
    tree = hierarchy(text, parse_tiers("150:600"))
    fragments = [i for i, p in enumerate(tree.parents) if p.header_repeated]
    assert fragments
    for i in fragments:
        header = tree.parents[i].body.split("\n", 2)[:2]
        children = [c for c, n in zip(tree.children, tree.parent_of, strict=True) if n == i]
        assert all(c.body.startswith("\n".join(header)) for c in children if "|" in c.body)


def test_siblings_resolve_to_one_parent_and_the_dedupe_is_counted() -> None:
    docs, _ = _samples()
    s2b = SmallToBig(docs, parse_tiers("200:1800"), PLAIN)
    res = s2b.resolve("how long are audit logs, backups and uploads kept?", k=5)
    assert len(res.hits) == 5 and [h.rank for h in res.hits] == [1, 2, 3, 4, 5]
    keys = [(d, c.start) for d, c in res.parents]
    assert len(keys) == len(set(keys)) == 5 - res.duplicates
    assert res.duplicates >= 1  # the platform document's children share a parent
    assert res.size_without_dedupe > res.size(PARENTS)
    assert res.size(PARENTS) == sum(len(c.body) for _, c in res.parents)
    # the plain chunks at the parents' budget never pass it
    assert 0 < res.size(BUDGET) <= res.size(PARENTS)


def test_context_is_counted_in_the_plain_configurations_unit() -> None:
    docs, _ = _samples()
    plain = parse_config("structural:words:300:0")
    res = SmallToBig(docs, parse_tiers("40:300", "words"), plain).resolve("refund window", 3)
    assert res.unit == "words"
    assert res.size(CHILDREN) == sum(len(c.body.split()) for _, c in res.children)


def test_a_parent_over_the_cap_is_sent_as_a_window_around_its_child() -> None:
    text = (SAMPLES / "release_handbook.md").read_text(encoding="utf-8")
    [parent] = chunk_with(text, "fixed", parse_config("fixed:chars:8000:0").options)
    child = chunk_with(text, "fixed", parse_config("fixed:chars:200:0").options)[20]
    w = window(text, parent, child, 900, "chars")
    assert w.start <= child.start and child.end <= w.end
    assert w.end - w.start == 900 and w.body == text[w.start : w.end] and w.length == 900
    assert window(text, parent, child, 10_000, "chars") is parent  # within the cap: whole


@pytest.mark.parametrize(
    "spec,message",
    [
        (
            "1800:300",
            "children (structural:chars:1800:0) are not smaller than their parents "
            "(structural:chars:300:0): give the children the smaller size, e.g. 75:1800",
        ),
        (
            "structural:words:50:0/structural:chars:1800:0",
            "children count words and parents chars: give both tiers the same unit",
        ),
        ("300", "small-to-big '300' must be CHILD_SIZE:PARENT_SIZE"),
        ("300:big", "config 'structural:chars:big:0': size 'big' must be a whole number"),
    ],
)
def test_tiers_that_make_no_small_to_big_are_refused_in_one_line(spec, message) -> None:
    with pytest.raises(ConfigError) as e:
        parse_tiers(spec)
    assert str(e.value).startswith(message) and "\n" not in str(e.value)
    if spec == "1800:300":
        assert isinstance(e.value, SmallToBigError)


def test_on_the_sample_gold_sets_parents_recover_what_children_cut_for_less_context() -> None:
    docs, pairs = _samples()
    r = evaluate(GoldRun(docs, pairs, k=3), parse_tiers("300:1800"), PLAIN)
    assert len(r.results) == len(pairs) and r.children > r.parents > 0
    assert r.recall(CHILDREN) < r.recall(PARENTS)  # whole answers cut by small children
    assert r.coverage(CHILDREN) < r.coverage(PARENTS)
    assert r.mean_size(PARENTS) < r.mean_size_without_dedupe  # the dedupe saves context
    assert r.mean_size(CHILDREN) < r.mean_size(PARENTS) < r.mean_size("chunks")
    assert r.duplicates == sum(q.duplicates for q in r.results) > 0
    data = r.to_json()
    assert set(data["overall"]) == set(ARMS) and len(data["questions"]) == len(pairs)


def test_a_retriever_is_a_parameter() -> None:
    """Any retriever of the lab plugs in: here the dense one (a static embedding
    shipped in its package, offline)."""
    from lab.retrieval.retrievers import get_retriever

    docs, pairs = _samples()
    tiers = parse_tiers("300:1800")
    dense = evaluate(GoldRun(docs, pairs, 1, get_retriever("dense")), tiers, PLAIN)
    usual = evaluate(GoldRun(docs, pairs, k=1), tiers, PLAIN)
    assert len(dense.results) == len(usual.results) == len(pairs)
    assert [q.arms for q in dense.results] != [q.arms for q in usual.results]


def test_a_question_names_its_document() -> None:
    docs, _ = _samples()
    pair = GoldQuestion("how long are audit logs kept?", "", "platform_data")
    gold = replace(pair, answer="Audit logs are retained for four hundred days")
    r = evaluate(GoldRun(docs, [gold], k=1), parse_tiers("300:1800"), PLAIN)
    assert r.results[0].doc == "platform_data" and r.results[0].arms[PARENTS].found
