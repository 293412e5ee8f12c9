"""Migrations: an empty library reaches the head; the models and migrations agree;
a newer library is refused; an older one is backed up before it is upgraded."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from paperdesk.core.errors import LibraryError
from paperdesk.store.db import make_engine
from paperdesk.store.library import Library
from paperdesk.store.migrate import SCHEMA_HEAD, current_revision, head_revision, upgrade_to_head
from paperdesk.store.schema import Base


def test_empty_library_migrates_to_head_with_wal_and_foreign_keys(tmp_path: Path) -> None:
    db = tmp_path / "library.sqlite3"
    Library.open(f"sqlite:///{db}", db, tmp_path / "backups").close()
    engine = make_engine(f"sqlite:///{db}")  # what the library connects with
    assert current_revision(engine) == head_revision()
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    engine.dispose()


def test_the_head_constant_is_the_newest_migration() -> None:
    assert head_revision() == SCHEMA_HEAD


def test_models_and_migrations_do_not_drift(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    upgrade_to_head(engine, None, None)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []


def test_library_from_newer_code_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "library.sqlite3"
    Library.open(f"sqlite:///{db}", db, tmp_path / "backups").close()
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999_future'")
    with pytest.raises(LibraryError, match="newer paperdesk"):
        Library.open(f"sqlite:///{db}", db, tmp_path / "backups")


def test_older_library_is_backed_up_before_upgrade(tmp_path: Path, monkeypatch) -> None:
    db = tmp_path / "library.sqlite3"
    Library.open(f"sqlite:///{db}", db, tmp_path / "backups").close()
    # Pretend the database is at an older revision that the scripts know.
    from alembic import command
    from alembic.script import ScriptDirectory

    import paperdesk.store.migrate as migrate

    monkeypatch.setattr(migrate, "current_revision", lambda engine: "0000_older")
    walk = ScriptDirectory.walk_revisions

    class Older:
        revision = "0000_older"

    monkeypatch.setattr(ScriptDirectory, "walk_revisions", lambda self: [*walk(self), Older()])
    monkeypatch.setattr(command, "upgrade", lambda config, target: None)
    upgrade_to_head(make_engine(f"sqlite:///{db}"), db, tmp_path / "backups")
    backups = list((tmp_path / "backups").glob("*.sqlite3"))
    assert len(backups) == 1 and "before-upgrade-0000_older" in backups[0].name
    with sqlite3.connect(backups[0]) as connection:
        assert connection.execute("SELECT count(*) FROM papers").fetchone() == (0,)


def database_at(revision: str, folder: Path) -> Path:
    """A library database as the code of migration `revision` left it, to fill with
    that code's rows and open with today's (which upgrades it)."""
    from alembic import command

    from paperdesk.store.migrate import alembic_config

    db = folder / "library.sqlite3"
    engine = make_engine(f"sqlite:///{db}")
    with engine.begin() as connection:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    engine.dispose()
    return db


def test_0002_moves_each_papers_state_to_its_own_table_keeping_everything_else(
    tmp_path: Path,
) -> None:
    db = database_at("0001", tmp_path)
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA foreign_keys=ON")
        connection.execute(
            "INSERT INTO papers (id, title, title_is_derived, abstract, status, rating, added,"
            " updated, fingerprint, raw_fields, alternatives) VALUES (1, 'A paper', 0, '',"
            " 'read', 4, '2025-01-01 10:00:00', '2025-02-01 10:00:00', 'f', '[]', '{}')"
        )
        connection.execute("INSERT INTO paper_authors VALUES (1, 0, 'Ada Lovelace')")
        connection.execute("INSERT INTO tags (id, name) VALUES (1, 'rnn')")
        connection.execute("INSERT INTO paper_tags VALUES (1, 1)")
        connection.execute(
            "INSERT INTO history (action, actor, at, undone, payload) VALUES"
            " ('Set status read', 'me', '2025-02-01 10:00:00', 0,"
            """ '[{"table": "papers", "before": [{"id": 1, "status": "new"}],"""
            """ "after": [{"id": 1, "status": "read"}]}]')"""
        )
    library = Library.open(f"sqlite:///{db}", db, tmp_path / "backups")
    try:
        (paper,) = library.papers.get_many([1])
        assert (paper.status.value, paper.rating) == ("read", 4)
        assert paper.updated.isoformat() == "2025-02-01T10:00:00"
        # Dropping the columns in place kept every row that points at the paper.
        assert paper.authors == ("Ada Lovelace",) and paper.tags == ("rnn",)
        # The old journal names columns that are gone: kept as a record, not undoable.
        assert library.history.labels().undo is None
        assert [entry.action for entry in library.history.recent()] == ["Set status read"]
    finally:
        library.close()
    assert list((tmp_path / "backups").glob("*before-upgrade-0001*"))


def test_0006_gives_the_decisions_logged_before_screenings_to_one_named_triage(
    tmp_path: Path,
) -> None:
    db = database_at("0005", tmp_path)
    with sqlite3.connect(db) as connection:
        connection.execute(
            "INSERT INTO papers (id, title, title_is_derived, abstract, added, fingerprint,"
            " raw_fields, alternatives) VALUES (1, 'A paper', 0, '', '2025-01-01 10:00:00',"
            " 'f', '[]', '{}')"
        )
        connection.execute(
            "INSERT INTO decisions (paper_id, decision, at)"
            " VALUES (1, 'keep', '2025-02-01 10:00:00')"
        )
    library = Library.open(f"sqlite:///{db}", db, tmp_path / "backups")
    try:
        (triage,) = library.screenings.all()
        assert (triage.name, triage.scope.kind.value, triage.scope.value) == (
            "Triage",
            "status",
            "new",
        )
        assert [entry.paper_id for entry in library.screenings.log(triage.id)] == [1]
    finally:
        library.close()
