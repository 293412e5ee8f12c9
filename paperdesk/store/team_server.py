"""A team library's server: its faults as one-line messages, one migrator at a time.

The database is remote and shared, so the file-based safeguards of a local library
(store/faults.py, services/write_lock.py) do not apply. Instead: a server that cannot
be reached, or refuses the login, is one line naming the masked address; and clients
opening a new or old library at once take turns through an advisory lock of the
server while one of them creates or upgrades the schema.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import psycopg.errors
from sqlalchemy import Engine, event, text
from sqlalchemy.engine import ExceptionContext

from paperdesk.core.errors import LibraryError, PasswordNeeded, ServerUnreachable

#: Any number, the same in every client: the advisory lock held while migrating.
MIGRATION_LOCK_KEY = 0x70617065  # "pape"


def translate_server_errors(engine: Engine, masked: str) -> None:
    """Re-raise connection faults of `engine` as the library's errors, naming `masked`."""

    def on_error(context: ExceptionContext) -> None:
        if context.is_pre_ping:
            # A pooled connection the server dropped (restarted, pg_terminate_backend):
            # the pool replaces it; only if that fails is the server unreachable.
            return
        error = context.original_exception
        if isinstance(error, psycopg.OperationalError):
            raise server_error(error, masked) from error
        if isinstance(error, psycopg.errors.InsufficientPrivilege):
            raise refusal(error, masked) from error

    event.listen(engine, "handle_error", on_error)


def refusal(error: psycopg.errors.InsufficientPrivilege, masked: str) -> LibraryError:
    """What the server refused this role, and what an owner grants to allow it."""
    reason = " ".join(str(error).split())
    if "row-level security" in reason or "only " in reason or "not rewritten" in reason:
        hint = "the server lets a member change only their own notes, ratings and history"
    elif "must be owner" in reason:
        hint = "the library's schema needs an upgrade that only its owners may run"
    else:
        hint = (
            "an owner of the library lets this role in with "
            f"`paperdesk --library {masked} team add-member NAME [--reader|--member|--owner]`"
        )
    return LibraryError(f"the team library {masked} refused: {reason} ({hint})")


def server_error(error: psycopg.OperationalError, masked: str) -> LibraryError:
    reason = " ".join(str(error).split()) or type(error).__name__
    if "no password supplied" in reason or "password authentication failed" in reason:
        return PasswordNeeded(f"the team library {masked} needs a password: {reason}")
    return ServerUnreachable(f"the team library {masked} cannot be reached: {reason}")


def check_server(url: str, masked: str, timeout_s: int = 5) -> None:
    """Log in to the server at `url` and out again, creating nothing: the library's
    error (PasswordNeeded, ServerUnreachable) when it refuses or cannot be reached."""
    try:
        with psycopg.connect("postgresql://" + url.split("://", 1)[1], connect_timeout=timeout_s):
            pass
    except psycopg.OperationalError as error:
        raise server_error(error, masked) from error


@contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """Hold the server's advisory lock for the schema (waits for another client's)."""
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY})
