"""The web-article benchmark reads trafilatura's evaluation layout (evaldata.json,
eval/ and cache/), says one line without it, and counts what each extractor keeps."""

from __future__ import annotations

import json
from pathlib import Path

from bench.web_articles import main, plain

PAGE = """<html><body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>River levels fall</h1>
<p>The river fell by a metre overnight, the agency said, and the warning was lifted.</p>
<p>Residents may return to their homes from noon, once the roads are checked.</p></article>
<aside><h2>Related</h2><p><a href="/a">Storm season begins early this year</a></p></aside>
</body></html>"""


def test_without_the_data_it_says_one_line_and_exits_2(tmp_path: Path, capsys) -> None:
    assert main([str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "evaldata.json" in err


def test_it_counts_the_articles_snippets_kept_and_the_sites_present(tmp_path, capsys) -> None:
    (tmp_path / "eval").mkdir()
    (tmp_path / "eval" / "river.html").write_text(PAGE, encoding="utf-8")
    item = {
        "file": "river.html",
        "with": ["the warning was lifted", "Residents may return"],
        "without": ["Storm season begins early"],
    }
    (tmp_path / "evaldata.json").write_text(json.dumps({"https://x/river": item}))
    assert main([str(tmp_path), "--only", "ours", "whole page"]) == 0
    rows = {line[:32].strip(): line.split() for line in capsys.readouterr().out.splitlines()}
    assert rows["ours"][1:5] == ["100.0", "%", "0.0", "%"]  # both kept, the related list not
    assert rows["whole page"][2:6] == ["100.0", "%", "100.0", "%"]


def test_a_snippet_is_read_as_a_reader_reads_the_markdown() -> None:
    markdown = 'Get it [here](https://x.org/a_(b) "t"), **now**: ![logo](image) \\_done'
    # a link's target and title, emphasis, a picture and escapes (underscores too, on
    # the snippet's side as on the output's) are not what a reader reads
    assert plain(markdown) == "get it here, now: done"
