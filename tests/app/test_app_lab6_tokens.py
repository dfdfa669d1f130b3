"""Lab 6: token efficiency beside recall, the lesson over sizes, a generated gold set."""

from tests.app.app_harness import APP, all_text, click, open_lab, upload


def _lesson(at):
    (table,) = [
        t.value for t in at.table if any(str(c).startswith("context@") for c in t.value.columns)
    ]
    return table


def test_the_lesson_shows_iou_climbing_as_chunks_shrink_while_recall_stays():
    at = open_lab("integrity")
    click(at, "preset_integrity")
    assert not at.exception
    heads = [h.value for h in at.subheader]
    assert "Recall against IoU as chunks shrink (written gold set, BM25)" in heads
    table = _lesson(at)
    plain = table[table["overlap"].astype(int) == 0]
    iou = plain["IoU@10"].astype(float).tolist()
    recall = plain["recall@10"].astype(float).tolist()
    assert len(table) == 2 * len(plain) and len(plain) >= 3
    assert iou[0] > iou[-1]  # the smallest chunks bring the least that is not the passage
    points = round((max(recall) - min(recall)) * 100)
    assert f"recall@10 moves {points} points while IoU moves" in all_text(at)
    summary = at.table[0].value  # the strategy table shows IoU beside recall
    assert "IoU@10" in summary.columns


def test_a_gold_set_made_from_an_upload_teaches_the_lesson_and_downloads():
    at = open_lab("integrity")
    upload(at, "notes.md", (APP.parent / "sample_docs" / "platform_data.md").read_bytes())
    assert "No gold set" in all_text(at)
    assert not any(h.value.startswith("Recall against IoU") for h in at.subheader)
    downloads = len(at.get("download_button"))
    click(at, "lab6_make_gold")
    assert not at.exception
    text = all_text(at)
    assert "Generated: 12 questions" in text and "favour lexical retrieval" in text
    assert "Recall against IoU as chunks shrink (generated gold set, BM25)" in [
        h.value for h in at.subheader
    ]
    assert len(_lesson(at)) > 0
    # the set, as a gold file for the command line
    assert len(at.get("download_button")) == downloads + 1


def test_a_document_with_nothing_to_ask_says_so_in_place():
    at = open_lab("integrity")
    upload(at, "short.md", "# Title\n\nToo short.\n")
    click(at, "lab6_make_gold")
    assert not at.exception
    assert any("no sentence of at least 6 words" in e.value for e in at.error)
