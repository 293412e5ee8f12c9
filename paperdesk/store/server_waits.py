"""Every wait on a team library's server ends within the limit, however it went silent;
a pooled connection the server closed is replaced before use, without a round trip.

A connection that opened can go quiet later: the network cable pulled, the laptop's
Wi-Fi gone, the server's machine frozen. TCP says nothing for minutes then (a frozen
machine's kernel even acknowledges what it is sent), and libpq would wait for ever on a
query's answer. So a statement waiting longer than `SILENCE_S` asks whether the server
is still there, without disturbing it: a new TCP connection to its address and the
8 bytes of PostgreSQL's SSL request, which the server's main process answers with one
byte at once however busy its backends are. A server that answers is only busy (a
long statement, another client's write holding the row this one waits for): the wait
goes on. One that does not is gone: the connection is closed and the statement fails
as "timeout expired", which store/team_server.py words as "its server did not answer",
all within the 10 s limit (store/db.py CONNECT_TIMEOUT_S).

A server that restarts, or ends a session (`pg_terminate_backend`), says so on each
idle connection before closing it: the pool looks, at no cost, whether anything arrived
on a connection while it sat idle, and replaces it if so. (SQLAlchemy's pre-ping asked
the server "SELECT 1" before every use instead: a quarter of a team search's time.)
A connection that went silent without a word is caught by the bounded wait of its next
statement.
"""

from __future__ import annotations

import logging
import select
import socket
import struct
import time
from collections.abc import Generator
from typing import Any, TypeVar

import psycopg
from psycopg.abc import PQGen
from sqlalchemy import Engine, event
from sqlalchemy.exc import DisconnectionError

from paperdesk.store import db

log = logging.getLogger(__name__)

RV = TypeVar("RV")

#: Silence after which a statement's wait checks the server is still there; with the
#: check's own limit it stays within db.CONNECT_TIMEOUT_S.
SILENCE_S = db.CONNECT_TIMEOUT_S / 2
#: How long the check waits for the server's one-byte answer.
PROBE_S = db.CONNECT_TIMEOUT_S / 2 - 0.5
#: How often an idle wait wakes to look at the clock.
TICK_S = 0.25
#: PostgreSQL's SSLRequest: length 8, then the request code 80877103.
_SSL_REQUEST = struct.pack("!ii", 8, 80877103)


class SilenceBoundedConnection(psycopg.Connection[Any]):
    """A psycopg connection whose statements give up on a server that went away."""

    def wait(
        self,
        gen: PQGen[RV],
        interval: float = TICK_S,
        timeout: float | None = None,
    ) -> RV:
        return super().wait(self._bounded(gen), min(interval, TICK_S), timeout)

    def _bounded(self, gen: PQGen[RV]) -> Generator[Any, Any, RV]:
        """`gen`, failing once the server has been silent and does not answer a check.

        The wait loop sends "nothing ready" (0) each tick the socket stays quiet."""
        heard = time.monotonic()
        try:
            waiting_for = next(gen)
            while True:
                ready = yield waiting_for
                if ready:
                    heard = time.monotonic()
                elif time.monotonic() - heard >= SILENCE_S:
                    if not self._server_answers():
                        self.close()  # its state is unknown: the pool must not reuse it
                        raise psycopg.OperationalError(
                            "timeout expired: the server stopped answering"
                        )
                    heard = time.monotonic()
                waiting_for = gen.send(ready)
        except StopIteration as finished:
            result: RV = finished.value
            return result

    def _server_answers(self) -> bool:
        info = self.info
        address = info.hostaddr or info.host
        try:
            if address.startswith("/"):  # a Unix socket's folder
                probe = socket.socket(socket.AF_UNIX)
                target: Any = f"{address}/.s.PGSQL.{info.port}"
            else:
                probe = socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET)
                target = (address, info.port)
            with probe:
                probe.settimeout(PROBE_S)
                probe.connect(target)
                probe.sendall(_SSL_REQUEST)
                return len(probe.recv(1)) == 1
        except OSError as error:
            log.info("the team library's server at %s did not answer: %s", address, error)
            return False


def replace_closed_connections(engine: Engine) -> None:
    """Hand out no pooled connection the server said goodbye on while it was idle."""

    def checkout(dbapi_connection: Any, _record: object, _proxy: object) -> None:
        if dbapi_connection.closed:
            raise DisconnectionError("the connection was closed")
        readable, _, _ = select.select([dbapi_connection.fileno()], [], [], 0)
        if readable:  # an idle session hears only its end (or a rare notice: reconnect)
            raise DisconnectionError("the server ended the session while it was idle")

    event.listen(engine, "checkout", checkout)
