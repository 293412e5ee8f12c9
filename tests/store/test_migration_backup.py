"""The backup taken before a schema migration (issue 26, item 8): a whole, sound copy of
the library as it was, at its old revision, whether the upgrade then succeeds or fails."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from paperdesk.store.db import make_engine
from paperdesk.store.library import Library
from paperdesk.store.migrate import SCHEMA_HEAD, alembic_config


def library_at_0001(db: Path) -> None:
    """A library written by the first schema, holding one read, rated paper."""
    from alembic import command

    engine = make_engine(f"sqlite:///{db}")
    with engine.begin() as connection:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    engine.dispose()
    with sqlite3.connect(db) as connection:
        connection.execute(
            "INSERT INTO papers (id, title, title_is_derived, abstract, status, rating, added,"
            " updated, fingerprint, raw_fields, alternatives) VALUES (1, 'A paper', 0, '',"
            " 'read', 4, '2025-01-01 10:00:00', '2025-02-01 10:00:00', 'f', '[]', '{}')"
        )


def as_it_was(copy: Path) -> tuple[str, tuple[str, int], str]:
    with sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True) as connection:
        revision = connection.execute("SELECT version_num FROM alembic_version").fetchone()[0]
        paper = connection.execute("SELECT status, rating FROM papers").fetchone()
        check = connection.execute("PRAGMA quick_check").fetchone()[0]
    return revision, paper, check


def test_the_backup_before_an_upgrade_is_the_library_as_it_was(tmp_path: Path) -> None:
    db = tmp_path / "library.sqlite3"
    library_at_0001(db)
    Library.open(f"sqlite:///{db}", db, tmp_path / "backups").close()
    (backup,) = (tmp_path / "backups").glob("library-*-before-upgrade-0001.sqlite3")
    assert as_it_was(backup) == ("0001", ("read", 4), "ok")
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchone() == (
            SCHEMA_HEAD,
        )


def test_a_failed_upgrade_leaves_the_library_and_its_backup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from alembic import command

    db = tmp_path / "library.sqlite3"
    library_at_0001(db)
    real_upgrade = command.upgrade

    def upgrade_then_fail(config, target):  # type: ignore[no-untyped-def]
        real_upgrade(config, target)  # every migration runs, in the one transaction...
        raise OSError(28, "No space left on device")  # ...and the commit never comes

    monkeypatch.setattr(command, "upgrade", upgrade_then_fail)
    with pytest.raises(OSError):
        Library.open(f"sqlite:///{db}", db, tmp_path / "backups")
    (backup,) = (tmp_path / "backups").glob("library-*-before-upgrade-0001.sqlite3")
    assert as_it_was(backup) == ("0001", ("read", 4), "ok")
    assert as_it_was(db) == ("0001", ("read", 4), "ok")  # rolled back whole
