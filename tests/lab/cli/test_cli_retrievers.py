"""`--retriever`, `--bm25` and `--embedder` on check, score and diff: each judge's figures,
"chunk does not exist" once, your own embedder by name, and one line for a bad one.
Every test here runs with the network blocked."""

from __future__ import annotations

import json

import pytest

from chunkers import chunk_with, indexed_text
from chunkers.options import ChunkOptions
from lab.measure.survival import holds
from lab.retrieval.dense import DenseRetriever
from lab.retrieval.embedders import load_embedder
from tests.support import ROOT, SAMPLES
from tests.support import run_cli as run

pytestmark = pytest.mark.usefixtures("no_network")

API = str(SAMPLES / "api_reference.md")
API_GOLD = str(SAMPLES / "api_reference.gold.jsonl")
# fixed windows of 60 words cut one answer and leave others ranking below 1
WINDOWS = ["--strategy", "fixed", "--unit", "words", "--size", "60", "--overlap", "10", "--k", "1"]
ALL = "bm25,dense,hybrid"
TOY = "tests.retrieval.toy_embedder:embed"
HANDBOOK = str(ROOT / "tests" / "data" / "staff_handbook.txt")
VACATION = "how many days of paid vacation do new employees get"


def _check(capsys, *extra: str) -> dict:
    code, out, err = run(capsys, "check", API, "--gold", API_GOLD, *WINDOWS, *extra, "--json")
    assert err == "", err
    return json.loads(out)


def test_check_reports_each_retriever_and_one_missing_figure(capsys) -> None:
    data = _check(capsys, "--retriever", ALL)
    labels = [r["retriever"] for r in data["retrievers"]]
    assert labels == ["bm25 (lucene)", "dense (wordllama)", "hybrid (lucene + wordllama, k=60)"]
    # the chunk does not exist whoever ranks: one figure, and the same pair for every judge
    assert data["chunk_does_not_exist"] == 1
    [missing] = [p for p in data["pairs"] if p["status"] == "chunk does not exist"]
    assert {j["status"] for j in missing["by_retriever"].values()} == {"chunk does not exist"}
    assert {j["rank"] for j in missing["by_retriever"].values()} == {None}
    # ranking below k is each retriever's own
    poorly = {r["retriever"]: r["chunk_ranks_poorly"] for r in data["retrievers"]}
    assert poorly == dict(zip(labels, [3, 4, 3], strict=True))
    for r in data["retrievers"]:
        ranks = [p["by_retriever"][r["retriever"]]["rank"] for p in data["pairs"]]
        assert r["recall"]["1"] == sum(rank == 1 for rank in ranks) / len(ranks)
        assert r["mrr"] == pytest.approx(sum(1 / x for x in ranks if x) / len(ranks))
    # the top level stays the first retriever's, as a one-retriever report says
    assert data["retriever"] == labels[0] and data["mrr"] == data["retrievers"][0]["mrr"]


def test_each_retriever_alone_says_what_it_said_among_the_others(capsys) -> None:
    together = _check(capsys, "--retriever", ALL)["retrievers"]
    alone = [_check(capsys, "--retriever", name)["retrievers"] for name in ALL.split(",")]
    assert [a[0] for a in alone] == together


def test_check_as_text_names_each_judge(capsys) -> None:
    code, out, _ = run(capsys, "check", API, "--gold", API_GOLD, *WINDOWS, "--retriever", ALL)
    assert code == 1  # the cut answer fails the gate, whoever ranks
    assert "ranked by bm25 (lucene), dense (wordllama), hybrid (lucene + wordllama, k=60)" in out
    assert "rank: bm25  rank: dense  rank: hybrid  status" in out
    assert (
        "chunk does not exist: 1   chunk exists but ranks below 1: bm25 (lucene) 3, "
        "dense (wordllama) 4, hybrid (lucene + wordllama, k=60) 3"
    ) in out
    assert "ranks poorly: dense" in out  # a pair only the dense judge ranks below 1
    code, out, _ = run(
        capsys, "check", API, "--gold", API_GOLD, *WINDOWS, "--retriever", ALL, "--format",
        "markdown",
    )  # fmt: skip
    assert "| recall, dense (wordllama) |" in out and "MRR 0.542 (dense (wordllama))" in out


def test_a_threshold_holds_for_every_retriever(capsys) -> None:
    argv = ["check", API, "--gold", API_GOLD, *WINDOWS, "--min-recall", "0.45"]
    code, out, _ = run(capsys, *argv, "--retriever", "bm25,dense")
    assert "BELOW THRESHOLD: recall@1 0.375 < 0.45 (dense (wordllama))" in out
    assert "(bm25 (lucene))" not in out.split("BELOW THRESHOLD")[-1]  # bm25's 0.5 is above


def test_the_bm25_variant_is_chosen_and_named(capsys) -> None:
    for variant in ("okapi", "lucene", "fts5"):
        data = _check(capsys, "--bm25", variant)
        assert data["retriever"] == f"bm25 ({variant})"
        assert data["chunk_does_not_exist"] == 1


def test_your_own_embedder_judges_as_the_library_does(capsys) -> None:
    data = _check(capsys, "--retriever", "dense", "--embedder", TOY)
    assert data["retriever"] == f"dense ({TOY})"
    # the rank of each answer's best chunk, worked out here with the library's own judge
    text = open(API, encoding="utf-8").read()
    chunks = chunk_with(text, "fixed", ChunkOptions(size=60, overlap=10, unit="words"))
    judge = DenseRetriever(load_embedder(TOY))
    texts = [indexed_text(c) for c in chunks]
    for pair in data["pairs"]:
        holders = [i for i, c in enumerate(chunks) if holds(c, pair["answer"])]
        ranks = judge.score(texts, pair["question"]).ranks
        want = min((ranks[i] for i in holders), default=None)
        assert pair["rank"] == want, pair["question"]


@pytest.mark.parametrize(
    "spec,needle",
    [
        ("no_such_package.models:embed", "no module named 'no_such_package'"),
        ("tests.retrieval.broken_embedder:embed", "importing 'tests.retrieval.broken_embedder'"),
        ("tests.retrieval.toy_embedder:NOT_CALLABLE", "is a int, not a function"),
        ("tests.retrieval.toy_embedder:missing", "has no 'missing'"),
        ("tests.retrieval.toy_embedder:flat", "returned shape"),
        ("tests.retrieval.toy_embedder:raises", "failed: RuntimeError: model server not reachable"),
        ("just-a-word", "neither 'wordllama' nor 'package.module:function'"),
    ],
)
@pytest.mark.parametrize("command", ["check", "score"])
def test_a_bad_embedder_is_one_line_and_exit_2(capsys, command: str, spec: str, needle: str):
    where = ["--gold", API_GOLD] if command == "check" else ["--query", "rate limits"]
    code, out, err = run(capsys, command, API, *where, "--retriever", "dense", "--embedder", spec)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "extra,needle",
    [
        (["--retriever", "bm25,sparse"], "unknown retriever 'sparse': choose from bm25, dense"),
        (["--retriever", " , "], "name at least one retriever"),
        (["--embedder", TOY], "--embedder is for the dense and hybrid retrievers"),
        (["--retriever", "dense", "--bm25", "okapi"], "--bm25 is for the bm25 and hybrid"),
        (["--bm25", "bm42"], "invalid choice: 'bm42'"),
    ],
)
def test_bad_retrieval_options_are_one_line(capsys, extra: list[str], needle: str) -> None:
    code, out, err = run(capsys, "check", API, "--gold", API_GOLD, *extra)
    assert code == 2 and out == "" and needle in err and len(err.strip().splitlines()) == 1, err


def test_score_by_default_ranks_the_handbooks_answer_first_never_below_zero(capsys) -> None:
    code, out, _ = run(capsys, "score", HANDBOOK, "--query", VACATION, "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 2
    assert rows[0]["index"] == 1 and "15 days of paid vacation" in rows[0]["body"]
    assert all(r["score"] >= 0 for r in rows)
    # okapi, as rank-bm25 scores: every shared word's IDF is negative, the answer last
    code, out, _ = run(capsys, "score", HANDBOOK, "--query", VACATION, "--bm25", "okapi", "--json")
    okapi = json.loads(out)
    assert [r["index"] for r in okapi] == [0, 1] and all(r["score"] < 0 for r in okapi)


def test_score_side_by_side(capsys) -> None:
    code, out, _ = run(capsys, "score", HANDBOOK, "--query", VACATION, "--retriever", ALL)
    assert code == 0
    assert "rank: bm25  score: bm25  rank: dense  score: dense  rank: hybrid" in out
    code, out, _ = run(
        capsys, "score", HANDBOOK, "--query", VACATION, "--retriever", "dense,bm25", "--json"
    )
    rows = json.loads(out)
    assert list(rows[0]["by_retriever"]) == ["dense (wordllama)", "bm25 (lucene)"]
    assert [r["rank"] for r in rows] == [1, 2]  # sorted by the first one named: dense
    assert rows[0]["score"] == rows[0]["by_retriever"]["dense (wordllama)"]["score"]
    assert -1 <= rows[0]["score"] <= 1  # a cosine


def test_diff_compares_gold_metrics_per_retriever(capsys) -> None:
    argv = ["diff", API, "--a", "structural:chars:1800:150", "--b", "fixed:words:60:10"]
    argv += ["--gold", API_GOLD, "--k", "1", "--retriever", "bm25,dense"]
    code, out, _ = run(capsys, *argv, "--format", "json")
    data = json.loads(out)
    by = [g["retriever"] for g in data["b"]["gold_by_retriever"]]
    assert by == ["bm25 (lucene)", "dense (wordllama)"]
    assert data["b"]["gold"] == data["b"]["gold_by_retriever"][0]
    dense = data["b"]["gold_by_retriever"][1]
    assert (dense["recall"]["1"], dense["intact"]) == (0.375, 7)
    code, out, _ = run(capsys, *argv)
    assert "## Gold set (ranks within k=1, by bm25 (lucene), dense (wordllama))" in out
    assert out.count("| intact share |") == 1  # no retriever changes it
    assert "| recall@1 (dense (wordllama)) | " in out and "| MRR (bm25 (lucene)) |" in out
