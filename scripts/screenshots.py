"""Take a screenshot of each lab from the real running app: docs/screenshots/labN.png,
plus docs/screenshots/presenter.png (Lab 1 in presenter mode on a 1280x720 projector).

Starts `streamlit run app.py` on a free local port and drives Debian's Chromium
(no browser download) through Playwright, at 1440x900 as a laptop shows it.
Usage: python scripts/screenshots.py          # every lab and presenter mode
       python scripts/screenshots.py 4 11     # these labs only
       python scripts/screenshots.py 2 presenter  # Lab 2 and presenter mode
       python scripts/screenshots.py drag         # Labs 1-3's drag sliders, held mid-drag
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.browser import (  # noqa: E402
    VIEWS,
    chromium_path,
    hold_drag_slider,
    launch,
    open_view,
    running_app,
    wait_idle,
)

OUT = ROOT / "docs" / "screenshots"
LAPTOP = {"width": 1440, "height": 900}
PROJECTOR = {"width": 1280, "height": 720}


def pin_then_open_notebook(page, url: str) -> None:
    """Pin a result first, in the same session, so the notebook has a pin."""
    page.goto(f"{url}/{VIEWS[1].replace('size=24', 'size=22')}")
    page.get_by_role("heading", name="1.").first.wait_for(timeout=60_000)
    page.get_by_text("Pin this result to the notebook").click()
    page.get_by_label("Note (optional)").fill("22 words works, 24 does not")
    page.get_by_role("button", name="Pin to notebook").click()
    page.get_by_text("Pinned:").wait_for(timeout=30_000)
    page.get_by_role("link", name="7. Notebook").click()
    page.get_by_role("heading", name="7.").first.wait_for(timeout=60_000)


# the lab, and how many sizes its drag slider is moved from the view's size: Lab 1 down
# to 22 words (whole again), Lab 2 up to 26 with overlap 12 (the prefix hatched), Lab 3
# down to 49, where fixed windows split the answer and the other strategies do not
DRAGS = {1: -2, 2: 2, 3: -1}


def held_mid_drag(page, url: str, lab: int) -> None:
    """The lab's drag slider moved and not let go: the verdict and the chunks are the
    browser's own redraw."""
    open_view(page, url, lab)
    x, y, step_px = hold_drag_slider(page)
    page.mouse.move(x + DRAGS[lab] * step_px, y, steps=4)
    if lab == 2:  # the window on the chunks around the answer, where overlap is hatched
        page.locator('[data-testid="drag-doc"]').evaluate("e => e.scrollIntoView({block: 'end'})")
    page.wait_for_timeout(300)  # else the first screen, as the page opens
    page.screenshot(path=str(OUT / f"lab{lab}-drag.png"))
    page.mouse.up()


def main(argv: list[str]) -> int:
    if chromium_path() is None:
        raise SystemExit("Chromium not found: install Debian's chromium package")
    odd = [a for a in argv if not a.isdigit() and a not in ("presenter", "drag")]
    if odd:
        raise SystemExit(f"{odd[0]!r} is not a lab: give lab numbers, 'presenter' or 'drag'")
    wanted = [int(a) for a in argv if a.isdigit()] if argv else list(VIEWS)
    presenter = not argv or "presenter" in argv
    drag = not argv or "drag" in argv
    unknown = [n for n in wanted if n not in VIEWS]
    if unknown:
        raise SystemExit(f"no lab {unknown[0]}: choose from {', '.join(map(str, VIEWS))}")
    OUT.mkdir(parents=True, exist_ok=True)
    with running_app() as url, sync_playwright() as p:
        browser = launch(p)
        for n in wanted:
            page = browser.new_page(viewport=LAPTOP)
            if n == 7:
                pin_then_open_notebook(page, url)
            else:
                open_view(page, url, n)
            if n == 11:  # the two judges: the ranks side by side and the first chart
                line = page.get_by_text("The answer's chunk 3 ranks").first
                line.evaluate("e => e.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(1500)  # let the charts draw
            page.screenshot(path=str(OUT / f"lab{n}.png"))
            page.close()
            print(f"lab{n}.png")
        for lab in DRAGS if drag else ():
            page = browser.new_page(viewport=LAPTOP)
            held_mid_drag(page, url, lab)
            page.close()
            print(f"lab{lab}-drag.png")
        if not presenter:  # some labs only: presenter mode is not retaken
            browser.close()
            return 0
        page = browser.new_page(viewport=PROJECTOR)
        page.goto(f"{url}/{VIEWS[1]}&presenter=1")
        page.get_by_role("heading", name="1.").first.wait_for(timeout=60_000)
        wait_idle(page)
        page.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=60_000)
        page.wait_for_timeout(1500)
        page.screenshot(path=str(OUT / "presenter.png"))
        page.close()
        print("presenter.png")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
