"""Engine creation: the store takes a SQLAlchemy URL, SQLite gets WAL and foreign keys."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine, create_engine, event

#: How long a statement waits for another program's write before giving up.
BUSY_TIMEOUT_S = 30
#: How long connecting to a team library's server may take before it counts as
#: unreachable (libpq's default is to wait for ever on a host that does not answer).
CONNECT_TIMEOUT_S = 10


def make_engine(url: str) -> Engine:
    """An engine for `url`; SQLite connections get the pragmas DESIGN §3 asks for.

    A `postgresql://` address (a team library) goes through psycopg 3; the pool hands
    out no connection the server closed (store/server_waits.py)."""
    if url.startswith(("postgresql://", "postgres://")):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    if url.startswith("postgresql"):
        return create_engine(
            url,
            hide_parameters=True,
            connect_args={"connect_timeout": CONNECT_TIMEOUT_S},
        )
    engine = create_engine(url, connect_args=_connect_args(url))
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def make_read_only_engine(db_path: Path) -> Engine:
    """An engine that can only read `db_path` (a library on a read-only folder or disk).

    SQLite reads a WAL database through its -shm file; where that file does not exist
    and cannot be created, the database is opened as immutable, which is sound because
    nothing can write to a folder no one can write to.
    """
    shared_memory = Path(f"{db_path}-shm")
    immutable = not shared_memory.exists() and not _writable(db_path.parent)
    query = "mode=ro&immutable=1" if immutable else "mode=ro"
    url = f"sqlite:///{db_path.resolve().as_uri()}?{query}&uri=true"
    engine = create_engine(url, connect_args=_connect_args(url))
    event.listen(engine, "connect", _read_only_pragmas)
    return engine


def can_write(db_path: Path) -> bool:
    """Whether the database (and its folder, where SQLite keeps its -wal file) is writable."""
    folder_ok = _writable(db_path.parent)
    return folder_ok and (not db_path.exists() or _writable(db_path))


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK)


#: SQLite's `synchronous` setting for a library's database (FULL: fsync every commit).
SYNCHRONOUS = "FULL"


def _connect_args(url: str) -> dict[str, object]:
    if url.startswith("sqlite"):
        # The GUI reads from its thread and writes from a worker; each thread gets its
        # own pooled connection, never a shared one, so crossing threads is safe.
        # `timeout` is SQLite's busy timeout: a write waits that long for another's.
        return {"check_same_thread": False, "timeout": BUSY_TIMEOUT_S}
    return {}


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    # A new library gets 16 KiB pages (a no-op on an existing one): a paper's row, about
    # 2 KB, left a third of every 4 KiB page unused; 16 KiB pages pack it ~8 to a page.
    # It must come before journal_mode, which writes the file's first page.
    cursor.execute("PRAGMA page_size=16384")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    # A commit the user saw acknowledged survives a power cut: under NORMAL, WAL mode
    # syncs only at checkpoints, and a power loss may roll the last commits back.
    # (bench/bench_sync.py: the price per commit; docs/faults.md.)
    cursor.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
    # Checks each page's cells as it is read, so damage is reported, not written over.
    cursor.execute("PRAGMA cell_size_check=ON")
    cursor.close()


def _read_only_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA cell_size_check=ON")
    cursor.close()
