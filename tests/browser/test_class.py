"""A class: light clients (one browser session's traffic each, deploy.light_client) on
the app, and two app processes behind nginx keeping each browser on one process."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator

import pytest

from bench.browser import VIEWS
from deploy.class_servers import (
    AFFINITY_COOKIE,
    ClassSetup,
    class_servers,
    example_links,
    nginx_path,
)
from deploy.light_client import LightClient
from ui.present.urlstate import LAB_PRESETS, LAB_SLUGS

LAB1_TITLE = "1. Boundary lottery"


def _size_in_link(c: LightClient) -> str:
    return dict(p.split("=", 1) for p in c.query.split("&"))["size"]


def test_a_light_client_gets_lab_1_and_a_step_moves_its_size(app_url):
    c = LightClient(app_url, "/" + VIEWS[1])
    try:
        c.open()
        assert LAB1_TITLE in c.texts
        assert c.value("Chunk size") == [24]
        assert c.held  # the large messages, kept as a browser's message cache keeps them
        assert c.references == 0
        c.set_number("Chunk size", 25)
        c.rerun()
        assert _size_in_link(c) == "25"  # the link the page would share now
        assert c.errors == []
        # what did not change with the size (the drag slider's frames) came as a reference
        assert c.references >= 1
    finally:
        c.close()


@pytest.fixture(scope="module")
def two_processes() -> Iterator[ClassSetup]:
    if nginx_path() is None:  # never a skip: the test command installs it
        pytest.fail("nginx is not installed; run the README's test command, which installs it")
    try:
        with class_servers(2) as setup:
            yield setup
    except RuntimeError as e:
        pytest.fail(str(e))


def _holder(setup: ClassSetup, c: LightClient) -> int:
    """The process that holds ``c``'s session: the one where asking for it by id,
    bypassing the proxy, gives it back."""
    c.close()  # a session still connected is never handed to a second websocket
    holders = []
    for i, url in enumerate(setup.app_urls):
        probe = LightClient(url, c.link, cookies=dict(c.cookies), page_hash=c.page_hash)
        probe.query = c.query
        try:
            probe.resume(c.session_id)
            if probe.session_id == c.session_id:
                holders.append(i)
        finally:
            probe.close()
    assert len(holders) == 1, holders
    return holders[0]


def test_through_the_proxy_each_browser_keeps_its_session_on_one_process(two_processes):
    students = [LightClient(two_processes.url, "/" + VIEWS[1]) for _ in range(8)]
    try:
        for c in students:
            c.open()
            assert LAB1_TITLE in c.texts  # the full Lab 1 page, through nginx
            assert AFFINITY_COOKIE in c.cookies
        for c in students:
            first = c.session_id
            c.set_number("Chunk size", 30)
            c.rerun()
            c.reconnect()  # a blip: the same session only if it reaches the same process
            assert c.session_id == first
            assert _size_in_link(c) == "30"
            assert c.errors == []
        # every student on one process, and the class spread over both: the keys are
        # random, so more students come in until one lands on the other process (all
        # of 32 on one process: 1 time in 2**31)
        holders = {_holder(two_processes, c) for c in students}
        while len(holders) < 2 and len(students) < 32:
            students.append(LightClient(two_processes.url, "/" + VIEWS[1]))
            students[-1].open()
            holders.add(_holder(two_processes, students[-1]))
        assert holders == {0, 1}
    finally:
        for c in students:
            c.close()


def test_an_upload_through_the_proxy_reaches_the_process_of_its_session(two_processes):
    c = LightClient(two_processes.url, "/" + VIEWS[1])
    try:
        c.open()
        c.set_choice("Document", "Upload a file…")
        c.rerun()
        line = "The staging cluster restarts every Sunday at 02:00 UTC.\n"
        text = ("# Notes\n\n" + line) * 20  # 220 words
        # the upload URL answers only on the process holding the session
        c.upload("Upload a .md", "notes.md", text.encode())
        c.rerun()
        assert c.errors == []
        assert "chunks: 10 from 220 words" in c.texts  # the upload, in 24-word windows
    finally:
        c.close()


def _cached(app_url: str) -> set[str]:
    """The app's cached functions that hold something (Streamlit's metrics)."""
    with urllib.request.urlopen(f"{app_url}/_stcore/metrics", timeout=10) as r:
        lines = r.read().decode().splitlines()
    held = set()
    for line in lines:
        if line.startswith("cache_memory_bytes{") and float(line.rsplit(" ", 1)[1]) > 0:
            held.add(line.split('cache="', 1)[1].split('"', 1)[0])
    return held


def test_every_lab_is_opened_on_each_process_before_the_class_is_let_in(two_processes):
    links = example_links()
    assert [link.split("?")[0] for link in links] == list(LAB_SLUGS)
    assert "size=1800" in links[LAB_SLUGS.index("runts")]  # the lab's example settings
    with_settings = [link for link in links if link.split("?")[0] in LAB_PRESETS]
    assert all("?" in link for link in with_settings)
    assert two_processes.warmed == {url: links for url in two_processes.app_urls}
    for url in two_processes.app_urls:
        # what only Lab 4's, Lab 6's and Lab 11's pages compute is already in each process
        assert {
            "ui.cached.revenue",
            "ui.cached.integrity_report",
            "ui.cached.side_by_side",
        } <= _cached(url)
