"""The article of a real web page, without the site around it: trafilatura's
evaluation says, page by page, which snippets are the article's and which are
the site's (navigation, "related" lists, share and download links). Its whole set
is measured by ``python -m bench.web_articles`` (docs/limits.md)."""

from __future__ import annotations

import re

import pytest

from lab.inputs.documents import read_document
from tests.support import ROOT

WEB = ROOT / "tests" / "data" / "documents" / "web"

# trafilatura's tests/evaldata.json: what each page's article holds, and what it must not
PAGES = {
    "womencantalksports.com-top10.html": (
        ["begin a series highlighting", "5. Kristi Dosh", "I really love what"],
        ["Submit your sports", "Twitter Talk", "So Much Math in Football?"],
    ),
    "bka.de-messengerdienste.html": (
        [
            "entwickelt sich nach Einschätzung der",
            "BKA gemeinsam mit den Landeskriminalämtern",
            "Corona-Pandemie hat dazu beigetragen",
        ],
        [
            "Pressemitteilung als PDF",
            "Haben Sie das Gesuchte nicht",
            "Neue Taskforce des Bundeskriminalamtes",
        ],
    ),
    "arbeitsagentur.de-arbeitsmarkt.html": (
        [
            "sagte der Vorstand Regionen der Bundesagentur",
            "Beschäftigung nahm saisonbereinigt von Oktober",
            "Anzeigen wurde vom 1. bis einschließlich",
        ],
        [
            "Auf der Seite Aktuelle Meldungen 2021",
            "auf der Seite Entwicklung des",
            "Arbeitsmarkts in den Vorjahren lesen",
        ],
    ),
    # a blog post whose date, imprint link and blogroll sat beside the article
    "die-partei.net.luebeck.html": (
        ["Die GEMA dreht völlig am Zeiger!", "http://www.openpetition.de"],
        ["31. Mai", "Impressum", "Steuerdarling"],
    ),
    # a wiki page: its edit bar and attachment links are the site's
    "wiki.python.org.Download.html": (
        [
            "hey are available via the yellow download buttons on that page.",
            "Before you start, you will need Python on your computer.",
            "general download page",
        ],
        ["Unable to edit the page? See the FrontPage for instructions.", "Attachments", "Login"],
    ),
    # a travel page whose <header> is never closed: the whole page sits inside it
    "reisen-mit-dem-internet.de.emden-21416.html": (
        ["Emden ist vor allem in Deutschland", "Die Kunsthalle in Emden wurde 1986"],
        ["Quellen und Inspiration: u.a. wikipedia.org", "Infos zum Reiseziel"],
    ),
    # a UTF-8 page with one Windows-1252 byte in a script's comment
    "maescot.de.schafskunde.html": (
        [
            "Schaf, Standardausführung, weiß",
            "Bei diesem arroganten Schafweibchen",
            "Eine Intellektuelle, die",
        ],
        [
            "Der Webcomic mit den niedlichen Schafen",
            "© 2009-2012 Jonathan Krase",
            "…und anderem Web 2.0 Gedöns.",
        ],
    ),
}


def _plain(text: str) -> str:
    """Markdown's marks and the spacing aside: the words as a reader reads them."""
    return " ".join(re.sub(r"[*_`#\[\]()]", " ", text).split()).casefold()


@pytest.mark.parametrize("page", list(PAGES))
def test_a_web_pages_article_is_kept_and_the_site_around_it_dropped(page) -> None:
    article, site = PAGES[page]
    text = _plain(read_document(WEB / page).text)
    assert [s for s in article if _plain(s) not in text] == []
    assert [s for s in site if _plain(s) in text] == []


def test_cookie_banners_skip_links_and_related_lists_are_not_the_article() -> None:
    page = """<html><body>
    <a class="skip-link" href="#main">Skip to main content</a>
    <div id="cookie-banner"><p>We use cookies to improve your experience. Accept all?</p></div>
    <div role="navigation"><ul><li><a href="/">Home</a></li>
    <li><a href="/news">News</a></li></ul></div>
    <article><h1>River levels fall</h1>
    <p>The river fell by a metre overnight, the agency said, and the warning was lifted.</p>
    <p>Residents may return to their homes from noon, once the roads are checked.</p></article>
    <section class="related-articles"><h2>Related</h2><ul><li><a href="/a">Storm
    season begins early this year in the valley</a></li></ul></section>
    </body></html>"""
    text = read_document(page.encode(), name="news.html").text
    assert text.startswith("# River levels fall\n")
    assert "Residents may return" in text
    for clutter in ("Skip to main", "cookies", "Home", "Related", "Storm season"):
        assert clutter not in text


def test_ruby_readings_and_soft_hyphens_are_not_words_of_the_text() -> None:
    # a Japanese news page for learners prints each word's reading over it
    page = (
        "<article><p><ruby>法律<rt>ほうりつ</rt></ruby>では<ruby><rp>(</rp>親<rt>おや</rt>"
        "<rp>)</rp></ruby>に</p><p>Hoch\u00adwasser im Tal: das Wasser steigt seit "
        "gestern Abend, sagt das Amt, und sinkt erst morgen.</p></article>"
    ).encode()
    text = read_document(page, name="news.html").text
    assert "法律では親に" in text
    assert "Hochwasser im Tal" in text


def test_a_stray_byte_does_not_turn_a_utf8_page_into_windows_1252() -> None:
    head = b'<html><head><meta charset="utf-8"><script>/* M\xe4scot */</script></head>'
    body = "<body><p>Größere Schafe grasen auf der grünen Wiese.</p></body></html>"
    text = read_document(head + body.encode(), name="sheep.html").text
    assert "Größere Schafe grasen auf der grünen Wiese." in text
