"""Every retrieval test runs with the network blocked: a judge that reached for a
download (a model, a tokenizer) fails its test instead of passing on a lucky network."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _network_blocked(no_network: None) -> None:
    """tests/conftest.py's no_network, for every test of this folder."""
