"""The app's memory with the embedding model loaded: the resident size (RSS) of a
running `streamlit run app.py` server as sessions visit it.

    python -m bench.app_memory

Starts the app on a free local port and drives Debian's Chromium (no download)
through Playwright, as bench.browser does. It reads the server's RSS (Linux,
/proc) when it has served nothing, after a first session opens Lab 1 (no model),
after that session opens Lab 11 (the two judges: the model loads), and after a
second session opens Lab 11 too: the model is loaded once per process and shared,
so the second session adds its own page state and no second model. The figures
are reported, never asserted.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from bench.browser import (
    SERVERS,
    VIEWS,
    chromium_path,
    launch,
    new_page,
    open_view,
    running_app,
    wait_idle,
)
from bench.run import machine  # noqa: E402

MB = 1_000_000


def rss_mb(pid: int) -> tuple[float, float]:
    """A process's resident memory now and at its peak, in MB (Linux)."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value
    return int(fields["VmRSS"].split()[0]) * 1024 / MB, int(fields["VmHWM"].split()[0]) * 1024 / MB


def settle(page) -> None:
    wait_idle(page)
    page.wait_for_timeout(1500)  # the charts' own drawing, and the server's caches filled


def main() -> int:
    if chromium_path() is None:
        print("Chromium not found: install Debian's chromium package", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    rows: list[tuple[str, float, float]] = []
    with running_app() as url, sync_playwright() as p:
        pid = SERVERS[url]
        time.sleep(1)
        rows.append(("server started, no session yet", *rss_mb(pid)))
        browser = launch(p)
        first = new_page(browser)
        open_view(first, url, 1)
        settle(first)
        rows.append(("one session, Lab 1 (no model)", *rss_mb(pid)))
        open_view(first, url, 11)
        settle(first)
        rows.append(("the same session, Lab 11 (the model loaded)", *rss_mb(pid)))
        second = new_page(browser)
        open_view(second, url, 11)
        settle(second)
        rows.append(("a second session, Lab 11 (the model shared)", *rss_mb(pid)))
        for page in (first, second):
            page.close()
        browser.close()
    print(f"Chunk Lab app memory, {machine()}; Lab 11 at {VIEWS[11]}")
    print("| moment | server RSS (MB) | peak so far (MB) |")
    print("|---|---|---|")
    for what, now, peak in rows:
        print(f"| {what} | {now:.0f} | {peak:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
