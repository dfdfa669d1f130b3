"""HTML pages to markdown: headings, lists, tables, ``pre`` and links; the site's
chrome (navigation, header, footer, scripts) dropped."""

from __future__ import annotations

import re

from lab.inputs.convert import limits
from lab.inputs.convert.article import article
from lab.inputs.convert.result import ConversionError, image_placeholder, missing

_CHARSET = re.compile(rb"""<meta[^>]+charset=["']?([A-Za-z0-9_.:-]+)""", re.I)
_CHARSET_WITHIN = 4096  # bytes: a meta charset must come this early (the HTML standard says 1024)
_ANCHORS = frozenset({"¶", "#", "\uf0c1"})  # pilcrow, hash, Font Awesome's link icon
_PARTS = ("header", "footer")
_NEVER_TEXT = ("script", "style", "noscript", "template")
_CHROME = ("nav", "header", "footer")
_SWALLOWED = 0.5  # a header or footer holding more of the page's text than this is left open
# not words of the text, taken out of the source so the article is found without them
# too: ruby's readings (a word's pronunciation printed over it, its end tag optional)
# and soft hyphens (where a word may break: invisible, and a search misses the word)
_UNREAD = re.compile(r"<(r[tp])\b[^>]*>[^<]*(?:</\1\s*>)?|\u00ad|&shy;|&#173;|&#xad;", re.I)


def html_text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    # a page saved in the charset it declares, but for a stray byte (a script's comment
    # in another one): that charset, the stray byte replaced; pages without one are
    # mostly Windows-1252
    declared = _CHARSET.search(data[:_CHARSET_WITHIN])
    charset = declared.group(1).decode("ascii") if declared else "cp1252"
    try:
        return data.decode(charset, errors="replace")
    except LookupError:  # a charset Python does not know
        return data.decode("cp1252", errors="replace")


def html_to_markdown(html: str, name: str = "the page", *, web_page: bool = False) -> str:
    """Markdown from HTML. ``web_page``: a page from a site, whose article is kept
    and the site around it dropped (lab.inputs.convert.article); a Word file's
    HTML is all document."""
    try:
        from bs4 import BeautifulSoup
        from markdownify import MarkdownConverter

        if web_page:
            import trafilatura  # noqa: F401 - it finds the article (lab.inputs.convert.article)
    except ImportError:
        raise missing("HTML", "markdownify, beautifulsoup4 and trafilatura") from None
    html = _UNREAD.sub("", html)
    # a scan of the tags first: the parser takes a second over thousands of levels
    limits.check_depth(limits.nesting(html, limits.HTML_OPEN_ENDED), name)
    soup = BeautifulSoup(html, "html.parser")  # builds its tree without recursing
    limits.check_depth(_depth(soup), name)  # markdownify's walk recurses
    _drop_chrome(soup, web_page)
    for link in soup.find_all("a"):
        # a heading's permalink anchor (Sphinx, MkDocs): a pilcrow, not a word of it
        if "headerlink" in (link.get("class") or ()) or link.get_text().strip() in _ANCHORS:
            link.decompose()
        elif link.attrs:
            link.attrs.pop("title", None)  # a tooltip ("opens in a new window"), not the text
    body = article(soup, html) if web_page else soup.body or soup

    class Converter(MarkdownConverter):
        def convert_img(self, el, text, parent_tags) -> str:  # noqa: ANN001
            # a placeholder with the alt text: an inline picture's data would be
            # most of a chunk, and its address means nothing to a search
            return image_placeholder(el.attrs.get("alt") or "")

    markdown = Converter(
        heading_style="ATX",
        bullets="-",
        table_infer_header=True,  # Word tables have no <th>
    ).convert_soup(body)
    markdown = _tidy(markdown)
    limits.check_text(len(markdown), name)
    if not markdown.strip():
        raise ConversionError(f"{name} has no text once navigation and scripts are dropped")
    return markdown


def _drop_chrome(soup, web_page: bool) -> None:  # noqa: ANN001 - a BeautifulSoup tree
    """Scripts and styles, and the site's navigation, header and footer: the same on
    every page, never the answer."""
    for tag in soup.find_all(_NEVER_TEXT):
        tag.decompose()
    page = len(soup.get_text())
    for tag in soup.find_all(_CHROME):
        if tag.decomposed:
            continue  # inside one dropped already
        if tag.name in _PARTS:
            if web_page and tag.find_parent(["article", "main"]):
                continue  # an article's own header (its title, its lead) is the article's
            if len(tag.get_text()) > _SWALLOWED * page:
                continue  # a header left open, the page inside it: the article finds its part
        tag.decompose()


def _tidy(markdown: str) -> str:
    lines = [line.rstrip() for line in markdown.splitlines()]
    out: list[str] = []
    for line in lines:
        if not line and (not out or not out[-1]):
            continue  # one blank line between blocks is enough
        out.append(line)
    return "\n".join(out).strip() + "\n"


def _depth(soup) -> int:  # noqa: ANN001 - a BeautifulSoup tree
    """How many elements deep the tree goes, counted without recursing."""
    deepest = 0
    stack = [(soup, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack += [(child, depth + 1) for child in getattr(node, "contents", ()) if child.name]
    return deepest
