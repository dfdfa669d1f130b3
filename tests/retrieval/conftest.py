"""Every retrieval test runs with the network blocked: a judge that reached for a
download (a model, a tokenizer) fails its test instead of passing on a lucky network."""

from __future__ import annotations

import pytest

from tests.support import block_network


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    block_network(monkeypatch, "the retrieval tests")
