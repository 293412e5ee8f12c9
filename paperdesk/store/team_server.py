"""A team library's server: its faults as one-line messages, one migrator at a time.

The database is remote and shared, so the file-based safeguards of a local library
(store/faults.py, services/runtime/write_lock.py) do not apply. Instead: a server that cannot
be reached, or refuses the login, is one line naming the masked address; and clients
opening a new or old library at once take turns through an advisory lock of the
server while one of them creates or upgrades the schema.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import psycopg.errors
from psycopg.conninfo import conninfo_attempts, conninfo_to_dict
from sqlalchemy import Engine, event, text
from sqlalchemy.engine import ExceptionContext

from paperdesk.core.errors import LibraryError, PasswordNeeded, ServerUnreachable
from paperdesk.store import db
from paperdesk.store.server_waits import SilenceBoundedConnection

log = logging.getLogger(__name__)

#: Any number, the same in every client: the advisory lock held while migrating.
MIGRATION_LOCK_KEY = 0x70617065  # "pape"


def translate_server_errors(engine: Engine, masked: str) -> None:
    """Re-raise connection faults of `engine` as the library's errors, naming `masked`."""

    def on_error(context: ExceptionContext) -> None:
        error = context.original_exception
        if isinstance(error, psycopg.OperationalError):
            raise server_error(error, masked) from error
        if isinstance(error, psycopg.errors.InsufficientPrivilege):
            raise refusal(error, masked) from error

    event.listen(engine, "handle_error", on_error)


def refusal(error: psycopg.errors.InsufficientPrivilege, masked: str) -> LibraryError:
    """What the server refused this role, and why (the first of _REFUSALS that names
    the cause), or what an owner grants to allow it. The server's own sentence, without
    the CONTEXT lines naming the function that raised it."""
    reason = " ".join((error.diag.message_primary or str(error)).split())
    hint = next((why for fragment, why in _REFUSALS if fragment in reason), None)
    if hint is None:
        hint = (
            "an owner of the library lets this role in with "
            f"`paperdesk --library {masked} team add-member NAME [--reader|--member|--owner]`"
        )
    return LibraryError(f"the team library {masked} refused: {reason} ({hint})")


#: Fragments of the server's refusals (the migrations' triggers and row-level
#: security), and why each is refused, in a person's words. The first that matches wins.
_REFUSALS: tuple[tuple[str, str], ...] = (
    (
        "is forgotten only once",
        "a blind screening keeps each member's decisions hidden until they finish it",
    ),
    (
        "carries another member's screening decision",
        "a member's screening decision is theirs: it follows a merge, never a delete",
    ),
    (
        "that a blind screening hides",
        "a blind screening hides them from you until you finish it, so they cannot be merged",
    ),
    (
        "holds other members' notes or ratings",
        "each member's notes and ratings are their own: only an owner removes them",
    ),
    ("only an owner", "a screening's blindness is its owners' to set or end"),
    (
        "undo, redo or withdraw",
        "the server lets a member undo or redo only their own actions",
    ),
    ("not rewritten", "the server keeps a team library's history as it was written"),
    (
        "row-level security",
        "the server lets a member change only their own notes, ratings and decisions",
    ),
    ("must be owner", "the library's schema needs an upgrade that only its owners may run"),
)


#: Fragments of libpq's messages, and the sentence a person reads for each (libpq's
#: own text, "connection to server at "127.0.0.1", port 5432 failed: ...", goes to
#: the log). The first that matches wins.
_SENTENCES: tuple[tuple[str, type[LibraryError], str], ...] = (
    ("no password supplied", PasswordNeeded, "needs a password"),
    ("password authentication failed", PasswordNeeded, "refused the password"),
    ("timeout expired", ServerUnreachable, "cannot be reached: its server did not answer"),
    ("Connection refused", ServerUnreachable, "cannot be reached: no server answers there"),
    ("could not translate host name", ServerUnreachable, "cannot be reached: unknown host"),
    ("Name or service not known", ServerUnreachable, "cannot be reached: unknown host"),
    ("No route to host", ServerUnreachable, "cannot be reached: no network route to it"),
    ("Network is unreachable", ServerUnreachable, "cannot be reached: no network"),
    ("closed the connection", ServerUnreachable, "cannot be reached: the connection was lost"),
    ("terminating connection", ServerUnreachable, "cannot be reached: the server went away"),
    ("the database system is", ServerUnreachable, "cannot be reached: its server is starting"),
)
#: The server's own sentence after libpq's heading: `database "x" does not exist`.
_SERVER_SAYS = re.compile(r"(?:FATAL|ERROR):\s+(.*)$")


def server_error(error: psycopg.OperationalError, masked: str) -> LibraryError:
    """One sentence for a connection fault: what went wrong, never the driver's text
    (which names addresses and sockets, not the library)."""
    reason = " ".join(str(error).split()) or type(error).__name__
    log.debug("the team library %s: %s", masked, reason)
    for fragment, kind, sentence in _SENTENCES:
        if fragment in reason:
            return kind(f"the team library {masked} {sentence}")
    said = _SERVER_SAYS.search(reason)
    if said is not None:  # the server answered, and refused: not "unreachable"
        return LibraryError(f"the team library {masked} was refused: {said.group(1)}")
    return ServerUnreachable(f"the team library {masked} cannot be reached: {reason}")


def check_server(url: str, masked: str, timeout_s: int = 5) -> None:
    """Log in to the server at `url` and out again, creating nothing: the library's
    error (PasswordNeeded, ServerUnreachable) when it refuses or cannot be reached."""
    conninfo = "postgresql://" + url.split("://", 1)[1]
    try:
        timeout = per_address(conninfo_to_dict(conninfo), timeout_s)
        with psycopg.connect(conninfo, connect_timeout=timeout):
            pass
    except psycopg.OperationalError as error:
        raise server_error(error, masked) from error


def bound_connect_time(engine: Engine) -> None:
    """Connect within the limit (store/db.py CONNECT_TIMEOUT_S) however many addresses
    the host has, to a connection whose later waits are bounded too
    (store/server_waits.py).

    libpq (and psycopg) wait `connect_timeout` for each address a host name resolves
    to: `localhost` is ::1 and 127.0.0.1 on most machines, so a server that accepts and
    never answers took twice the limit to report. The limit is split between them
    (libpq's floor is 2 s an address).
    """

    def connect(
        _dialect: object, _record: object, args: list[Any], params: dict[str, Any]
    ) -> SilenceBoundedConnection:
        params["connect_timeout"] = per_address(params, db.CONNECT_TIMEOUT_S)
        return SilenceBoundedConnection.connect(*args, **params)

    event.listen(engine, "do_connect", connect)


def per_address(params: dict[str, Any], total_s: int) -> int:
    """The connect timeout for each address of the host, for all to take `total_s`."""
    try:
        attempts = len(conninfo_attempts(params))
    except psycopg.Error:
        return total_s  # an unknown host: the connect itself says so, at once
    return max(2, total_s // max(attempts, 1))


@contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """Hold the server's advisory lock for the schema (waits for another client's)."""
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY})
