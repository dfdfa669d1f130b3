"""HTML pages to markdown: headings, lists, tables, ``pre`` and links; the site's
chrome (navigation, header, footer, scripts) dropped."""

from __future__ import annotations

from lab.inputs.convert import limits
from lab.inputs.convert.article import article
from lab.inputs.convert.result import ConversionError, image_placeholder, missing

_ANCHORS = frozenset({"¶", "#", "\uf0c1"})  # pilcrow, hash, Font Awesome's link icon
_PARTS = ("header", "footer")
_DROPPED_TAGS = ("nav", "header", "footer", "script", "style", "noscript", "template")
_READINGS = ("rt", "rp")  # ruby: a word's pronunciation printed over it, not a word of the text
_SOFT_HYPHEN = "\u00ad"  # where a word may break: invisible, and a search misses the word


def html_text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # pages without a charset are mostly Windows-1252; BeautifulSoup guesses the rest
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
    # a scan of the tags first: the parser takes a second over thousands of levels
    limits.check_depth(limits.nesting(html, limits.HTML_OPEN_ENDED), name)
    soup = BeautifulSoup(html, "html.parser")  # builds its tree without recursing
    limits.check_depth(_depth(soup), name)  # markdownify's walk recurses
    for tag in soup.find_all(_DROPPED_TAGS):
        if web_page and tag.name in _PARTS and tag.find_parent(["article", "main"]):
            continue  # an article's own header (its title, its lead) is the article's
        tag.decompose()  # site chrome: the same on every page, never the answer
    for tag in soup.find_all(_READINGS):
        tag.decompose()
    for text in soup.find_all(string=lambda s: _SOFT_HYPHEN in s):
        text.replace_with(text.replace(_SOFT_HYPHEN, ""))
    for link in soup.find_all("a"):
        # a heading's permalink anchor (Sphinx, MkDocs): a pilcrow, not a word of it
        if "headerlink" in (link.get("class") or ()) or link.get_text().strip() in _ANCHORS:
            link.decompose()
    body = article(soup) if web_page else soup.body or soup

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
