from itertools import pairwise

import pytest

from chunkers import ChunkOptions, chunk, chunk_with
from lab.measure.survival import Survival, check_survival
from lab.retrieval.bm25_variants import chunk_scores
from tests.support import AUDIT, PLATFORM, SAMPLES
from ui.present import chunkview
from ui.present.chunkview import (
    card_flags,
    cards_html,
    chunk_cards,
    count_line,
    document_html,
    segments,
    short_verdict,
    verdict,
    view_window,
)


def test_segments_tile_the_text_and_mark_chunks_overlap_and_answer():
    chunks = chunk(PLATFORM, "fixed", 24, overlap=8, unit="words")
    surv = check_survival(chunks, PLATFORM, AUDIT)
    segs = segments(PLATFORM, chunks, surv.span)
    assert segs[0].start == 0 and segs[-1].end == len(PLATFORM)
    assert all(a.end == b.start for a, b in pairwise(segs))
    answer_text = "".join(PLATFORM[s.start : s.end] for s in segs if s.answer)
    assert answer_text == PLATFORM[surv.span[0] : surv.span[1]]
    # overlap regions come from the real offsets: exactly the copied prefixes
    for c in chunks[1:]:
        copied = "".join(PLATFORM[s.start : s.end] for s in segs if c.index in s.overlap_into)
        assert copied == c.overlap_prefix
    for s in segs:
        if s.chunk is not None:
            c = chunks[s.chunk]
            assert c.start <= s.start and s.end <= c.end


def test_document_and_cards_escape_markup():
    text = (
        "# Title\n\nHello <script>alert('x')</script> & <b>bold</b> world.\n\n"
        "More text here <img src=x onerror=alert(1)>."
    )
    chunks = chunk(text, "fixed", 5, unit="words")
    html = document_html(text, chunks, None)
    cards = cards_html(chunk_cards(chunks, None, ChunkOptions(size=5, overlap=0, unit="words")))
    for out in (html, cards):
        assert "<script>" not in out and "<img" not in out and "<b>bold" not in out
        assert "&lt;script&gt;" in out


def test_verdict_words_follow_lottery_article():
    chunks = chunk(PLATFORM, "fixed", 24, unit="words")
    v = verdict(check_survival(chunks, PLATFORM, AUDIT))
    assert v.ok is False
    assert v.text == "✗ answer split across chunks 4 and 5: unretrievable at any k"
    v = verdict(check_survival(chunk(PLATFORM, "fixed", 22, unit="words"), PLATFORM, AUDIT))
    assert v.ok and v.text.startswith("✓ answer intact in chunk ")
    assert verdict(None).ok is None


def test_the_short_verdict_names_the_chunks_the_long_one_names():
    # -- a projector's narrow column: the same verdict, the same chunk numbers, fewer words
    split = check_survival(chunk(PLATFORM, "fixed", 24, unit="words"), PLATFORM, AUDIT)
    assert short_verdict(split) == chunkview.Verdict(False, "✗ split, chunks 4–5")
    whole = check_survival(chunk(PLATFORM, "fixed", 22, unit="words"), PLATFORM, AUDIT)
    number = verdict(whole).text.removeprefix("✓ answer intact in chunk ")
    assert short_verdict(whole) == chunkview.Verdict(True, f"✓ intact in chunk {number}")
    three = Survival(False, None, (0, 9), [5, 6, 7], verdict="answer split across chunks 6-8")
    assert short_verdict(three).text == "✗ split, chunks 6–8"
    partly = Survival(False, None, (0, 9), [2], verdict="answer only partly in chunk 3")
    assert short_verdict(partly) == chunkview.Verdict(False, "✗ not whole in any chunk")
    assert short_verdict(None) == chunkview.Verdict(None, "no answer picked")


def test_cards_carry_rank_score_runt_and_answer():
    text = (SAMPLES / "regional_revenue.md").read_text()
    opts = ChunkOptions(size=1800, overlap=150, unit="chars", runt_merge="off")
    chunks = chunk_with(text, "structural", opts)
    scores = chunk_scores(chunks, "what was Mumbai's FY24 revenue?")
    surv = check_survival(chunks, text, "| Mumbai | FY24 | 18,412 | 4.2% |")
    cards = chunk_cards(chunks, scores, opts, surv)
    orphan = cards[-1]
    assert orphan.runt and orphan.holds_answer and orphan.rank == 1 and orphan.header_repeated
    assert [c.number for c in cards] == list(range(1, len(chunks) + 1))
    assert {c.rank for c in cards} == set(range(1, len(chunks) + 1))


def test_count_line_and_window():
    chunks = chunk(PLATFORM, "fixed", 24, unit="words")
    assert count_line(chunks, PLATFORM, "words") == "chunks: 8 from 192 words"
    assert view_window(100, None) == (0, 100)
    lo, hi = view_window(100_000, (50_000, 50_010), max_chars=1000)
    assert hi - lo == 1000 and lo <= 50_000 and 50_010 <= hi
    assert view_window(100_000, (99_990, 100_000), max_chars=1000) == (99_000, 100_000)


@pytest.mark.parametrize("crlf", [False, True])
def test_long_document_view_is_windowed(crlf):
    text = ("Filler sentence number one is here. " * 2000) + AUDIT + ". " + ("Tail text. " * 500)
    if crlf:
        text = text.replace(". ", ".\r\n")
    chunks = chunk(text, "fixed", 24, unit="words")
    surv = check_survival(chunks, text, AUDIT)
    html = document_html(text, chunks, surv.span, max_chars=5000)
    assert "characters before" in html and "characters after" in html
    assert "four hundred days" in html


def test_a_card_says_where_its_sentence_was_cut():
    text = "first line here\nsecond line has many words in it"
    opts = ChunkOptions(size=16, overlap=0, unit="chars")
    cards = chunk_cards(chunk_with(text, "sentence", opts), None, opts)
    assert "sentence cut at a line break" in card_flags(cards[0])
    assert "sentence cut at a space" in card_flags(cards[1])
    whole = chunk_cards(chunk_with("One. Two.", "sentence", opts), None, opts)
    assert not any("sentence cut" in f for f in card_flags(whole[0]))


def test_a_card_that_spans_pages_says_both():
    prose = "The audit store keeps access logs for four hundred days before archiving them. "
    text = "## Page 3\n\n" + prose * 50 + "\n\n## Page 4\n\nMumbai FY24 revenue was 18,412 crores."
    chunks = chunk(text, "structural", 1800, 150)
    html = cards_html(chunk_cards(chunks, None, ChunkOptions()))
    assert [(c.page, c.last_page) for c in chunks][-1] == (3, 4)
    assert html.count("pages 3–4") == 1


def test_a_window_of_cards_shows_its_focus_a_third_of_the_way_down():
    assert chunkview.window_start(2328, 353, window=100) == 320
    assert chunkview.window_start(2328, 5, window=100) == 0  # near the start: from the start
    assert chunkview.window_start(2328, 2327, window=100) == 2228  # near the end: to the end
    assert chunkview.window_start(80, 70, window=100) == 0  # short: every card
    assert chunkview.window_start(2328, None, window=100) == 0
    assert chunkview.window_line(320, 420, 2328, 353) == (
        "Cards 321–420 of 2,328, around the answer (chunk 354)."
    )
    assert chunkview.window_line(0, 100, 2328, 353) == "Cards 1–100 of 2,328."


def test_finding_text_in_chunks_ignores_case_and_line_breaks():
    text = "Alpha beta.\n\nGamma DELTA\nepsilon. Zeta eta."
    cs = chunk_with(text, "fixed", ChunkOptions(size=3, overlap=0, unit="words"))
    assert chunkview.find_chunks(cs, "delta epsilon") == [
        c.index for c in cs if "DELTA\nepsilon" in c.body
    ]
    assert chunkview.find_chunks(cs, "  ") == []
    assert chunkview.find_chunks(cs, "omega") == []
