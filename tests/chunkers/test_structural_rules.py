"""The structural chunker's rules, one example each that fails if the rule is removed."""

from __future__ import annotations

from itertools import pairwise

from chunkers import ChunkOptions, chunk, chunk_parsed, parse
from tests.support import SAMPLES, assert_spans_true, lost_characters

P = "Prose sentence number {i} says something about the {i}th topic in full."  # 71 chars


def para(n: int, start: int = 0) -> str:
    return " ".join(P.format(i=i) for i in range(start, start + n))


def s(text: str, size: int = 300, overlap: int = 0, **kw):
    return chunk(text, "structural", size, overlap, **kw)


# -- sections and heading ancestry ----------------------------------------------
def test_heading_path_is_the_ancestry_outermost_first() -> None:
    text = (
        f"# Guide\n\n{para(2)}\n\n## Install\n\n{para(2)}\n\n### Linux\n\n{para(2)}\n\n## "
        f"Use\n\n{para(2)}"
    )
    paths = [c.heading_path for c in s(text, 200)]
    assert ("Guide", "Install", "Linux") in paths
    assert ("Guide", "Use") in paths  # a same-level heading pops its sibling


def test_heading_path_switch_leaves_paths_out() -> None:
    text = f"# Guide\n\n{para(3)}\n\n## Use\n\n{para(3)}"
    assert all(c.heading_path == () for c in s(text, 300, heading_paths=False))
    assert any(c.heading_path for c in s(text, 300))


def test_fenced_hash_line_is_not_a_heading() -> None:
    text = f"## Setup\n\n```bash\n# install the tool\npip install thing\n```\n\n{para(1)}"
    (only,) = s(text, 1000)
    assert only.heading_path == ("Setup",)


def test_transcribed_heading_labels_its_own_section_only() -> None:
    text = (
        f"# Manual\n\n{para(1)}\n\n## Page 4\n\n{para(1)}\n\n"
        f"### Pressure log (transcribed from scan)\n\n{para(2)}\n\n"
        f"#### Readings\n\n{para(2)}\n\n## Page 5\n\n{para(2)}"
    )
    chunks = s(text, 160)
    own = [c for c in chunks if c.heading_path and c.heading_path[-1].startswith("Pressure log")]
    assert own and all(c.transcribed for c in own)
    below = [c for c in chunks if c.heading_path[-1:] == ("Readings",)]
    assert below, [c.heading_path for c in chunks]
    assert all(c.transcribed for c in below)  # content under OCR is still OCR
    for c in chunks:  # the invented heading is never an ancestor of another section
        if c not in own:
            assert not any("(transcribed" in h for h in c.heading_path), c.heading_path
    assert [c.transcribed for c in chunks if c.page == 5] == [False] * len(
        [c for c in chunks if c.page == 5]
    )


def test_transcribed_heading_never_displaces_the_page_anchor() -> None:
    # the extractor forgot to demote: "## Notes (transcribed" sits at the page level
    text = (
        f"# Manual\n\n## Page 5\n\n{para(2)}\n\n## Field notes (transcribed from scan)\n\n"
        f"{para(2)}\n\n## Page 6\n\n{para(2)}"
    )
    chunks = s(text, 160)
    notes = [c for c in chunks if c.transcribed]
    assert notes and all(c.page == 5 for c in notes)
    assert all(c.heading_path[:2] == ("Manual", "Page 5") for c in notes)
    assert [c.page for c in chunks if not c.transcribed][-1] == 6


def test_page_anchor_that_is_itself_transcribed_still_gives_the_page() -> None:
    text = f"# Scan\n\n## Page 12 (transcribed from scan)\n\n{para(2)}"
    chunks = s(text, 1000)
    scanned = [c for c in chunks if c.transcribed]
    assert scanned and {c.page for c in scanned} == {12}
    # the native title has no text of its own: it travels with the scanned page
    # (a heading never ends a chunk), and the chunk it joins is transcribed
    (only,) = chunks
    assert only.body.startswith("# Scan\n\n## Page 12") and only.transcribed


def test_sample_pricing_page_heading_path() -> None:
    text = (SAMPLES / "compute_pricing.md").read_text(encoding="utf-8")
    chunks = s(text, 1800, 150)
    table = [c for c in chunks if "| c6.2xlarge |" in c.body]
    assert table and table[0].heading_path == ("Compute pricing", "Page 12", "Reserved instances")
    assert table[0].page == 12


# -- blocks ------------------------------------------------------------------------
def test_boundaries_fall_only_between_blocks() -> None:
    paras = [para(2, 10 * k) for k in range(6)]  # 143-char paragraphs
    text = "\n\n".join(paras)
    chunks = s(text, 400)
    bodies = "\n\n".join(c.body for c in chunks)
    assert bodies == text
    for c in chunks:
        assert all(p in paras for p in c.body.split("\n\n"))
    assert [len(c.body.split("\n\n")) for c in chunks] == [2, 2, 2]


def test_gfm_table_needs_the_separator_line() -> None:
    prose = "Use the a | b syntax for alternatives in the grammar.\nIt is not a table at all."
    table = "| a | b |\n|---|---|\n| 1 | 2 |"
    assert s(prose, 1000)[0].kind == "prose"
    assert s(table, 1000)[0].kind == "table"


def test_linearised_table_rows_split_only_between_rows() -> None:
    rows = [f"Instance: m{i}.large | vCPU: {i} | Price: 0.{i:03d} USD per hour" for i in range(12)]
    text = "\n".join(rows)
    chunks = s(text, 200)
    assert all(c.kind == "table" for c in chunks)
    for c in chunks:
        assert all(line in rows for line in c.body.split("\n"))  # never half a row
    assert len(chunks) > 1


def test_code_fence_with_blank_lines_is_one_block() -> None:
    code = "```python\ndef a():\n    return 1\n\n\ndef b():\n    return 2\n```"
    text = f"{para(1)}\n\n{code}\n\n{para(1)}"
    chunks = s(text, len(code) + 5)
    assert any(c.body == code and c.kind == "code" for c in chunks), [c.body for c in chunks]


def test_unclosed_fence_loses_nothing() -> None:
    text = f"{para(1)}\n\n```\nunterminated code\n\n# not a heading\nmore"
    chunks = s(text, 80)
    assert lost_characters(text, chunks) == []
    assert chunks[-1].kind == "code" and chunks[-1].heading_path == ()


def test_list_block_is_classified() -> None:
    text = "- first item of the list\n- second item\n- third item"
    assert s(text, 1000)[0].kind == "list"


# -- oversized blocks ----------------------------------------------------------------
def _table(rows: int) -> tuple[str, str]:
    header = "| Instance | vCPU | Memory GiB | Price per hour |\n|---|---|---|---|\n"
    body = "".join(f"| m{i}.xlarge | {i} | {4 * i} | 0.{i:03d} |\n" for i in range(1, rows + 1))
    return header, header + body


def test_oversized_table_splits_between_rows_and_repeats_its_header() -> None:
    header, table = _table(30)
    chunks = s(table.rstrip("\n"), 300)
    assert len(chunks) > 2
    assert not chunks[0].header_repeated
    for c in chunks:
        assert c.body.startswith(header), c.body[:60]
        assert c.length <= 300  # the repeated header counts in the budget
        for line in c.body.split("\n"):
            assert line.startswith("|") and line.endswith("|")  # never half a row
    for c in chunks[1:]:
        assert c.header_repeated
        assert c.body == header + table[c.start : c.end]


def test_oversized_prose_splits_at_sentences() -> None:
    text = para(10)
    chunks = s(text, 300)
    assert len(chunks) > 1
    for c in chunks:
        assert c.body.endswith("full.") and c.body.startswith("Prose sentence")


def test_words_are_the_last_resort() -> None:
    text = " ".join(f"word{i}" for i in range(200))  # one sentence, no full stop
    chunks = s(text, 100)
    assert all(c.length <= 100 for c in chunks[:-1])
    assert lost_characters(text, chunks) == []
    assert all(not c.body[0].isspace() for c in chunks)


def test_caption_travels_with_its_table() -> None:
    _, table = _table(3)
    text = f"{para(1)}\n\nTable 2: Instance prices in USD.\n{table}"
    chunks = s(text, 250)
    assert any(
        c.body.startswith("Table 2: Instance prices") and "| m3.xlarge" in c.body for c in chunks
    )


# -- overlap ------------------------------------------------------------------------
def test_overlap_is_a_word_snapped_prefix_stored_apart() -> None:
    text = para(10)
    chunks = s(text, 300, 50)
    assert chunks[1].overlap_prefix
    for prev, c in pairwise(chunks):
        assert len(c.overlap_prefix) <= 50
        assert prev.body.endswith(c.overlap_prefix)
        assert text[c.overlap_start - 1].isspace()  # never starts mid-word
        assert c.overlap_end <= c.start  # stored apart: the body does not repeat it
        assert c.body.startswith("Prose sentence")


def test_overlap_in_words() -> None:
    chunks = s(para(10), 40, 5, unit="words")
    assert all(len(c.overlap_prefix.split()) == 5 for c in chunks[1:])


def test_overlap_never_taken_from_or_given_to_a_table() -> None:
    _, table = _table(30)
    text = f"{para(4)}\n\n{table}\n{para(8, 20)}"
    chunks = s(text, 300, 60)
    for prev, c in pairwise(chunks):
        if c.kind == "table" or prev.body.rstrip().endswith("|"):
            assert c.overlap_prefix == "", (prev.body[-40:], c.body[:40])
    assert any(c.overlap_prefix for c in chunks)  # prose still overlaps prose


def test_overlap_never_crosses_into_or_out_of_transcribed_text() -> None:
    text = (
        f"## Page 3\n\n{para(5)}\n\n### Log (transcribed from scan)\n\n{para(5, 10)}\n\n"
        f"## Page 4\n\n{para(5, 20)}"
    )
    chunks = s(text, 250, 60)
    for prev, c in pairwise(chunks):
        if prev.transcribed or c.transcribed:
            assert c.overlap_prefix == ""
    assert any(c.overlap_prefix for c in chunks if not c.transcribed)


# -- the runt merge -------------------------------------------------------------------
def _revenue() -> str:
    return (SAMPLES / "regional_revenue.md").read_text(encoding="utf-8")


def test_revenue_table_sheds_a_one_row_runt_without_the_runt_merge() -> None:
    chunks = s(_revenue(), 1800, 150, runt_merge="off")
    runt = chunks[-1]
    assert runt.length < 450 and runt.header_repeated
    assert runt.body.rstrip("\n").endswith("| Mumbai | FY24 | 18,412 | 4.2% |")
    assert len(runt.body.rstrip("\n").split("\n")) == 3  # header, separator, one row


def test_backward_merge_folds_the_runt_back_into_its_table() -> None:
    chunks = s(_revenue(), 1800, 150)
    table = chunks[-1]
    assert "| Mumbai | FY24 | 18,412 | 4.2% |" in table.body
    assert "| Territory (cities and depots covered) |" in table.body
    assert table.body.count("| FY24 |") == 12
    assert all(c.length >= 450 for c in chunks)
    assert 1800 < table.length <= 2249


def _runt_doc() -> str:
    # sections of ~1800, ~1800, 300 and 200 chars, as in the structural chunker's worked example
    # sections of 1781, 1781, 375 and 153 chars: the worked example's [1800, 1800, 300, 200]
    return "\n\n".join(
        [
            "## A\n\n" + para(24, 1000),
            "## B\n\n" + para(24, 2000),
            "## C\n\n" + para(5, 3000),
            "## D\n\n" + para(2, 4000),
        ]
    )


def test_sweep_direction_matters() -> None:
    text = _runt_doc()
    off = [c.length for c in s(text, 1800, runt_merge="off")]
    back = [c.length for c in s(text, 1800)]
    fwd = [c.length for c in s(text, 1800, runt_merge="forward")]
    assert off == [1781, 1781, 375, 153]
    assert back == [1781, 1781, 530]  # the runts coalesce with each other first
    assert fwd == [1781, 2158, 153]  # forward spends the merge where it was not needed
    assert s(text, 1800, runt_merge="forward")[-1].runt_excuse == "overflow"


def test_merged_chunk_carries_the_common_heading_path() -> None:
    chunks = s(_runt_doc(), 1800)
    assert chunks[-1].heading_path == ()
    assert chunks[-1].body.startswith("## C")


def test_trust_guard_refuses_and_excuses() -> None:
    text = f"## Page 1\n\n{para(5)}\n\n### Note (transcribed from scan)\n\nA short OCR line."
    chunks = s(text, 300)
    floor = ChunkOptions(size=300, overlap=0).floor
    # the OCR note is a runt, and merging it would mix guessed text into trusted text
    assert chunks[-1].transcribed and chunks[-1].length < floor
    assert not chunks[-2].transcribed and "A short OCR line." not in chunks[-2].body
    runts = [c for c in chunks if c.length < floor]
    assert runts and all(c.runt_excuse == "trust" for c in runts)


def test_overflow_guard_refuses_and_excuses() -> None:
    # a table row is indivisible: a 120-word row makes a chunk over size, and the
    # runt after it would push the merge past 125% of size
    row = "| " + " ".join(f"w{i}" for i in range(120)) + " | x |"
    text = f"| Notes | Flag |\n|---|---|\n{row}\n\n## Tail\n\nShort tail text here."
    chunks = s(text, 100, unit="words")
    assert [c.length for c in chunks] == [130, 6]
    assert chunks[-1].runt_excuse == "overflow"


def test_leading_runt_merges_forward() -> None:
    text = f"Short preface.\n\n## Body\n\n{para(3)}"
    chunks = s(text, 300)
    assert len(chunks) == 1 and chunks[0].body.startswith("Short preface.")


def test_single_chunk_document_is_emitted_whatever_its_size() -> None:
    chunks = s("Tiny.", 1800)
    assert [c.body for c in chunks] == ["Tiny."]
    assert chunks[0].runt_excuse == "single chunk"


def test_heading_only_section_stays_with_its_child() -> None:
    text = f"## Page 12\n\n### Reserved instances\n\n{para(3)}"
    chunks = s(f"{para(3)}\n\n{text}", 300)
    assert chunks[-1].body.startswith("## Page 12") and chunks[-1].page == 12
    assert not chunks[0].body.rstrip().endswith("## Page 12")


# -- parse once, pack many -----------------------------------------------------------------
def test_parse_once_pack_many_matches_chunking_from_scratch() -> None:
    text = (SAMPLES / "inspection_manual.md").read_text(encoding="utf-8")
    parsed = parse(text)
    blocks = parsed.blocks
    for size in (200, 500, 900, 1800):
        opts = ChunkOptions(size=size, overlap=size // 10)
        assert chunk_parsed(parsed, opts) == chunk(text, "structural", size, size // 10)
    assert parsed.blocks is blocks  # packing never rewrote the parse


def test_sample_documents_keep_their_spans_true() -> None:
    for path in SAMPLES.glob("*.md"):
        text = path.read_text(encoding="utf-8")
        for size in (150, 400, 1800):
            chunks = s(text, size, size // 12)
            assert_spans_true(text, chunks)
            assert lost_characters(text, chunks) == []


def test_overlap_never_starts_inside_a_word_cut_by_characters() -> None:
    # "revenue." is longer than a 7-char chunk: it is cut by characters, and the
    # overlap for the next chunk must not begin at the cut inside the word
    chunks = s("revenue. the the.", 7, 3)
    for c in chunks:
        if c.overlap_prefix:
            assert c.overlap_start == 0 or "revenue. the the."[c.overlap_start - 1].isspace()
    assert all(c.overlap_prefix != "." for c in chunks)


def test_runt_merge_measures_the_span_it_covers() -> None:
    # the blank lines between two chunks are part of the merged chunk: a merge
    # whose pieces fit the limit but whose span does not is refused
    first = para(6)[:400]
    runt = para(1, 50)[:95]
    text = f"{first}\n{chr(10) * 50}{runt}"
    opts = ChunkOptions(size=400, overlap=0)
    assert len(first) + len(runt) <= opts.effective_max < len(text)
    chunks = s(text, 400)
    assert all(c.length <= opts.effective_max for c in chunks), [c.length for c in chunks]
    assert [c.body for c in chunks] == [first, runt]
    assert chunks[-1].runt_excuse == "overflow"


def test_link_definitions_after_a_list_are_lines_a_chunk_is_cut_between() -> None:
    # a changelog ends with a definition per version: one line each, not one chunk
    links = "\n".join(f"[{i}]: https://example.com/v{i}" for i in range(40))
    text = "# Log\n\n- a\n- b\n\n" + links
    opts = ChunkOptions(size=400, overlap=40)
    chunks = s(text, 400, 40)
    assert len(chunks) > 1
    assert all(c.length <= opts.effective_max for c in chunks), [c.length for c in chunks]
    assert lost_characters(text, chunks) == []
