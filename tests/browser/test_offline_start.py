"""The app reaches for nothing outside the machine: not at start (Streamlit looks up
the machine's external address unless told where users reach it), not while a
session runs. Started as the README starts it, listening on every interface."""

from __future__ import annotations

import sys
from pathlib import Path

from bench.browser import new_page, open_view, running_app, timed
from tests.browser.conftest import ARTIFACTS

LAUNCHER = [sys.executable, str(Path(__file__).with_name("audited_streamlit.py"))]


def test_starting_the_app_and_using_it_tries_no_outside_address(browser, tmp_path):
    net_log = tmp_path / "outside.log"
    net_log.touch()
    server_log = ARTIFACTS / "streamlit_offline.log"
    with running_app(
        server_log, launcher=LAUNCHER, address=None, env={"CHUNK_LAB_NET_LOG": str(net_log)}
    ) as url:
        page = new_page(browser)
        open_view(page, url, 1)
        slider = page.get_by_role("slider", name="Chunk size")
        slider.focus()
        timed(page, lambda: slider.press("ArrowLeft"))
        page.close()
    printed = server_log.read_text()
    assert "You can now view your Streamlit app" in printed  # it did start
    assert "external IP" not in printed
    assert net_log.read_text().splitlines() == []
