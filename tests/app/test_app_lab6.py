"""Lab 6, the integrity check: gold table, recall@k and MRR, the length histogram."""

from tests.app.app_harness import (
    APP,
    all_text,
    click,
    open_lab,
    rerun,
    set_widget,
    upload,
    vega_chart,
)

GOLD = (
    b'{"question": "how long are audit logs kept?", "answer": "Audit logs are retained for '
    b'four hundred days"}\nnot json\n'
)


def _summary(at):
    df = at.table[0].value
    for col in ("recall@1", "recall@3", "recall@5", "recall@10", "MRR"):
        df[col] = df[col].astype(float)  # shown as rounded, e.g. "0.917"
    return {row["strategy"]: row for _, row in df.iterrows()}


def _lab6_with_an_upload():
    """Lab 6 on an uploaded document (a sample's text, under another name): no gold set yet."""
    at = open_lab("integrity")
    data = (APP.parent / "sample_docs" / "platform_data.md").read_bytes()
    upload(at, "notes.md", data)
    return at


def test_support_kb_gold_set_per_strategy():
    at = open_lab("integrity")
    click(at, "preset_integrity")
    s = _summary(at)
    assert s["Fixed size"]["intact"] == "38%" and s["Fixed size"]["chunk does not exist"] == 5
    assert s["Structural"]["intact"] == "100%" and s["Structural"]["recall@10"] == 1.0
    assert 0 < s["Fixed size"]["MRR"] <= s["Structural"]["MRR"] <= 1
    assert (
        "Gold set, Fixed size: 5 answer(s) with no chunk, whoever ranks; ranking below 10: "
        "0 by bm25, 0 by dense, 0 by hybrid"
    ) in all_text(at)
    gold = at.table[1].value
    assert list(gold["intact"]).count("✗") == 5 and set(gold["status"]) == {
        "found",
        "chunk does not exist",
    }
    recall = vega_chart(at, "Recall@k")["datasets"]["bars"]
    assert list(dict.fromkeys(r["strategy"] for r in recall)) == [
        "Structural",
        "Sentence",
        "LangChain recursive",
        "Fixed size",
    ]


def test_histogram_marks_floor_and_max_and_counts_runts():
    at = open_lab("integrity")
    set_widget(at, "selectbox", "strategy", "structural")
    set_widget(at, "radio", "unit", "chars")
    hist = vega_chart(at, "Chunk lengths")["datasets"]
    limits = [(r["at"], r["label"]) for r in hist["limits"]]
    # floor 25% of 1,800; effective max 1,800 + 450 - 1
    assert limits == [(450, "floor 450"), (2249, "max 2249")]
    assert [r["length"] for r in hist["lengths"]] == [1171]  # one chunk, the line's max
    assert "max 1171 (effective max 2249)" in all_text(at)
    assert "below the floor (450 chars): 0 of 1 chunks" in all_text(at)


def test_k_and_size_change_the_numbers():
    at = open_lab("integrity")
    before = _summary(at)["Fixed size"]["recall@10"]
    set_widget(at, "slider", "size", 22)
    after = _summary(at)["Fixed size"]["recall@10"]
    assert before != after
    at.select_slider(key="lab6_k").set_value(1)
    rerun(at)
    assert "ranking below 1" in all_text(at)


def test_upload_with_its_own_gold_file():
    at = _lab6_with_an_upload()
    assert "No gold set" in all_text(at)
    at.file_uploader(key="lab6_gold").upload("gold.jsonl", GOLD, "application/jsonl")
    rerun(at)
    assert "gold.jsonl line 2: not valid JSON" in all_text(at)
    assert _summary(at)["Sentence"]["intact"] == "100%"


def test_an_uploaded_gold_file_with_passages_checks_its_answers_and_names_the_rest():
    at = _lab6_with_an_upload()
    passages = b'{"question": "what is stored?", "passages": [{"start": 0, "end": 40}]}\n'
    at.file_uploader(key="lab6_gold").upload("gold.jsonl", GOLD + passages, "application/jsonl")
    rerun(at)
    assert not at.exception
    assert "1 line(s) list passages instead of an answer" in all_text(at)
    assert _summary(at)["Sentence"]["intact"] == "100%"


def test_each_retriever_reports_and_the_strategies_follow_the_chosen_one():
    at = open_lab("integrity")
    click(at, "preset_integrity")
    at.select_slider(key="lab6_k").set_value(1)
    rerun(at)
    judged = at.table[2].value
    assert list(judged["retriever"]) == [
        "bm25 (lucene)",
        "dense (wordllama)",
        "hybrid (lucene + wordllama, k=60)",
    ]
    assert "ranks below 1" in judged.columns and "coverage@1" in judged.columns
    gold = at.table[1].value
    assert {"rank: bm25", "rank: dense", "rank: hybrid"} <= set(gold.columns)
    # a missing chunk is missing for every judge, one status
    missing = gold[gold["intact"] == "✗"]
    assert len(missing) == 5 and set(missing["status"]) == {"chunk does not exist"}
    assert set(missing["rank: dense"]) == {"—"}
    bm25_mrr = _summary(at)["Fixed size"]["MRR"]
    set_widget(at, "radio", "lab6_retriever", "dense")
    assert "Ranked by dense (wordllama)." in all_text(at)
    assert _summary(at)["Fixed size"]["MRR"] == float(judged["MRR"][1])
    assert bm25_mrr == float(judged["MRR"][0])


def test_the_chunks_to_read_name_each_chunk_what_it_breaks_and_how_it_starts():
    at = open_lab("integrity")
    set_widget(at, "selectbox", "strategy", "fixed")
    set_widget(at, "radio", "unit", "chars")
    set_widget(at, "slider", "size", 200)
    heading = next(h.value for h in at.subheader if h.value.startswith("Chunks to read: "))
    table = at.table[-1].value
    assert list(table.columns) == ["chunk", "what", "first line"]
    assert heading == f"Chunks to read: {len(table)}" and len(table) > 0
    assert "cuts a sentence" in set(", ".join(table["what"]).split(", "))
    assert all(int(n) >= 1 for n in table["chunk"])
