"""Engine creation: the store takes a SQLAlchemy URL, SQLite gets WAL and foreign keys."""

from __future__ import annotations

from sqlalchemy import Engine, create_engine, event


def make_engine(url: str) -> Engine:
    """An engine for `url`; SQLite connections get the pragmas DESIGN §3 asks for."""
    engine = create_engine(url, connect_args=_connect_args(url))
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _connect_args(url: str) -> dict[str, object]:
    if url.startswith("sqlite"):
        # The GUI reads from its thread and writes from a worker; each thread gets its
        # own pooled connection, never a shared one, so crossing threads is safe.
        return {"check_same_thread": False, "timeout": 30}
    return {}


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    # NORMAL is durable across application crashes in WAL mode and much faster than FULL.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
