"""Lab 5, tables, transcribed text and headings."""

import re

from tests.app.app_harness import all_text, click, html_bodies, open_lab, set_widget, verdicts


def test_table_fragments_repeat_the_header_and_overlap_refuses_tables():
    at = open_lab("tables")
    click(at, "preset_tables")
    frags = at.table[0].value
    # the first fragment of each table carries its own header, a later one a copy: no
    # fragment's header cell is blank (blank read as "no header")
    assert list(frags["table header"]) == ["its own", "its own", "repeated"]
    # (cells are Markdown: the table's bars are escaped, and shown as bars)
    assert all(line.replace("\\", "").startswith("| Instance type") for line in frags["first line"])
    seams = at.dataframe[0].value
    assert "refused: a table on one side" in set(seams["overlap"])
    assert "overlap applied" in set(seams["overlap"])
    assert verdicts(at)[0].startswith("✓ answer intact in chunk")


def test_transcribed_heading_is_not_inherited():
    at = open_lab("tables")
    click(at, "lab5_manual")
    assert at.selectbox(key="doc").value == "inspection_manual"
    notes = at.dataframe[1].value["note"]
    assert any("'Pressure log (transcribed from scan)' is not inherited" in n for n in notes)
    assert "refused: transcribed text on one side" in set(at.dataframe[0].value["overlap"])


def _moves(at):
    """The table of ranks with and without heading paths (found by its columns)."""
    return next(d.value for d in at.dataframe if "rank with path" in d.value.columns)


def test_heading_switch_moves_ranks():
    at = open_lab("tables")
    click(at, "lab5_manual")  # inspection manual, the safety valve question
    assert "13 of 22 chunks change rank" in all_text(at)
    cards_before = [b for b in html_bodies(at) if 'class="chunk-cards"' in b][-1]
    set_widget(at, "toggle", "lab5_no_heading", True)
    cards_after = [b for b in html_bodies(at) if 'class="chunk-cards"' in b][-1]
    assert cards_before != cards_after  # the cards show the ranks without heading paths
    moves = _moves(at)
    answer_row = moves[moves["holds the answer"] == "✓"].iloc[0]
    assert (answer_row["rank with path"], answer_row["rank without"]) == (2, 2)
    # rank-bm25's okapi, as the lab scored before lucene became the default
    set_widget(at, "radio", "bm25", "okapi")
    moves = _moves(at)
    answer_row = moves[moves["holds the answer"] == "✓"].iloc[0]
    assert (answer_row["rank with path"], answer_row["rank without"]) == (3, 3)
    assert "BM25 shown: okapi" in all_text(at)


def test_fixed_strategy_has_no_tables():
    at = open_lab("tables")
    set_widget(at, "selectbox", "doc", "compute_pricing")
    assert "No table chunks here" in all_text(at)


def test_the_embedders_limit_shows_what_truncation_cuts_off():
    at = open_lab("tables")
    click(at, "lab5_pricing")  # compute pricing at 600 chars with 100 overlap
    assert at.number_input(key="limit").value == 512
    assert "0 of " in all_text(at) and "index more than 512 cl100k_base tokens" in all_text(at)
    set_widget(at, "number_input", "limit", 40)
    cut = next(d.value for d in at.dataframe if "tokens cut off" in d.value.columns)
    said = re.search(r"(\d+) of (\d+) chunks\*\* index more than 40 ", all_text(at))
    assert said and int(said[1]) == len(cut) > 0
    assert (cut["tokens indexed"] - cut["tokens cut off"] == 40).all()
    assert at.query_params["limit"] == "40"  # the link keeps it
