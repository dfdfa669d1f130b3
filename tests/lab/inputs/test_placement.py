"""Importing chunks made elsewhere: placed exactly, gaps and overlaps reported, bad files refused.

The LangChain and Chonkie dumps are made here, by those libraries, from a sample document.
"""

from __future__ import annotations

import csv
import io
import json
import time

import pytest

from chunkers import ChunkOptions, chunk_with
from lab.inputs.exports import chunking_config, to_csv, to_jsonl
from lab.inputs.placement import (
    EXACT,
    NORMALISED,
    OFFSETS,
    PARTLY,
    ChunkOrigin,
    PlacementError,
    drop_whitespace,
    import_chunk_folder,
    import_chunks,
    read_rows,
)
from lab.text import collapse_whitespace
from tests.support import SAMPLES, assert_spans_true, lost_characters

DOC_NAME = "release_handbook.md"
TEXT = (SAMPLES / DOC_NAME).read_text(encoding="utf-8")


def jsonl(objs) -> str:
    return "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objs)


def assert_placed_whole(placement, text=TEXT):
    """Every chunk placed, the document covered, spans true to the text."""
    assert placement.unplaced == [] and placement.gaps == []
    assert_spans_true(text, placement.chunks)
    assert lost_characters(text, placement.chunks) == []


# -- made by the libraries ------------------------------------------------------------


def langchain_documents(**kwargs):
    from langchain_core.documents import Document
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(chunk_size=400, chunk_overlap=80, **kwargs)
    return splitter.split_documents([Document(page_content=TEXT, metadata={"source": DOC_NAME})])


def test_a_langchain_document_dump_places_every_chunk_at_its_start_index():
    docs = langchain_documents(add_start_index=True)
    placement = import_chunks(jsonl(d.model_dump() for d in docs), TEXT, "chunks.jsonl")
    assert_placed_whole(placement)
    assert len(placement.chunks) == len(docs)
    assert {s.how for s in placement.sources} == {OFFSETS}
    # what each chunk indexes (overlap + body) is the splitter's own text, and metadata is kept
    assert [c.retrievable_text for c in placement.chunks] == [d.page_content for d in docs]
    assert [s.metadata for s in placement.sources] == [d.metadata for d in docs]
    assert placement.sources[0].where == "row 1"


def test_a_langchain_dump_without_offsets_is_found_by_its_text():
    docs = langchain_documents()
    as_array = json.dumps([d.model_dump() for d in docs])  # json.dump(list) rather than lines
    placement = import_chunks(as_array, TEXT, "chunks.json")
    assert_placed_whole(placement)
    assert {s.how for s in placement.sources} == {EXACT}
    assert [c.retrievable_text for c in placement.chunks] == [d.page_content for d in docs]
    assert placement.overlaps, "the splitter's 80-character overlap is reported as overlap"
    assert all(o.where != o.other for o in placement.overlaps)


def test_langchain_serialised_with_to_json_is_read_too():
    docs = langchain_documents()
    placement = import_chunks(jsonl(d.to_json() for d in docs), TEXT, "chunks.jsonl")
    assert_placed_whole(placement)
    assert len(placement.chunks) == len(docs)


@pytest.mark.parametrize("overlap", [0, 60])
def test_a_chonkie_chunk_dump_places_every_chunk(overlap):
    from chonkie import RecursiveChunker, TokenChunker

    if overlap:
        made = TokenChunker(tokenizer="character", chunk_size=300, chunk_overlap=overlap)
    else:
        made = RecursiveChunker(chunk_size=300)
    chunks = made.chunk(TEXT)
    placement = import_chunks(jsonl(c.to_dict() for c in chunks), TEXT, "chonkie.jsonl")
    assert_placed_whole(placement)
    assert {s.how for s in placement.sources} == {OFFSETS}
    assert [c.retrievable_text for c in placement.chunks] == [c.text for c in chunks]
    assert bool(placement.overlaps) == bool(overlap)


def test_a_llamaindex_node_dump_is_read_with_its_char_offsets():
    # TextNode.to_dict(): the fields llama-index-core writes (embedding and relationships trimmed)
    parts = [(0, 900), (900, 2000), (2000, len(TEXT))]
    nodes = [
        {
            "id_": f"node-{i}",
            "embedding": None,
            "metadata": {"file_name": DOC_NAME},
            "excluded_embed_metadata_keys": [],
            "excluded_llm_metadata_keys": [],
            "relationships": {},
            "metadata_template": "{key}: {value}",
            "metadata_separator": "\n",
            "text": TEXT[s:e],
            "mimetype": "text/plain",
            "start_char_idx": s,
            "end_char_idx": e,
            "text_template": "{metadata_str}\n\n{content}",
            "class_name": "TextNode",
        }
        for i, (s, e) in enumerate(parts)
    ]
    placement = import_chunks(jsonl(nodes), TEXT, "nodes.jsonl")
    assert_placed_whole(placement)
    assert [(c.start, c.end) for c in placement.chunks] == parts
    assert placement.sources[2].metadata == {"file_name": DOC_NAME}


# -- placing --------------------------------------------------------------------------


def test_repeated_passages_land_on_successive_copies():
    para = "The rollback checklist: freeze deploys, page the owner, restore the snapshot."
    text = "\n\n".join([para, "Intro to the second copy.", para, "Third.", para])
    parts = text.split("\n\n")
    placement = import_chunks(jsonl({"text": p} for p in parts), text, "chunks.jsonl")
    assert_placed_whole(placement, text)
    starts, pos = [], 0
    for part in parts:
        starts.append(pos)
        pos += len(part) + 2
    assert [c.start for c in placement.chunks] == starts
    assert placement.overlaps == [] and placement.contained == []


def test_whitespace_normalised_text_maps_back_to_exact_source_spans():
    text = "# Title\r\n\r\nFirst  line\nwraps here.\n\n- item one\n- item two\n"
    rows = [{"text": "# Title First line wraps here."}, {"text": "- item one\n\n- item two"}]
    placement = import_chunks(jsonl(rows), text, "chunks.jsonl")
    assert_placed_whole(placement, text)
    assert [s.how for s in placement.sources] == [NORMALISED, NORMALISED]
    first, second = placement.chunks
    assert first.body == "# Title\r\n\r\nFirst  line\nwraps here."
    assert second.body == "- item one\n- item two"
    assert collapse_whitespace(first.body) == rows[0]["text"]


def test_placing_drops_the_spaces_an_answer_keeps_as_one():
    # -- two whitespace rules: a chunk is placed even where its splitter lost or re-joined
    # -- spaces ("ab" is "a b"), while an answer's words must stay apart to count as intact
    text = "Run\tthe\u00a0tool\n  now\u200b"
    assert drop_whitespace(text) == "Runthetoolnow"
    assert collapse_whitespace(text) == "Run the tool now\u200b"
    assert drop_whitespace("a b") == drop_whitespace("ab")
    assert collapse_whitespace("a b") != collapse_whitespace("ab")


def test_what_splitters_drop_is_normalised_by_one_rule():
    # -- a NBSP heading, tabs, indented code, a zero-width space; the chunk as LangChain's
    # -- MarkdownHeaderTextSplitter writes it: stripped lines joined by "  \n"
    text = "##\u00a0Setup\n\nRun\tthe tool:\n\n    make\u200b build\n        --fast\n\nDone.\n"
    rows = [{"text": "##Setup  \nRunthe tool:"}, {"text": "make build\n--fast"}]
    placement = import_chunks(jsonl(rows + [{"text": "Done."}]), text, "chunks.jsonl")
    assert placement.unplaced == []
    assert [s.how for s in placement.sources] == [NORMALISED, NORMALISED, EXACT]
    assert [c.body for c in placement.chunks] == [
        "##\u00a0Setup\n\nRun\tthe tool:",
        "make\u200b build\n        --fast",
        "Done.",
    ]


def test_a_chunk_with_edges_of_its_own_is_placed_partly():
    start = TEXT.index(" ", 500) + 1
    end = TEXT.index(" ", 1200)
    rows = [
        {"text": "Rollback notes:\n" + TEXT[start:end]},
        {"text": TEXT[end:1600] + " (see below)"},
    ]
    placement = import_chunks(jsonl(rows), TEXT, "chunks.jsonl")
    assert [s.how for s in placement.sources] == [PARTLY, PARTLY]
    assert [(c.start, c.end) for c in placement.chunks] == [(start, end), (end + 1, 1600)]


def test_hundreds_of_reshaped_chunks_place_in_a_moment():
    docs = [
        (SAMPLES / n).read_text(encoding="utf-8")
        for n in sorted(p.name for p in SAMPLES.glob("*.md"))
    ]
    text = "\n\n".join(docs) * 3  # -- repeated: each copy's chunks land on their own copy
    words = text.split(" ")
    pieces = [" ".join(words[i : i + 12]) for i in range(0, len(words), 12)]
    # -- reshaped as a splitter would: lines stripped and re-joined
    rows = [{"text": "  \n".join(ln.strip() for ln in p.splitlines())} for p in pieces]
    assert len(rows) > 500
    began = time.perf_counter()
    placement = import_chunks(jsonl(rows), text, "chunks.jsonl")
    assert time.perf_counter() - began < 10
    assert placement.unplaced == [] and len(placement.chunks) == len(rows)
    assert placement.chunks[-1].end == len(text.rstrip())


def test_offsets_that_do_not_match_fall_back_to_search():
    rows = [{"text": TEXT[100:300], "start": 0, "end": 200}]
    placement = import_chunks(jsonl(rows), TEXT, "chunks.jsonl")
    (c,) = placement.chunks
    assert (c.start, c.end, placement.sources[0].how) == (100, 300, EXACT)


def test_unplaced_chunks_and_uncovered_text_are_reported_with_row_numbers():
    paras = TEXT.split("\n\n")
    rows = [{"page_content": p} for p in paras[:3]]
    rows.append({"page_content": "A sentence this document never says."})
    rows += [{"page_content": p} for p in paras[4:]]  # paras[3] is in no chunk
    placement = import_chunks(jsonl(rows), TEXT, "chunks.jsonl")
    assert [(u.where, u.reason) for u in placement.unplaced] == [
        ("row 4", "its text is not in the document: 'A sentence this document never says.'")
    ]
    (gap,) = placement.gaps
    assert TEXT[gap.start : gap.end] == paras[3].strip()
    assert (gap.where, gap.other) == ("row 3", "row 5")
    lines = placement.report(TEXT)
    assert lines[0].startswith("row 4: not placed: its text is not in the document: 'A sentence")
    assert "are in no chunk (near row 3 and row 5)" in lines[1]
    assert all("\n" not in line for line in lines)


def test_a_chunk_inside_another_is_reported_not_lost():
    rows = [{"text": TEXT[:1000]}, {"text": TEXT[200:400]}, {"text": TEXT[1000:]}]
    placement = import_chunks(jsonl(rows), TEXT, "chunks.jsonl")
    assert_placed_whole(placement)
    assert len(placement.chunks) == 2
    (inside,) = placement.contained
    assert (inside.where, inside.other, inside.start, inside.end) == ("row 2", "row 1", 200, 400)
    assert "row 2 lies wholly inside row 1" in placement.report(TEXT)[0]


def test_a_csv_of_chunks_with_metadata_places_and_keeps_it():
    docs = langchain_documents(add_start_index=True)
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["page_content", "metadata"])
    for d in docs:
        w.writerow([d.page_content, json.dumps(d.metadata)])
    placement = import_chunks(buf.getvalue().encode("utf-8"), TEXT, "chunks.csv")
    assert_placed_whole(placement)
    assert placement.sources[1].where == "row 3"  # the header is row 1
    assert placement.sources[1].metadata == docs[1].metadata


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_the_labs_own_export_imports_as_the_same_chunks(fmt):
    opts = ChunkOptions(size=300, overlap=40, unit="chars")
    chunks = chunk_with(TEXT, "structural", opts)
    cfg = chunking_config(DOC_NAME, TEXT, "structural", opts)
    data = to_jsonl(chunks, cfg) if fmt == "jsonl" else to_csv(chunks, cfg)
    placement = import_chunks(data, TEXT, f"export.{fmt}")
    assert [(c.start, c.end, c.heading_path) for c in placement.chunks] == [
        (c.start, c.end, c.heading_path) for c in chunks
    ]
    assert {s.how for s in placement.sources} == {OFFSETS}


def test_lengths_are_in_the_unit_asked_for():
    rows = [{"text": p} for p in TEXT.split("\n\n")]
    words = import_chunks(jsonl(rows), TEXT, "c.jsonl", unit="words")
    assert [c.length for c in words.chunks] == [len(c.body.split()) for c in words.chunks]


# -- bad input: one line naming the problem and the fix ----------------------------------


def one_line_error(source, text=TEXT, name="chunks.jsonl") -> str:
    with pytest.raises(PlacementError) as exc:
        import_chunks(source, text, name)
    message = str(exc.value)
    assert "\n" not in message
    return message


def test_no_text_column():
    message = one_line_error(jsonl([{"body_text": "x", "id": 1}]))
    assert message == (
        "chunks.jsonl, row 1: no chunk text (found 'body_text', 'id'); "
        "name the text column text, page_content or content"
    )
    message = one_line_error(b"chunk,source\nhello,a.md\n", name="chunks.csv")
    assert message.startswith("chunks.csv, row 2: no chunk text (found 'chunk', 'source'); name")


def test_a_chunk_longer_than_the_document():
    message = one_line_error(jsonl([{"text": TEXT + " and more"}]))
    assert message.startswith("row 1: the chunk is longer than the document (")
    assert message.endswith("import it with the document it was made from")


def test_a_file_that_is_not_utf8():
    data = jsonl([{"text": "caf\u00e9 au lait"}]).encode("cp1252")
    message = one_line_error(data)
    assert message == (
        "chunks.jsonl is not UTF-8 (byte 0xE9 at offset 13; it looks like Windows-1252); "
        "save the chunk file as UTF-8 and import it again"
    )


def test_malformed_json_on_a_line():
    data = jsonl([{"text": "a"}, {"text": "b"}]) + '{"text": "c",}\n'
    message = one_line_error(data)
    assert message.startswith("chunks.jsonl, line 3: not JSON (")
    assert message.endswith("each line of a JSON Lines file must be one JSON object")


@pytest.mark.parametrize(
    "row, says",
    [
        ({"text": "a", "start": "ten"}, "row 1: start must be a character offset"),
        ({"text": "a", "start_char_idx": -3}, "row 1: start_char_idx must be a character offset"),
        ({"text": 12}, "row 1: the chunk text must be a string, got int"),
        (["text", "a"], "row 1: expected a JSON object with the chunk's text, got list"),
    ],
)
def test_bad_rows(row, says):
    assert says in one_line_error(jsonl([row]))


def test_an_empty_file():
    assert one_line_error(b"\n\n") == (
        "chunks.jsonl holds no chunks; export at least one chunk into it"
    )


def test_rows_read_without_a_document():
    rows = read_rows(jsonl([{"content": "x", "metadata": {"a": 1}, "start": 3, "end": 4}]), "f")
    assert [(r.where, r.text, r.start, r.end, r.metadata) for r in rows] == [
        ("row 1", "x", 3, 4, {"a": 1})
    ]


def test_a_folders_rows_go_to_the_document_their_source_names(tmp_path) -> None:
    # -- matched on whole path names, from the end: a dot-folder keeps its dot, a
    # -- Windows path and "./" are read as paths, and a/index.md stays apart from b's
    documents = {
        ".github/CONTRIBUTING.md": "Open an issue first.",
        "CONTRIBUTING.md": "Read the guide.",
        "a/index.md": "Alpha page.",
        "b/index.md": "Beta page.",
    }
    rows = [
        ("Open an issue first.", ".github/CONTRIBUTING.md"),
        ("Read the guide.", "./CONTRIBUTING.md"),
        ("Alpha page.", "a/index.md"),
        ("Beta page.", "C:\\repo\\b\\index.md"),
    ]
    path = tmp_path / "folder.jsonl"
    path.write_text(
        "".join(json.dumps({"text": t, "metadata": {"source": s}}) + "\n" for t, s in rows),
        encoding="utf-8",
    )
    placed = import_chunk_folder(path, documents)
    assert {n: [c.body for c in p.chunks] for n, p in placed.items()} == {
        n: [text] for n, text in documents.items()
    }
    assert all(not p.unplaced for p in placed.values())


@pytest.mark.parametrize(
    ("spec", "name", "imported"),
    [
        ("structural", "structural", False),
        ("chunks:my_chunks.jsonl", "my_chunks.jsonl", True),
        ("chunks:a:b.jsonl", "a:b.jsonl", True),  # a file's name may hold a colon
        ("chunks", "", True),  # the app's choice before a file is named
    ],
)
def test_a_chunk_origin_is_a_strategy_or_a_chunk_file(spec, name, imported):
    origin = ChunkOrigin.named(spec)
    assert (origin.name, origin.imported) == (name, imported)
    assert str(origin) == (spec if spec != "chunks" else "chunks:")
