"""The article of a web page: its main text, without the site around it
(navigation, banners, cookie notices, share buttons, "related" lists, comments).

trafilatura (Apache-2.0, offline: it reads the page it is given and nothing else)
says which words of the page are its article; measured on its evaluation pages it
keeps more of the article and less of the site than rules of our own did
(docs/limits.md). Its own output flattens what we keep (a plain ``pre`` becomes a
quote), so it only chooses: the page's own elements that hold those words are kept
and the rest dropped, and the Markdown is made from the page as it was written.

An element is kept whole when its words are a run of the article's words (a short
one, under four words, only when it is a whole line of the article: a menu's "Home"
is not the article because the article says "home"). Otherwise its children are
judged one by one, the text and inline elements between two blocks as one
paragraph. A paragraph, a table row, a data table and a ``pre`` are kept or dropped
whole: kept when most of their runs of four words are the article's (trafilatura
left out a link or a line of it); a layout table, whose cells hold paragraphs, is
judged cell by cell. A picture is kept when the element around it is. The page's
title heading is put back when the kept text has none. When trafilatura finds no
article the page is kept whole: a short page is all article.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from typing import Any

from chunkers.scripts import word_spans

# what is not part of a word when text is compared: punctuation and marks (the words
# themselves are the chunker's: each ideograph or kana one, a katakana run one)
_NOT_WORD = re.compile(r"\W+")
_SHORT = 4  # fewer words than this: kept only as a whole line of the article
_RUN = 4  # words: a paragraph is found in the article by its runs of this many words
_MOSTLY = 0.5  # a paragraph this much of whose runs are the article's is kept
_WHOLE = frozenset({"tr", "table", "pre"})  # half a row or half a code block is no use
# a table whose cells hold these is the page's layout, not data: judged cell by cell
_LAYOUT = ("p", "div", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote")
_BLOCKS = tuple(
    "address article aside blockquote dd details dialog div dl dt fieldset figcaption "
    "figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table "
    "tbody thead tfoot tr td th ul".split()
)
_BREAKS = frozenset((*_BLOCKS, "br", "img"))
# trafilatura logs a page it finds nothing in; a converter says its one line or nothing
logging.getLogger("trafilatura").addHandler(logging.NullHandler())


class _Article:
    """The article's words as one run (to find a passage in), as lines, and as the
    runs of four words it holds (to find a paragraph it quotes with a change)."""

    def __init__(self, text: str) -> None:
        words = _words(text)
        self.run = f" {words} "
        self.lines = {_words(line) for line in text.splitlines()}
        self.fours = set(_fours(words.split()))

    def holds(self, words: str) -> bool:
        if words in self.lines:
            return True
        return len(words.split()) >= _SHORT and f" {words} " in self.run

    def mostly_holds(self, words: str) -> bool:
        """Most of a paragraph is the article's: trafilatura left out a link or a
        line of it, or set its lines apart."""
        fours = _fours(words.split())
        return bool(fours) and sum(f in self.fours for f in fours) >= _MOSTLY * len(fours)


def _fours(words: list[str]) -> list[tuple[str, ...]]:
    return [tuple(words[i : i + _RUN]) for i in range(len(words) - _RUN + 1)]


def _words(text: str) -> str:
    """Words as compared: a letter written as two code points (u and a combining
    diaeresis) is the letter a reader sees."""
    plain = _NOT_WORD.sub(" ", unicodedata.normalize("NFC", text).casefold())
    return " ".join(plain[a:b] for a, b in word_spans(plain))


def _text(element: Any) -> str:
    """The text of ``element``: its blocks apart, but a word split by inline markup
    (``<span>Messenger</span>dienst``) one word, as a reader reads it."""
    from bs4 import NavigableString

    parts: list[str] = []
    for node in element.descendants:
        if type(node) is NavigableString:  # not a comment or a doctype
            before = getattr(node.previous_sibling, "name", None)
            parts.append(f" {node}" if before in _BREAKS else node)
        elif node.name in _BREAKS:
            parts.append(" ")
    return "".join(parts)


def _said(element: Any) -> str:
    return _words(_text(element))


def article_text(html: str) -> str | None:
    """trafilatura's reading of the page's article as plain text; None when it finds none."""
    import trafilatura

    return trafilatura.extract(
        html, include_comments=False, include_tables=True, with_metadata=False
    )


class _Judge:
    """Decides, element by element, what of a page is the article; what is not goes
    to ``drops``. Which elements hold blocks, pictures or a layout's blocks is found
    once, from the bottom up, not asked of every element again."""

    def __init__(self, root: Any, article: _Article) -> None:
        self.article = article
        self.drops: list[Any] = []
        self.with_blocks = _holders(root, frozenset(_BLOCKS))
        self.with_pictures = _holders(root, frozenset({"img"}))
        self.with_layout = _holders(root, frozenset(_LAYOUT))

    def element(self, element: Any) -> bool | None:
        """None, none of ``element`` is the article (the caller drops it); False, a
        picture with no words; True, words of the article, its other parts dropped."""
        words = _said(element)
        if not words:
            return False if element.name == "img" or id(element) in self.with_pictures else None
        if self.article.holds(words):
            return True
        if id(element) not in self.with_blocks or (  # a paragraph, a row, code: whole
            element.name in _WHOLE
            and (element.name == "pre" or id(element) not in self.with_layout)
        ):
            return True if self.article.mostly_holds(words) else None
        said = False
        line: list[Any] = []  # text and inline elements between two blocks: one paragraph
        for child in [*element.children, None]:
            if child is not None and self._inline(child):
                line.append(child)
                continue
            said = self._line(line) or said
            line = []
            if child is None:
                break
            verdict = self.element(child)
            if verdict is None:
                self.drops.append(child)
            said = said or verdict is True
        return said or None

    def _inline(self, node: Any) -> bool:
        if node.name is None:
            return True  # text, or a comment
        return node.name not in _BLOCKS and id(node) not in self.with_blocks

    def _line(self, line: list[Any]) -> bool:
        """Whether a paragraph written without a block around it is the article's; if
        not, its pieces are dropped."""
        from bs4 import NavigableString

        text = "".join(
            str(n) if type(n) is NavigableString else " " if n.name in _BREAKS else _text(n)
            for n in line
            if n.name is not None or type(n) is NavigableString
        )
        words = _words(text)
        if not words:
            return False
        if self.article.holds(words) or self.article.mostly_holds(words):
            return True
        self.drops.extend(line)
        return False


def _holders(root: Any, names: frozenset[str]) -> set[int]:
    """The elements that hold an element of one of these names, at any depth (one
    walk: bs4's own search builds a matcher per call that costs more than the walk)."""
    holders: set[int] = set()
    for found in root.descendants:
        if found.name not in names:
            continue
        for parent in found.parents:
            if id(parent) in holders:
                break  # and so its ancestors already
            holders.add(id(parent))
    return holders


def article(soup: Any, html: str) -> Any:
    """The page's article: what of ``soup`` trafilatura reads as the article in the
    page's ``html`` (as written: its parser mends a broken page its own way)."""
    root = soup.body or soup
    # a fragment without a body loses its headings to trafilatura: give it a page
    text = article_text(html if soup.body else f"<html><body>{html}</body></html>")
    if not text:
        return root  # no article found: all of the page
    judge = _Judge(root, _Article(text))
    if not judge.element(root):
        return root  # none of the article's words found again: all of it
    drops = judge.drops
    dropped = {id(node) for node in drops}
    title = root.find("h1")
    if title is not None and any(id(n) in dropped for n in (title, *title.parents)):
        title.extract()  # put back at the top if the kept text has no title of its own
    else:
        title = None
    for node in drops:
        node.extract()
    if title is not None and root.find("h1") is None:
        root.insert(0, title)
    return root
