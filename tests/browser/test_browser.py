"""The real thing: `streamlit run` on a free local port, driven by headless
Chromium (Debian's package, through Playwright; no browser download)."""

from __future__ import annotations

from pathlib import Path

from bench.browser import wait_idle
from tests.browser.conftest import ARTIFACTS, DRAWN

LAB1 = "?lab=boundary&doc=platform_data&q=0&strategy=fixed&unit=words&size=24&overlap=0"
SPLIT = "answer split across chunks 4 and 5: unretrievable at any k"
INTACT = "answer intact in chunk 5"


def test_size_24_then_22_flips_the_verdict(app_url: str, browser) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    page.goto(f"{app_url}/{LAB1}")
    page.get_by_text(SPLIT).first.wait_for(timeout=60_000)
    slider = page.get_by_role("slider", name="Chunk size (words)")  # the lab's size control
    page.locator('[data-testid="drag-size"][aria-valuenow="24"]').wait_for(timeout=60_000)
    slider.focus()
    slider.press("ArrowLeft")
    page.wait_for_timeout(400)
    slider.press("ArrowLeft")
    page.get_by_text(INTACT).first.wait_for(timeout=60_000)  # the control's own, at once
    assert slider.get_attribute("aria-valuenow") == "22"
    page.wait_for_url("**size=22&**", timeout=60_000)  # the keys rest: the app's size
    wait_idle(page)
    assert page.get_by_text(SPLIT).count() == 0
    page.screenshot(path=str(ARTIFACTS / "browser_lab1_size22.png"), full_page=True)
    page.close()


HOSTILE = """# Release notes <b>bold?</b>

Before: <script>window.__pwned = "script"</script> and <img src=x onerror="window.__pwned='img'">.

An iframe: <iframe src="javascript:window.__pwned='iframe'"></iframe> and a
[harmless-looking link](javascript:window.__pwned='link') in markdown.

Streamlit-looking markup: :red[danger] **not bold** $x^2$ <div style="color:red">div</div>

Audit logs are retained for four hundred days to satisfy the compliance requirement.
"""


def test_a_hostile_upload_is_shown_as_text_and_runs_nothing(
    app_url: str, browser, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"{app_url}/{LAB1}")
    page.get_by_text(SPLIT).first.wait_for(timeout=60_000)
    page.get_by_label("Document").click()
    page.get_by_role("option", name="Upload a file…").click()
    page.locator('[data-testid="stSidebar"] input[type="file"][accept*=".md"]').set_input_files(
        files=[{"name": "hostile.md", "mimeType": "text/markdown", "buffer": HOSTILE.encode()}]
    )
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text('<script>window.__pwned = "script"</script>', exact=False).first.wait_for(
        timeout=60_000
    )
    page.wait_for_timeout(1500)
    assert page.evaluate("() => window.__pwned") is None
    assert dialogs == []
    # nothing the document wrote became an element
    assert main.locator('img[src="x"]').count() == 0
    assert main.locator('iframe[src^="javascript"]').count() == 0
    assert main.locator('a[href^="javascript"]').count() == 0
    assert main.locator("script:text('__pwned')").count() == 0
    for literal in ("<img src=x onerror=", "<iframe src=", ":red[danger]", "**not bold**"):
        assert main.get_by_text(literal, exact=False).count() >= 1, literal
    page.screenshot(path=str(ARTIFACTS / "browser_hostile_upload.png"), full_page=True)
    page.close()


def test_every_lab_loads_nothing_from_outside_the_app(views) -> None:
    """Offline by construction: the page, its scripts, fonts and charts (Plotly and
    Vega-Lite) all come from the app's own server. Labs 1-6's example views here;
    every lab at its name in test_teacher.py."""
    drawn, outside = {}, []
    for lab in range(1, 7):  # the shared views note every request from their first load
        page = views.get(lab)
        drawn[lab] = page.locator(DRAWN).count()
        outside += views.outside_of(page)
    assert outside == []
    assert drawn[1] and drawn[6]  # Plotly (Lab 1) and Vega-Lite (Lab 6) charts were drawn
