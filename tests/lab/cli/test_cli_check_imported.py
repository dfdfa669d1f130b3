"""`check --chunks` on what LangChain and LlamaIndex pipelines write: every chunk placed
however the splitter reshaped its text, the report saying how, and no size of ours claimed.

The LangChain dump is made here by langchain-text-splitters; LlamaIndex is not installed,
so its rows are written by hand in the shape its MarkdownNodeParser gives.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import run_cli as run

# -- a heading written with a no-break space (LangChain drops it and the line is no
# -- longer a heading), tabs inside a sentence, and indented code
DOCUMENT = (
    "# Deploy guide\n"
    "\n"
    "Deploys go out from the main branch every weekday morning after the checks pass.\n"
    "\n"
    "##\u00a0Rollback steps\n"
    "\n"
    "To roll back,\trun the rollback script below\tfrom the repository root.\n"
    "\n"
    "```python\n"
    "def rollback(tag):\n"
    "    for host in hosts():\n"
    "        host.restore(tag)\n"
    "    return True\n"
    "```\n"
    "\n"
    "A rollback takes about four minutes per host and pages the on-call engineer when it ends.\n"
    "\n"
    "## Freeze windows\n"
    "\n"
    "Nothing ships during the last week of December, when the freeze window is in force.\n"
)
ROLLBACK = "To roll back,\trun the rollback script below\tfrom the repository root."
GOLD = [
    {"question": "how do I roll back a deploy with the script?", "answer": ROLLBACK},
    {
        "question": "what does the rollback function do for each host?",
        "answer": "    for host in hosts():\n        host.restore(tag)",
    },
    {
        "question": "when is the freeze window in force?",
        "answer": "Nothing ships during the last week of December, when the freeze window is "
        "in force.",
    },
]


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def langchain_rows(**kwargs) -> list[dict]:
    from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

    headers = MarkdownHeaderTextSplitter([("#", "Header 1"), ("##", "Header 2")], **kwargs)
    sections = headers.split_text(DOCUMENT)
    splitter = RecursiveCharacterTextSplitter(chunk_size=260, chunk_overlap=0)
    return [d.model_dump() for d in splitter.split_documents(sections)]


def files(tmp_path: Path, rows: list[dict]) -> tuple[str, str, str]:
    doc = write(tmp_path / "deploy.md", DOCUMENT)
    gold = write(tmp_path / "deploy.gold.jsonl", "".join(json.dumps(g) + "\n" for g in GOLD))
    chunks = write(tmp_path / "chunks.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    return doc, gold, chunks


def check_json(capsys, tmp_path: Path, rows: list[dict], *more: str) -> dict:
    doc, gold, chunks = files(tmp_path, rows)
    code, out, err = run(capsys, "check", doc, "--gold", gold, "--chunks", chunks, "--json", *more)
    assert code in (0, 1), err
    return json.loads(out)


def test_a_langchain_markdown_dump_places_every_chunk_and_keeps_answers_intact(tmp_path, capsys):
    rows = langchain_rows()
    # -- what the splitters did: the NBSP heading and the tabs are gone, code unindented
    first = rows[0]["page_content"]
    assert "##Rollback steps" in first and "\t" not in first and "\nfor host" in first
    data = check_json(capsys, tmp_path, rows)
    imported = data["imported"]
    assert imported["unplaced"] == 0 and imported["chunks"] == len(rows)
    assert data["chunk_does_not_exist"] == 0
    assert [p["status"] for p in data["pairs"]][:2] != ["chunk does not exist"] * 2
    assert data["intact_rate"] == 1.0
    hows = [c["how"] for c in imported["placed"]]
    assert "normalised" in hows and set(hows) <= {"offsets", "exact", "normalised"}


def test_the_text_report_says_how_the_chunks_were_placed(tmp_path, capsys):
    doc, gold, chunks = files(tmp_path, langchain_rows())
    code, out, _ = run(capsys, "check", doc, "--gold", gold, "--chunks", chunks)
    assert code in (0, 1)
    (line,) = [ln for ln in out.splitlines() if ln.startswith("imported ")]
    assert "placed in the document (" in line and "normalised" in line
    assert ", 0 not placed" in line


def test_imported_chunks_claim_no_size_or_overlap(tmp_path, capsys):
    data = check_json(capsys, tmp_path, langchain_rows())
    assert data["options"]["size"] is None and data["options"]["overlap"] is None
    assert data["options"]["unit"] == "chars"


def test_langchain_headers_become_the_heading_path_and_embedded_length_is_reported(
    tmp_path, capsys
):
    rows = langchain_rows()
    data = check_json(capsys, tmp_path, rows, "--unit", "words")
    placed = data["imported"]["placed"]
    last = placed[-1]
    assert last["heading_path"] == ["Deploy guide", "Freeze windows"]
    assert last["row"] == f"row {len(rows)}"
    # -- the length of what the pipeline embeds: its own page_content, in words
    by_row = {f"row {i}": r["page_content"] for i, r in enumerate(rows, start=1)}
    assert [p["embedded_length"] for p in placed] == [len(by_row[p["row"]].split()) for p in placed]


def test_headings_the_splitter_stripped_are_not_reported_as_text_in_no_chunk(tmp_path, capsys):
    data = check_json(capsys, tmp_path, langchain_rows())
    assert not [f for f in data["imported"]["findings"] if "in no chunk" in f]
    # -- a heading no chunk names is still text in no chunk
    rows = [r for r in langchain_rows() if "Freeze windows" not in r["metadata"].values()]
    (gap,) = [f for f in check_json(capsys, tmp_path, rows)["imported"]["findings"]]
    assert "are in no chunk" in gap and "## Freeze windows" in gap


def test_a_heading_kept_in_the_text_is_not_added_again(tmp_path, capsys):
    rows = langchain_rows(strip_headers=False)
    placed = check_json(capsys, tmp_path, rows)["imported"]["placed"]
    assert placed[-1]["heading_path"] == []  # its text opens with "## Freeze windows"


def test_llamaindex_header_path_becomes_the_heading_path(tmp_path, capsys):
    freeze = DOCUMENT.index("Nothing ships")
    rows = [
        {"text": DOCUMENT[:freeze].rstrip(), "metadata": {"header_path": "/"}},
        {
            "text": DOCUMENT[freeze:].rstrip(),
            "metadata": {"header_path": "/Deploy guide/Freeze windows/"},
        },
    ]
    placed = check_json(capsys, tmp_path, rows)["imported"]["placed"]
    assert [p["heading_path"] for p in placed] == [[], ["Deploy guide", "Freeze windows"]]
    assert [p["how"] for p in placed] == ["exact", "exact"]


# -- bad input: one line on stderr, exit 2, nothing written ---------------------------------


@pytest.mark.parametrize(
    "rows, says",
    [
        (
            [{"page_content": "Totally different corpus text about gardening tomatoes."}] * 3,
            "chunks.jsonl: none of its chunks is in the document (row 1: its text is not in",
        ),
        (
            [{"text": "Deploys go out"}, {"text": " \n\t"}],
            "chunks.jsonl, row 2: the chunk text is empty",
        ),
        ([], "chunks.jsonl holds no chunks"),
    ],
)
def test_bad_chunk_files_are_refused_in_one_line(tmp_path, capsys, rows, says):
    doc, gold, chunks = files(tmp_path, rows)
    code, out, err = run(capsys, "check", doc, "--gold", gold, "--chunks", chunks, "--json")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err


def test_the_limit_is_measured_on_the_text_the_pipeline_embeds(tmp_path, capsys):
    # LangChain keeps the heading path in metadata and embeds page_content alone: the
    # longest page_content is the limit, so no chunk is over it, unless the user says
    # their pipeline embeds the headers too
    rows = langchain_rows()
    longest = max(len(r["page_content"]) for r in rows)
    data = check_json(capsys, tmp_path, rows, "--limit", str(longest))
    assert data["embedder_limit"]["over_limit"] == 0
    assert data["imported"]["headings_embedded"] is False
    assert max(p["embedded_length"] for p in data["imported"]["placed"]) == longest
    assert data["imported"]["placed"][-1]["heading_path"] == ["Deploy guide", "Freeze windows"]
    data = check_json(capsys, tmp_path, rows, "--limit", str(longest), "--embeds-headings")
    assert data["imported"]["headings_embedded"] is True
    assert data["embedder_limit"]["over_limit"] >= 1


def test_the_report_names_what_was_measured_for_imported_chunks(tmp_path, capsys):
    doc, gold, chunks = files(tmp_path, langchain_rows())
    _, out, _ = run(capsys, "check", doc, "--gold", gold, "--chunks", chunks)
    assert "measured on the text the pipeline embeds (each row's own text)" in out
    _, out, _ = run(capsys, "check", doc, "--gold", gold, "--chunks", chunks, "--embeds-headings")
    assert "with its heading path (--embeds-headings)" in out


def test_embeds_headings_without_imported_chunks_is_one_line(tmp_path, capsys):
    doc, gold, _ = files(tmp_path, langchain_rows())
    code, _, err = run(capsys, "check", doc, "--gold", gold, "--embeds-headings")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert err.strip().endswith("use it with --chunks")
    argv = ["diff", doc, "--a", "structural:chars:400:0", "--b", "fixed:chars:400:0"]
    code, _, err = run(capsys, *argv, "--embeds-headings")
    assert code == 2 and err.strip().endswith("use it with a chunks:FILE side")


def test_the_diff_counts_an_imported_side_against_the_limit_on_what_it_embeds(tmp_path, capsys):
    rows = langchain_rows()
    longest = max(len(r["page_content"]) for r in rows)
    doc, _, chunks = files(tmp_path, rows)
    argv = ["diff", doc, "--a", f"chunks:{chunks}", "--b", "structural:chars:400:0"]
    argv += ["--embedder-limit", str(longest), "--format", "json"]
    code, out, err = run(capsys, *argv)
    assert code in (0, 1), err
    assert json.loads(out)["embedder_limit"]["a"] == 0
    code, out, _ = run(capsys, *argv, "--embeds-headings")
    assert json.loads(out)["embedder_limit"]["a"] >= 1
