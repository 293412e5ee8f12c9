"""The database file's faults (missing, empty, cut short, bad header, bad page) and its copies."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from paperdesk.core.errors import DamagedLibraryError, StorageError
from paperdesk.core.models import PaperRecord
from paperdesk.store.faults import damage_marker, sanity_problem
from paperdesk.store.library import Library
from paperdesk.store.sqlite_copies import (
    backup_sqlite,
    backups_in,
    copy_database,
    inspect_copy,
    latest_backup,
    prune_backups,
)


def make_library(folder: Path, papers: int = 30) -> Path:
    db = folder / "library.sqlite3"
    library = Library.open(f"sqlite:///{db}", db, folder / "backups")
    records = [PaperRecord(title=f"Paper {i}", abstract="x " * 400) for i in range(papers)]
    library.imports.commit("Import", records)
    library.close()
    return db


def damage_page(db: Path, page: int = 3) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = int.from_bytes(db.read_bytes()[16:18], "big")
    with db.open("r+b") as stream:
        stream.seek(page_size * (page - 1))
        stream.write(b"\xa5" * page_size)


def test_a_sound_database_has_no_problem(tmp_path: Path) -> None:
    assert sanity_problem(make_library(tmp_path)) is None


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda db: db.write_bytes(b""), "it is empty"),
        (lambda db: db.write_bytes(b"not a database at all" * 10), "its header is not"),
        (lambda db: db.write_bytes(db.read_bytes()[:8192]), "it is cut short"),
    ],
    ids=["empty", "header", "cut-short"],
)
def test_damage_seen_at_first_sight(tmp_path: Path, damage, problem: str) -> None:
    db = make_library(tmp_path)
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    damage(db)
    assert (sanity_problem(db) or "").startswith(problem)


def test_a_bad_page_is_a_one_line_damage_error_and_is_remembered(tmp_path: Path) -> None:
    db = make_library(tmp_path, papers=200)
    damage_page(db)
    library = Library.open(f"sqlite:///{db}", db, tmp_path / "backups")
    try:
        with pytest.raises(DamagedLibraryError) as caught:
            library.papers.count()
            library.integrity_problems()
    finally:
        library.close()
    assert "\n" not in str(caught.value) and "is unusable" in str(caught.value)
    # Every later command refuses the file, not only the one that read the bad page.
    assert damage_marker(db).exists() and sanity_problem(db)


def test_two_backups_in_one_instant_both_survive(tmp_path: Path) -> None:
    db = make_library(tmp_path)
    target = tmp_path / "backups" / "library-20250101-120000-000000-daily.sqlite3"
    first = copy_database(db, target, unique=True)
    second = copy_database(db, target, unique=True)
    assert first != second and first.exists() and second.exists()
    assert [p.name for p in backups_in(tmp_path / "backups")] == [
        "library-20250101-120000-000000-daily.sqlite3",
        "library-20250101-120000-000000-daily~2.sqlite3",
    ]


def test_a_backup_is_a_checked_single_file_and_pruning_spares_manual_ones(tmp_path: Path) -> None:
    db = make_library(tmp_path)
    folder = tmp_path / "backups"
    manual = backup_sqlite(db, folder, "manual")
    daily = [backup_sqlite(db, folder, "daily") for _ in range(4)]
    assert inspect_copy(daily[0]).papers == 30
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in [manual, *daily])
    assert prune_backups(folder, keep=2) == daily[:2]
    assert backups_in(folder) == [manual, *daily[2:]]
    assert latest_backup(folder) == daily[-1]


def test_a_damaged_database_gives_no_backup_and_leaves_no_file(tmp_path: Path) -> None:
    db = make_library(tmp_path, papers=200)
    damage_page(db)
    with pytest.raises(DamagedLibraryError):
        backup_sqlite(db, tmp_path / "backups", "daily")
    assert list((tmp_path / "backups").iterdir()) == []


def test_a_backup_that_cannot_be_written_leaves_no_partial_file(tmp_path: Path) -> None:
    db = make_library(tmp_path)
    (tmp_path / "blocked").write_text("a file where a folder should be")
    with pytest.raises(StorageError, match="cannot write"):
        copy_database(db, tmp_path / "blocked" / "copy.sqlite3")


def test_a_page_damaged_inside_is_reported_in_one_line(tmp_path: Path) -> None:
    """SQLite's check heads such a report `*** in database main ***` and a line break."""
    db = make_library(tmp_path, papers=200)
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = int.from_bytes(db.read_bytes()[16:18], "big")
    with db.open("r+b") as stream:
        stream.seek(page_size * 2 + 8)  # page 3's cell pointers, its header left sound
        stream.write(b"\x07" * 50)
    library = Library.open(f"sqlite:///{db}", db, tmp_path / "backups")
    try:
        problems = [*(library.quick_check() or []), *library.integrity_problems()]
    finally:
        library.close()
    assert problems and all("\n" not in p and "***" not in p for p in problems)
    assert problems[0].startswith("database: On tree page 3 cell 0: ")
