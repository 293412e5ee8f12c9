"""A team library's server faults as one human sentence, within the 10 s limit."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from paperdesk.core.errors import PaperdeskError, ServerUnreachable
from paperdesk.store.db import CONNECT_TIMEOUT_S
from paperdesk.store.library import Library


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port on 127.0.0.1 and 127.0.0.2 that accepts connections and never answers."""
    listeners = []
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    accepted: list[socket.socket] = []
    for host in ("127.0.0.1", "127.0.0.2"):
        listener = socket.socket()
        listener.bind((host, port))
        listener.listen()
        listeners.append(listener)

        def accept(listener: socket.socket = listener) -> None:
            while True:
                try:
                    accepted.append(listener.accept()[0])
                except OSError:
                    return

        threading.Thread(target=accept, daemon=True).start()
    yield port
    for item in [*listeners, *accepted]:
        item.close()


def test_a_server_that_accepts_and_never_answers_is_reported_within_the_limit(
    silent_port: int,
) -> None:
    # A host with two addresses (as localhost has ::1 and 127.0.0.1): libpq waited the
    # whole limit for each.
    url = f"postgresql://bob@/icml?host=127.0.0.1:{silent_port}&host=127.0.0.2:{silent_port}"
    started = time.monotonic()
    with pytest.raises(ServerUnreachable) as caught:
        Library.open(url)
    took = time.monotonic() - started
    assert took < CONNECT_TIMEOUT_S + 1.5, f"{took:.1f} s"
    assert str(caught.value).endswith("cannot be reached: its server did not answer")


@pytest.mark.parametrize(
    ("url", "sentence"),
    [
        ("postgresql://bob@localhost:1/icml", "cannot be reached: no server answers there"),
        ("postgresql://bob@nowhere.invalid/icml", "cannot be reached: unknown host"),
    ],
)
def test_a_connection_fault_is_one_human_sentence(url: str, sentence: str) -> None:
    with pytest.raises(PaperdeskError) as caught:
        Library.open(url)
    assert str(caught.value) == f"the team library {url} {sentence}"
