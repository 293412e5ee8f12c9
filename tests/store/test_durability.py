"""What an acknowledged change survives (issue 26, item 7): every connection to a
library's database syncs each commit (`synchronous=FULL`), so a power cut cannot roll
back a change the user was told is done. bench/bench_sync.py measures its price."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from paperdesk.store.library import Library

FULL = 2  # what `PRAGMA synchronous` answers for FULL (NORMAL is 1)


def test_every_connection_syncs_each_commit(tmp_path: Path) -> None:
    db = tmp_path / "library.sqlite3"
    library = Library.open(f"sqlite:///{db}", db, tmp_path / "backups")
    try:
        engine = library._db.engine
        with engine.connect() as first, engine.connect() as second:
            for connection in (first, second):
                assert connection.execute(text("PRAGMA synchronous")).scalar() == FULL
                assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    finally:
        library.close()
