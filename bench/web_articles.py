"""A web page's article: how much of it each extractor keeps, and how much of the
site around it comes along.

    python -m bench.web_articles TESTS_DIR             # every page, every extractor
    python -m bench.web_articles TESTS_DIR --max-kb 150 --only ours trafilatura

TESTS_DIR is the ``tests`` folder of trafilatura's repository (Apache-2.0): its
``evaldata.json`` names, for each saved page under ``eval/`` or ``cache/``, a few
snippets that are the article's ("with") and a few that are the site's ("without":
menus, "related" lists, dates, share links). A snippet counts as present when its
words appear in the output in order (spacing, case, Markdown's escapes and a link's
target aside). Printed per extractor: the share of "with" snippets kept, of
"without" snippets present, the same two weighted by the snippets' words, the
pages it refused or failed on, and its time against ours on the same pages.

The set was made by trafilatura's author to evaluate trafilatura: read its
figures as a favourable ground for it, ours as measured on someone else's ground.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from lab.inputs.convert.html import html_text, html_to_markdown  # noqa: E402

Extractor = Callable[[bytes], str]


def _ours(data: bytes) -> str:
    return html_to_markdown(html_text(data, "page"), web_page=True)


def _whole(data: bytes) -> str:
    """Every word of the page but its scripts, header, footer and navigation: the floor."""
    return html_to_markdown(html_text(data, "page"))


def _trafilatura(**options: Any) -> Extractor:
    def run(data: bytes) -> str:
        import trafilatura

        return trafilatura.extract(data, include_comments=False, **options) or ""

    return run


_TRAF_MD: dict[str, Any] = {
    "output_format": "markdown",
    "include_tables": True,
    "include_links": True,
    "include_images": True,
    "include_formatting": True,
}


def _readability(data: bytes) -> str:
    from readability import Document  # type: ignore[import-untyped]

    summary = Document(html_text(data, "page")).summary(html_partial=True)
    return html_to_markdown(summary)


def _trafilatura_body(**options: Any) -> Extractor:
    """trafilatura's choice of the article, as HTML, then our Markdown conversion."""

    def run(data: bytes) -> str:
        import trafilatura

        body = trafilatura.extract(
            data, include_comments=False, **_TRAF_MD | options | {"output_format": "html"}
        )
        return html_to_markdown(body) if body else ""

    return run


EXTRACTORS: dict[str, Extractor] = {
    "ours": _ours,
    "whole page": _whole,
    "trafilatura": _trafilatura(include_tables=True),
    "trafilatura md": _trafilatura(**_TRAF_MD),
    "trafilatura md recall": _trafilatura(**_TRAF_MD, favor_recall=True),
    "trafilatura md precision": _trafilatura(**_TRAF_MD, favor_precision=True),
    "readability-lxml": _readability,
    "trafilatura body + ours": _trafilatura_body(),
    "trafilatura recall body + ours": _trafilatura_body(favor_recall=True),
}

_TARGET = r"\((?:<[^>]*>|[^()\s]*(?:\([^()]*\)[^()\s]*)*)(?:\s+\"[^\"]*\")?\)"
_IMAGE = re.compile(r"!\[[^\]]*\]" + _TARGET)
_LINK_TARGET = re.compile(r"(?<=\])" + _TARGET)
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_MARKS = re.compile(r"[*_|`\[\]]|^#{1,6} ", re.M)


def plain(text: str) -> str:
    """What a reader reads: Markdown's escapes, emphasis, table bars, pictures and a
    link's target aside (the snippets are read the same way)."""
    text = _LINK_TARGET.sub("", _IMAGE.sub(" ", unicodedata.normalize("NFC", text)))
    return " ".join(_MARKS.sub("", _ESCAPE.sub(r"\1", text)).split()).casefold()


def _norm(text: str) -> str:
    return " ".join(_ESCAPE.sub(r"\1", unicodedata.normalize("NFC", text)).split()).casefold()


def present(snippet: str, output: str, reading: str) -> bool:
    return _norm(snippet) in output or plain(snippet) in reading


@dataclass
class Tally:
    kept: int = 0
    withs: int = 0
    kept_words: int = 0
    with_words: int = 0
    site: int = 0
    withouts: int = 0
    site_words: int = 0
    without_words: int = 0
    failed: list[str] = field(default_factory=list)
    seconds: float = 0.0
    by_page: dict[str, tuple[int, int]] = field(default_factory=dict)  # article's, site's lost

    def add(self, file: str, item: dict[str, Any], output: str) -> None:
        normed, reading = _norm(output), plain(output)
        kept, site = self.kept, self.site
        for snippet in item["with"]:
            words = len(snippet.split())
            self.withs += 1
            self.with_words += words
            if present(snippet, normed, reading):
                self.kept += 1
                self.kept_words += words
        for snippet in item["without"]:
            words = len(snippet.split())
            self.withouts += 1
            self.without_words += words
            if present(snippet, normed, reading):
                self.site += 1
                self.site_words += words
        self.by_page[file] = (len(item["with"]) - self.kept + kept, self.site - site)


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f} %" if whole else "    -  "


def pages(tests: Path, max_kb: float | None) -> list[tuple[str, dict[str, Any], bytes]]:
    data = json.loads((tests / "evaldata.json").read_text(encoding="utf-8"))
    found = []
    for url in sorted(data):
        item = data[url]
        for folder in ("cache", "eval"):
            path = tests / folder / item["file"]
            if path.is_file():
                break
        else:
            continue
        if max_kb is not None and path.stat().st_size > max_kb * 1024:
            continue
        found.append((item["file"], item, path.read_bytes()))
    return found


def measure(
    names: Sequence[str], corpus: list[tuple[str, dict[str, Any], bytes]]
) -> dict[str, Tally]:
    tallies = {name: Tally() for name in names}
    for name in names:
        extract, tally = EXTRACTORS[name], tallies[name]
        try:
            extract(corpus[0][2])  # imports and first-call set-up are not the page's time
        except Exception:
            pass
        for file, item, data in corpus:
            start = time.perf_counter()
            try:
                output = extract(data)
            except Exception:  # a refusal or a crash: the page is lost, say which
                output = ""
                tally.failed.append(file)
            tally.seconds += time.perf_counter() - start
            tally.add(file, item, output)
    return tallies


def report(tallies: dict[str, Tally], pages_measured: int) -> str:
    base = tallies.get("ours")
    lines = [
        f"{pages_measured} pages. kept: the article's snippets in the output; site: the "
        "site's snippets in it (lower is better); by words: weighted by snippet length",
        f"{'extractor':32}  {'kept':>7}  {'site':>7}  {'kept w.':>7}  {'site w.':>7}"
        f"  {'failed':>6}  {'seconds':>7}  {'x ours':>6}",
    ]
    for name, t in tallies.items():
        ratio = f"{t.seconds / base.seconds:6.2f}" if base and base.seconds else "     -"
        lines.append(
            f"{name:32}  {_share(t.kept, t.withs)}  {_share(t.site, t.withouts)}  "
            f"{_share(t.kept_words, t.with_words)}  {_share(t.site_words, t.without_words)}  "
            f"{len(t.failed):6}  {t.seconds:7.1f}  {ratio}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tests", nargs="?", type=Path, help="trafilatura's tests folder")
    parser.add_argument("--max-kb", type=float, help="only pages up to this size")
    parser.add_argument("--only", nargs="+", choices=list(EXTRACTORS), metavar="NAME")
    parser.add_argument(
        "--pages", type=Path, help="write each page's article snippets lost and site's kept"
    )
    args = parser.parse_args(argv)
    tests: Path | None = args.tests
    if tests is not None and tests.is_file():
        tests = tests.parent
    if tests is None or not (tests / "evaldata.json").is_file():
        print(
            "give the tests folder of trafilatura's repository (its evaldata.json, "
            "eval/ and cache/)",
            file=sys.stderr,
        )
        return 2
    corpus = pages(tests, args.max_kb)
    tallies = measure(args.only or list(EXTRACTORS), corpus)
    print(report(tallies, len(corpus)))
    if args.pages:
        by_page = {name: t.by_page for name, t in tallies.items()}
        args.pages.write_text(json.dumps(by_page, ensure_ascii=False, indent=0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
