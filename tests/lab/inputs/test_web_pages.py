"""The article of a real web page, without the site around it: trafilatura's
evaluation says, page by page, which snippets are the article's and which are
the site's (navigation, "related" lists, share and download links)."""

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
