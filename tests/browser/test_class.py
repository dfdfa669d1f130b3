"""A class: light clients (one browser session's traffic each, bench.light_client) on
the app."""

from __future__ import annotations

from bench.browser import VIEWS
from bench.light_client import LightClient

LAB1_TITLE = "1. Boundary lottery"


def _size_in_link(c: LightClient) -> str:
    return dict(p.split("=", 1) for p in c.query.split("&"))["size"]


def test_a_light_client_gets_lab_1_and_a_step_moves_its_size(app_url):
    c = LightClient(app_url, "/" + VIEWS[1])
    try:
        c.open()
        assert LAB1_TITLE in c.texts
        assert c.value("Chunk size") == [24]
        c.set_number("Chunk size", 25)
        c.rerun()
        assert _size_in_link(c) == "25"  # the link the page would share now
        assert c.errors == []
    finally:
        c.close()
