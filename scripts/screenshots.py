"""Take a screenshot of each lab from the real running app: docs/screenshots/labN.png.

Starts `streamlit run app.py` on a free local port and drives Debian's Chromium
(no browser download) through Playwright. Usage: python scripts/screenshots.py
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
VIEWS = {
    1: "?lab=boundary&doc=platform_data&q=0&strategy=fixed&unit=words&size=24&overlap=0",
    2: "overlap?doc=platform_data&q=0&strategy=fixed&unit=words&size=24&overlap=12",
    3: "structure?doc=support_kb&q=0&strategy=fixed&unit=words&size=50&overlap=0",
    4: "runts?doc=regional_revenue&q=0&strategy=structural&unit=chars&size=1800&overlap=150",
    5: "tables?doc=compute_pricing&q=0&strategy=structural&unit=chars&size=600&overlap=100",
    6: "integrity?doc=support_kb&q=0&strategy=fixed&unit=words&size=50&overlap=0",
    7: "notebook",
    8: "compare?doc=compute_pricing&q=0&strategy=structural&unit=chars&size=600&overlap=100",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise SystemExit("the app did not start")


def main() -> int:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_healthy(url)
        OUT.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            chromium = shutil.which("chromium")
            if chromium is None:
                raise SystemExit("Chromium not found: install Debian's chromium package")
            browser = p.chromium.launch(
                executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
            )
            for n, view in VIEWS.items():
                page = browser.new_page(viewport={"width": 1400, "height": 1800})
                if n == 7:  # pin a result first, in the same session, so the notebook has a pin
                    page.goto(f"{url}/{VIEWS[1].replace('size=24', 'size=22')}")
                    page.get_by_role("heading", name="1.").first.wait_for(timeout=60_000)
                    page.get_by_text("Pin this result to the notebook").click()
                    page.get_by_label("Note (optional)").fill("22 words works, 24 does not")
                    page.get_by_role("button", name="Pin to notebook").click()
                    page.get_by_text("Pinned:").wait_for(timeout=30_000)
                    page.get_by_role("link", name="7. Notebook").click()
                else:
                    page.goto(f"{url}/{view}")
                page.get_by_role("heading", name=f"{n}.").first.wait_for(timeout=60_000)
                page.wait_for_timeout(2500)  # let the charts draw
                if n == 8:  # four tables and forty chunk views: wait until they are drawn
                    page.locator("[data-testid='stDataFrame'] canvas").first.wait_for()
                    page.wait_for_timeout(5000)
                page.screenshot(path=str(OUT / f"lab{n}.png"))
                page.close()
                print(f"lab{n}.png")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
