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
from paperdesk.store.server_waits import SILENCE_S
from tests.gui.tcp_proxy import TcpProxy
from tests.postgres_server import PostgresServer


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


def test_a_server_that_stops_answering_mid_session_is_reported_within_the_limit(
    postgres_server: PostgresServer, proxy: TcpProxy, team_database: str
) -> None:
    library = Library.open(f"postgresql://bob@localhost:{proxy.port}/{team_database}")
    try:
        assert library.papers.count() == 0  # the session is open and answering
        proxy.go_silent()
        started = time.monotonic()
        with pytest.raises(ServerUnreachable) as caught:
            library.papers.count()
        took = time.monotonic() - started
        assert took < CONNECT_TIMEOUT_S + 1.5, f"{took:.1f} s"
        assert str(caught.value).endswith("cannot be reached: its server did not answer")
    finally:
        library.close()
        proxy.stop()


def test_a_statement_waiting_on_another_clients_write_is_not_taken_for_silence(
    postgres_server: PostgresServer, team_database: str
) -> None:
    # The server is there but this write waits for the generation row another client
    # holds for longer than the silence that makes a wait check on the server.
    library = Library.open(postgres_server.url(team_database, "bob"))
    holder = Library.open(postgres_server.url(team_database, "carol"))
    try:
        with holder._db.transaction():
            writing = threading.Thread(target=library.tags.create, args=("waited",))
            writing.start()
            writing.join(SILENCE_S + 1.5)
            assert writing.is_alive()  # still waiting: not reported as a silent server
        writing.join(5)
        assert [tag.name for tag in library.tags.all()] == ["waited"]
    finally:
        library.close()
        holder.close()


def test_a_session_the_server_ended_while_idle_is_replaced_without_a_word(
    postgres_server: PostgresServer, team_database: str
) -> None:
    import psycopg

    library = Library.open(postgres_server.url(team_database, "bob"))
    try:
        assert library.papers.count() == 0  # a connection now idle in the pool
        with psycopg.connect(postgres_server.url(team_database, "postgres")) as admin:
            ended = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE usename = 'bob'"
            ).fetchone()
        assert ended == (1,)
        time.sleep(0.2)  # the server's goodbye reaches the idle connection
        assert library.papers.count() == 0  # no error: the pool replaced it
    finally:
        library.close()
