"""Every retrieval test runs with the network blocked: a judge that reached for a
download (a model, a tokenizer) fails its test instead of passing on a lucky network."""

from __future__ import annotations

import socket

import pytest


class NetworkBlocked(OSError):
    """A test of the retrievers tried to open a connection."""


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: socket.socket, address: object) -> None:
        raise NetworkBlocked(f"no network in the retrieval tests (tried {address!r})")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
