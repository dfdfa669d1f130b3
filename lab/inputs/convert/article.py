"""The article of a web page: its main text, without the site around it
(navigation, banners, cookie notices, share buttons, "related" lists, comments).

Three steps, each a rule a reader would name:
1. Drop what is never the article: elements by their tag (``nav``, ``aside``,
   ``form``...), by their ARIA role (navigation, banner, complementary...), hidden
   ones, and those whose class or id says they are site furniture (cookie, consent,
   share, related, newsletter, breadcrumb, comments...).
2. Find the article: every paragraph gives its parent a score by its length and
   commas (and half of it to its grandparent), less the share of its text in
   links; the best-scoring element is the article's body. An ``article`` or
   ``main`` element around it that is not much larger is taken instead (it holds
   the title and the lead).
3. Keep the page's title heading when the body has none.

A page with no paragraphs to score (a list, a table, a short page) is kept whole,
less step 1's furniture.
"""

from __future__ import annotations

import re
from typing import Any

_NEVER = ("nav", "aside", "form", "dialog", "button", "iframe", "svg", "select", "menu")
_ROLES = frozenset(
    "navigation banner contentinfo complementary search dialog alertdialog menu menubar".split()
)
_FURNITURE = re.compile(
    r"cookie|consent|gdpr|newsletter|subscri|share|sharing|social|related|recommend|"
    r"sidebar|breadcrumb|skip|navbar|menu|promo|advert|sponsor|comment|popup|modal|"
    r"pagination|pager|signup|login|paywall|outbrain|taboola|footer|masthead",
    re.I,
)
_ALWAYS = re.compile(r"related|recommend|cookie|consent|gdpr|comment|newsletter|breadcrumb", re.I)
_CONTENT = re.compile(r"article|body|content|main|post|entry|text|story|column", re.I)
_COMMENTS = re.compile(r"comment|cookie|consent|gdpr", re.I)  # dropped however long
_WRAPPER = 5  # paragraphs of 80 characters: an element holding this many is no furniture
_BLOCKS = ("p", "pre", "blockquote", "li", "td", "dd")
_CONTAINERS = frozenset({"article", "main"})
_MIN_SCORE = 20.0  # below this the page has no article to pick: keep it whole
_MOST = 0.8  # the article holds this share of the page's paragraph text, or more
_AROUND = 3.0  # an article/main element at most this many times the body's text


def _furniture(tag: Any) -> bool:
    if tag.attrs is None:
        return False
    role = str(tag.get("role") or "").lower()
    if role in _ROLES or tag.get("aria-hidden") == "true" or tag.has_attr("hidden"):
        return True
    style = str(tag.get("style") or "").replace(" ", "").lower()
    if "display:none" in style or "visibility:hidden" in style:
        return True
    names = " ".join([*(tag.get("class") or ()), str(tag.get("id") or "")])
    if not names or not _FURNITURE.search(names):
        return False
    if _CONTENT.search(names) and not _ALWAYS.search(names):
        return False  # "sidebar-and-content-body" holds the article; "related-articles" not
    if tag.find(["h1", "article", "main"]) is not None:
        return False  # a wrapper named for its share buttons, around the article
    long = sum(_text_length(p) >= 80 for p in tag.find_all("p", limit=_WRAPPER))
    return long < _WRAPPER or bool(_COMMENTS.search(names))


def drop_furniture(root: Any) -> None:
    for tag in root.find_all(_NEVER):
        tag.decompose()
    for tag in list(root.find_all(True)):
        if tag.decomposed:
            continue
        if tag.name not in ("html", "body") and _furniture(tag):
            tag.decompose()


def _text_length(tag: Any) -> int:
    return len(" ".join(tag.get_text(" ").split()))


def _link_share(tag: Any, length: int) -> float:
    linked = sum(_text_length(a) for a in tag.find_all("a"))
    return min(linked / length, 1.0) if length else 1.0


def main_content(root: Any) -> Any:
    """The element holding the article (``root`` when none stands out): the
    smallest element that holds most of the page's paragraph text, link text
    discounted, starting from the one whose paragraphs score best."""
    scores: dict[int, float] = {}  # each element's own paragraphs (and half its grandchildren's)
    held: dict[int, float] = {}  # every paragraph under an element, at any depth
    nodes: dict[int, Any] = {}
    total = 0.0
    for block in root.find_all(_BLOCKS):
        length = _text_length(block)
        if length < 25 or block.find(_BLOCKS) is not None:
            continue  # too short to be a paragraph, or a list holding paragraphs
        score = (1 + block.get_text().count(",") + min(length / 100, 3)) * (
            1 - _link_share(block, length)
        )
        total += score
        for depth, parent in enumerate(block.parents):
            if parent.name in ("[document]",):
                break
            nodes[id(parent)] = parent
            held[id(parent)] = held.get(id(parent), 0.0) + score
            if depth < 2:
                scores[id(parent)] = scores.get(id(parent), 0.0) + score / (1 + depth)
    if not scores or total < _MIN_SCORE:
        return root
    best = nodes[max(scores, key=lambda k: scores[k])]
    size = _text_length(best)
    while held.get(id(best), 0.0) < _MOST * total and best is not root:
        best = best.parent  # a body split over several elements: their parent
        if _container(best):
            return best  # the page says where its article is
    for outer in best.parents:
        if _container(outer):
            return outer if _text_length(outer) <= _AROUND * size else best
    return best


def _container(tag: Any) -> bool:
    return tag.name in _CONTAINERS or tag.get("role") in ("main", "article")


def article(soup: Any) -> Any:
    """The page's article, furniture dropped, with its title when the body lacks one."""
    root = soup.body or soup
    drop_furniture(root)
    body = main_content(root)
    if body is root or body.find("h1") is not None:
        return body
    title = root.find("h1")
    if title is not None and not any(p is body for p in title.parents):
        body.insert(0, title.extract())
    return body
