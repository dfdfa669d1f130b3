"""Lab 4, runts and BM25: score bars, the theory curve, k1/b, the revenue sample."""

from tests.app.app_harness import all_text, click, open_lab, set_widget, vega_chart, verdicts


def _rows(at, title, dataset):
    return vega_chart(at, title)["datasets"][dataset]


RUNT_OFF = (
    "structural, runt merge off: the row is a runt of its own with the table's header repeated "
    "(chunk 4, 261 chars, under the 450-char floor); it ranks #1 with {}, above the table "
    "it was cut from (chunk 3, #3 with {})"
)


def test_revenue_orphan_outranks_its_table_until_the_sweep():
    at = open_lab("runts")
    click(at, "preset_runts")
    set_widget(at, "radio", "lab4_runt_merge", "off")
    text = all_text(at)
    assert "BM25 shown: lucene, the default" in text
    assert RUNT_OFF.format("2.188", "0.381") in text
    # rank-bm25's okapi, as the lab scored before lucene became the default: the same
    # ranks from other weights (the length lesson is the same in every variant)
    set_widget(at, "radio", "bm25", "okapi")
    assert RUNT_OFF.format("1.800", "0.524") in all_text(at)
    assert "BM25 shown: okapi" in all_text(at)
    set_widget(at, "radio", "bm25", "lucene")
    bars = _rows(at, "BM25 score per chunk", "bars")
    assert {r["kind"] for r in bars} == {"holds the answer, runt", "other"}
    assert verdicts(at)[0] == "✓ answer intact in chunk 4"
    set_widget(at, "radio", "lab4_runt_merge", "backward")
    text = all_text(at)
    assert "runt merge backward: the row sits with its table in chunk 3 (1833 chars" in text
    assert verdicts(at)[0] == "✓ answer intact in chunk 3"
    set_widget(at, "radio", "lab4_runt_merge", "forward")
    assert "runt merge forward: the row sits with its table in chunk 3" in all_text(at)


def test_inflation_factor_is_written_on_the_chart_and_follows_b():
    at = open_lab("runts")
    click(at, "preset_runts")
    set_widget(at, "radio", "lab4_runt_merge", "off")  # the runt the merge would absorb
    note = _rows(at, "Score against length", "note")[0]["line"].split("\n")
    assert note[0] == "inflation ×1.43: shortest chunk (261 chars) vs an average one"
    assert "cap at the floor (450 chars): ×1.28" in note
    assert _rows(at, "Score against length", "theory")  # the length-only curve is drawn
    default = all_text(at)
    assert "scores ×1.43 an average one" in default
    set_widget(at, "slider", "b", 0.0)
    assert "scores ×1.00 an average one" in all_text(at)  # no length normalisation, no bonus
    set_widget(at, "slider", "b", 0.75)
    set_widget(at, "slider", "k1", 3.0)
    assert "scores ×1.43 an average one" not in all_text(at)  # saturation reshapes the bonus


def test_default_document_and_strategy_switch():
    at = open_lab("runts")
    assert "fixed, no overlap: the orphan row" in all_text(at)  # the revenue panel stands alone
    set_widget(at, "selectbox", "strategy", "structural")
    set_widget(at, "selectbox", "doc", "inspection_manual")
    assert _rows(at, "BM25 score per chunk", "bars")


def test_the_bm25_switch_changes_the_scores_and_fts5_holds_k1_and_b():
    at = open_lab("runts")
    click(at, "preset_runts")
    lucene = _rows(at, "BM25 score per chunk", "bars")
    assert all(r["score"] >= 0 for r in lucene)
    set_widget(at, "radio", "bm25", "okapi")
    okapi = _rows(at, "BM25 score per chunk", "bars")
    assert [r["score"] for r in okapi] != [r["score"] for r in lucene]
    set_widget(at, "slider", "k1", 2.0)
    set_widget(at, "radio", "bm25", "fts5")
    assert at.slider(key="k1").disabled and at.slider(key="b").disabled
    assert "BM25 shown: fts5: SQLite's own bm25()" in all_text(at)
    fts5 = _rows(at, "BM25 score per chunk", "bars")
    assert len(fts5) == len(lucene) and not at.exception
    # the switch follows the user to another lab that ranks, and into the link
    assert at.query_params["bm25"] == "fts5"


def test_the_introduction_cites_the_lengths_the_page_shows():
    at = open_lab("runts")
    orphan = at.dataframe[0].value  # fixed-size chunks of the revenue report
    row = orphan[orphan["holds the Mumbai row"] == "✓"].iloc[0]
    tables = orphan[orphan["table header"] != ""].sort_values("rank")
    table = tables.iloc[0]
    assert row["rank"] < table["rank"]  # the row outranks the table, as the text says
    intro = at.markdown[0].value
    assert (
        f"a {row['length (chars)']:,}-character chunk holding nothing but one table row outranks "
        f"the {table['length (chars)']:,}-character chunk of the table it was cut from"
    ) in " ".join(intro.split())
    assert "42-character" not in intro and "1,780" not in intro
