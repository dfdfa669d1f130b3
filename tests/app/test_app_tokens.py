"""The app in tokens and over chunks made elsewhere, as a user reads it: the unit and
the tokenizer in the sidebar and the link, sizes and bills in tokens, the lottery
read in tokens, "Your chunks" as a strategy in every lab, the peers beside the
lab's own, and the settings copied as code."""

from __future__ import annotations

import json

import pytest

from chunkers import chunk
from tests.app.app_harness import (
    captions,
    chunk_count,
    click,
    open_app,
    rerun,
    set_widget,
    texts,
    verdicts,
)
from tests.support import SAMPLES, block_network, reference_encoding

KB = (SAMPLES / "support_kb.md").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    block_network(monkeypatch, "the app's token tests")


def in_tokens(**params: str):
    return open_app(unit="tokens", **params)


def code_blocks(at) -> list[str]:
    return [c.value for c in at.get("code")]


# -- the unit and the tokenizer ---------------------------------------------------------


def test_choosing_tokens_starts_at_512_with_50_overlap_counted_by_cl100k_base():
    at = open_app(doc="support_kb")
    at = set_widget(at, "radio", "unit", "tokens")
    assert (at.slider(key="size").value, at.slider(key="overlap").value) == (512, 50)
    assert at.slider(key="size").label == "Chunk size (cl100k_base tokens)"
    assert at.selectbox(key="tok").value == "cl100k_base"
    assert list(at.selectbox(key="tok").options) == ["cl100k_base", "o200k_base"]
    count = len(reference_encoding("cl100k_base").encode_ordinary(KB))
    assert f"chunks: {chunk_count(at)} from {count:,} cl100k_base tokens" in captions(at)


@pytest.mark.parametrize("tokenizer", ["cl100k_base", "o200k_base"])
def test_the_sidebar_says_the_documents_tokens_per_word(tokenizer):
    at = in_tokens(doc="support_kb", tok=tokenizer)
    ratio = len(reference_encoding(tokenizer).encode_ordinary(KB)) / len(KB.split())
    [line] = [c for c in captions(at) if c.startswith("This document:")]
    assert line.startswith(f"This document: {ratio:.2f} {tokenizer} tokens per word")
    assert f"512 tokens about {round(512 / ratio)} words" in line


def test_the_link_carries_the_unit_and_a_tokenizer_other_than_the_default():
    at = in_tokens(doc="support_kb", size="256", overlap="32", tok="o200k_base")
    assert at.selectbox(key="tok").value == "o200k_base"
    assert at.slider(key="size").value == 256
    assert dict(at.query_params)["tok"] == "o200k_base"
    at = set_widget(at, "selectbox", "tok", "cl100k_base")
    assert "tok" not in dict(at.query_params)  # the default goes unsaid
    assert dict(at.query_params)["unit"] == "tokens"


@pytest.mark.parametrize("bad", ["gpt-9", "/etc/passwd", "../tokenizer.json"])
def test_a_link_may_name_only_the_apps_tokenizers(bad):
    at = in_tokens(doc="support_kb", tok=bad)
    notices = [w for w in texts(at.warning) if "tok=" in w]
    assert len(notices) == 1 and "this app counts tokens with cl100k_base, o200k_base" in notices[0]
    assert at.selectbox(key="tok").value == "cl100k_base"


# -- the labs in tokens -------------------------------------------------------------------


def test_lab1_reads_the_lottery_in_tokens():
    at = in_tokens(lab="boundary", doc="platform_data", strategy="fixed", size="40", overlap="0")
    assert verdicts(at)  # the verdict, at 40 tokens
    [lesson] = [m for m in texts(at.markdown) if m.startswith("**In cl100k_base tokens.**")]
    assert "At 512 cl100k_base tokens with 50 overlap" in lesson
    assert "the verdict flips" in lesson
    chart = at.get("plotly_chart")[0]
    assert "chunk size (cl100k_base tokens)" in chart.proto.spec


def test_lab2_bills_the_corpus_and_the_context_in_the_tokenizers_tokens():
    at = in_tokens(lab="overlap", doc="support_kb", tok="o200k_base")
    cells = [str(v) for df in at.dataframe for v in df.value.to_numpy().ravel()]
    assert "5 chunks × 512 o200k_base tokens = 2,560 o200k_base tokens per request" in cells
    ratio = len(reference_encoding("o200k_base").encode_ordinary(KB)) / len(KB.split())
    assert any(f"({ratio:.2f} per word, as in this document)" in c for c in cells)


def test_lab3_compares_the_strategies_in_tokens():
    at = in_tokens(lab="structure", doc="support_kb", size="128", overlap="16")
    header = [m for m in texts(at.markdown) if m.startswith("**Gold set: answers intact at size")]
    assert header == [
        "**Gold set: answers intact at size 128 cl100k_base tokens, overlap 16 (8 questions)**"
    ]
    assert len(verdicts(at)) == 4 + 1  # a column each, and the chunk view's
    assert "chunk size (cl100k_base tokens)" in at.get("plotly_chart")[0].proto.spec


def test_lab6_checks_the_gold_set_in_tokens():
    at = in_tokens(lab="integrity", doc="support_kb", size="128", overlap="16")
    table = at.get("table")[0].value
    assert list(table["strategy"]) == [
        "Structural",
        "Sentence",
        "LangChain recursive",
        "Fixed size",
    ]
    floor = [
        m for m in texts(at.markdown) if m.startswith("**below the floor (32 cl100k_base tokens)")
    ]
    assert floor


# -- your chunks --------------------------------------------------------------------------


def langchain_dump() -> bytes:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=0, add_start_index=True)
    docs = splitter.create_documents([KB])
    return "".join(json.dumps(d.model_dump()) + "\n" for d in docs).encode()


def with_chunks(lab: str, data: bytes | None = None, name: str = "lc.jsonl", **params):
    at = open_app(lab=lab, doc="support_kb", **params)
    at.file_uploader(key="chunk_file").upload(name, data or langchain_dump(), "application/jsonl")
    return rerun(at)


def test_an_uploaded_chunk_file_becomes_the_strategy_your_chunks():
    at = with_chunks("boundary")
    assert at.selectbox(key="strategy").value == "chunks"
    assert "Your chunks" in at.selectbox(key="strategy").options
    n = len(langchain_dump().splitlines())
    assert f"{n} chunk(s) placed in support_kb.md, 0 not placed." in captions(at)
    assert chunk_count(at) == n
    assert "strategy" not in dict(at.query_params)  # your chunks cannot travel in a link


@pytest.mark.parametrize("lab", ["boundary", "overlap"])
def test_survival_over_sizes_is_said_not_to_apply_to_your_chunks(lab):
    at = with_chunks(lab)
    assert any(
        i.startswith("Survival over sizes does not apply to your chunks") for i in texts(at.info)
    )
    assert verdicts(at)[0].startswith(("✓", "✗"))


def test_lab3_shows_your_chunks_beside_the_four_without_a_curve():
    at = with_chunks("structure")
    assert len(verdicts(at)) == 5 + 1  # a column each, and the chunk view's
    assert any("Your chunks have no curve" in c for c in captions(at))
    assert any("as their pipeline cut" in c for c in captions(at))
    assert any("Chunk view: Your chunks" in s for s in texts(at.subheader))


def test_lab6_checks_your_chunks_gold_set():
    at = with_chunks("integrity")
    table = at.get("table")[0].value
    assert list(table["strategy"])[-1] == "Your chunks"
    held = sum(
        any(" ".join(q.answer.split()) in " ".join(c.body.split()) for c in map(_Body, _rows()))
        for q in _gold()
    )
    assert table["intact"].iloc[-1] == f"{held / len(_gold()):.0%}"


def test_lab8_compares_your_chunks_with_a_chunking_you_could_switch_to():
    at = with_chunks("compare", q="0")
    assert not at.exception and at.selectbox(key="lab8_strategy").value == "structural"
    [line] = texts(at.success) + texts(at.error)  # the verdict, A against B
    assert line.startswith(("B is worse than A: ", "B is not worse than A")), line
    assert any(m.startswith("**A** (the sidebar): your chunks") for m in texts(at.markdown))
    # the sizes table counts your chunks under A, the structural chunker's under B
    n = len(langchain_dump().splitlines())
    click(at, "pin_compare")
    [pin] = at.session_state["pins"]
    assert pin.numbers["chunks A / B"].startswith(f"{n} / ")
    assert pin.numbers["B"].startswith("structural:")
    # the same question's top score, over your chunks and over B's
    assert any(m.startswith("“") and "under A" in m for m in texts(at.markdown))


class _Body:
    def __init__(self, row: dict) -> None:
        self.body = row["page_content"]


def _rows() -> list[dict]:
    return [json.loads(line) for line in langchain_dump().splitlines()]


def _gold():
    from lab.inputs.gold import load_gold

    return load_gold(SAMPLES / "support_kb.gold.jsonl").questions


@pytest.mark.parametrize(
    "name, data, says",
    [
        ("no_text.jsonl", b'{"body": "x"}\n', "no chunk text"),
        ("latin1.csv", "text\nCaf\xe9\n".encode("latin-1"), "is not UTF-8"),
        ("elsewhere.jsonl", b'{"text": "not in this document"}\n', "none of its chunks"),
        ("long.jsonl", json.dumps({"text": KB * 2}).encode(), "longer than the document"),
    ],
)
def test_a_bad_chunk_file_is_one_line_and_the_view_stays(name, data, says):
    at = with_chunks("boundary", data, name, strategy="structural")
    errors = texts(at.sidebar.error)
    assert len(errors) == 1 and says in errors[0]
    assert at.selectbox(key="strategy").value == "structural"
    assert "Your chunks" not in at.selectbox(key="strategy").options
    assert verdicts(at)  # the lab is still there


# -- the peers and copy as code ----------------------------------------------------------


def test_a_peer_is_a_strategy_in_the_sidebar_and_a_fifth_column_in_lab3():
    at = in_tokens(lab="structure", doc="support_kb", strategy="semchunk", size="128")
    assert at.selectbox(key="strategy").value == "semchunk"
    assert len(verdicts(at)) == 5 + 1  # a column each, and the chunk view's
    assert any("Chunk view: semchunk" in s for s in texts(at.subheader))


def test_copy_as_code_makes_the_chunks_the_app_shows():
    at = in_tokens(
        lab="boundary", doc="support_kb", strategy="structural", size="128", overlap="16"
    )
    [ours] = code_blocks(at)
    assert "chunk(text, 'structural', 128, 16, unit='tokens')" in ours
    scope = {"open": lambda *a, **k: _Text(KB)}
    exec(ours.replace("    print(c.index, c.length, c.start, c.end)", "    pass"), scope)  # noqa: S102
    assert len(scope["chunks"]) == chunk_count(at)


class _Text:
    def __init__(self, text: str) -> None:
        self.text = text

    def read(self) -> str:
        return self.text


@pytest.mark.parametrize("strategy", ["recursive", "semchunk"])
def test_copy_as_code_gives_the_peers_own_api_making_the_same_chunks(strategy):
    at = in_tokens(doc="support_kb", strategy=strategy, size="128", overlap="16", tok="o200k_base")
    blocks = code_blocks(at)
    assert len(blocks) == 2
    theirs = blocks[1]
    if strategy == "recursive":
        assert "RecursiveCharacterTextSplitter.from_tiktoken_encoder(" in theirs
    reference_encoding("o200k_base")  # tiktoken keeps it: the snippet finds it offline
    scope = {"text": KB}
    exec(theirs, scope)  # noqa: S102
    made = [d.page_content for d in scope["docs"]] if strategy == "recursive" else scope["chunks"]
    ours = chunk(KB, strategy, 128, 16, unit="tokens", tokenizer="o200k_base")
    assert made == [c.retrievable_text for c in ours]


def test_a_pin_keeps_the_unit_and_the_tokenizer():
    at = in_tokens(lab="boundary", doc="support_kb", tok="o200k_base")
    at.button(key="pin_boundary").click()
    at = rerun(at)
    [pin] = at.session_state["pins"]
    assert (pin.config["unit"], pin.config["tok"], pin.config["size"]) == (
        "tokens",
        "o200k_base",
        512,
    )


def test_a_peer_whose_package_is_missing_says_so_in_one_line(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "chonkie", None)  # as if it were not installed
    at = open_app(lab="boundary", doc="support_kb", strategy="chonkie-token")
    [error] = texts(at.error)
    assert "the chonkie-token strategy needs Chonkie, an optional extra" in error
    assert "\n" not in error and "pip install" in error
