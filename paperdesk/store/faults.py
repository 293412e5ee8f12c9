"""Storage faults as one-line messages: SQLite's errors become the library's own.

SQLAlchemy's `handle_error` hook sees every error the database raises; the storage
faults a user can meet (busy past the timeout, damaged, read-only, full, failing disk)
are re-raised as `StorageError`, `ReadOnlyLibraryError` or `DamagedLibraryError`, which
the CLI prints as they are and the GUI shows in a message box. Damage is also written
down beside the database (`library.sqlite3.damaged`), so that every later command
refuses the file, not only the one that happened to read the bad page.
"""

from __future__ import annotations

import logging
import shutil
import sqlite3
import time
from pathlib import Path

from sqlalchemy import Engine, event
from sqlalchemy.engine import ExceptionContext

from paperdesk.core.errors import (
    DamagedLibraryError,
    LibraryError,
    ReadOnlyLibraryError,
    StorageError,
)
from paperdesk.store.sqlite_copies import latest_backup

log = logging.getLogger(__name__)

SQLITE_MAGIC = b"SQLite format 3\x00"
DAMAGE_SUFFIX = ".damaged"


def translate_errors(engine: Engine, db_path: Path, backup_dir: Path | None) -> None:
    """Re-raise the storage faults of `engine` (on `db_path`) as the library's errors."""

    def on_error(context: ExceptionContext) -> None:
        error = context.original_exception
        if isinstance(error, sqlite3.Error):
            translated = storage_error(error, db_path, backup_dir)
            if translated is not None:
                raise translated from error

    event.listen(engine, "handle_error", on_error)


def storage_error(
    error: sqlite3.Error, db_path: Path, backup_dir: Path | None
) -> LibraryError | None:
    """The library's error for a storage fault; None for other errors (constraints...)."""
    name = getattr(error, "sqlite_errorname", "") or ""
    primary = name.split("_")[1] if name.count("_") >= 1 else ""
    reason = str(error)
    if primary in {"CORRUPT", "NOTADB"}:
        mark_damaged(db_path, reason)
        return damaged_error(db_path, reason, backup_dir)
    if primary == "READONLY":
        return ReadOnlyLibraryError(
            f"the library database {db_path} is read-only ({reason}): nothing was changed"
        )
    if primary == "FULL" or (primary in {"IOERR", "CANTOPEN"} and _disk_full(db_path)):
        return StorageError(
            f"the disk holding {db_path} is full: nothing was changed; free some space and "
            "try again"
        )
    if primary in {"BUSY", "LOCKED"}:
        return StorageError(
            f"the library database {db_path} stayed busy (another program holds it): "
            "nothing was changed; try again"
        )
    if primary in {"IOERR", "CANTOPEN"}:
        return StorageError(f"cannot read or write the library database {db_path} ({reason})")
    return None


def _disk_full(db_path: Path) -> bool:
    """SQLite reports a full disk as an I/O error when it cannot even create its -shm."""
    try:
        return shutil.disk_usage(db_path.parent).free < 64 * 1024
    except OSError:
        return False


def damaged_error(db_path: Path, reason: str, backup_dir: Path | None) -> DamagedLibraryError:
    """The one-line message for a damaged database, naming the backup that could replace it."""
    backup = latest_backup(backup_dir) if backup_dir is not None else None
    if backup is None:
        advice = "no backup of it was found"
    else:
        advice = (
            f"restore the latest backup with: paperdesk --library {db_path.parent} restore {backup}"
        )
    return DamagedLibraryError(
        f"the library database {db_path} is unusable: {reason}; {advice}", backup, reason
    )


def sanity_problem(db_path: Path) -> str | None:
    """What is wrong with the file at first sight (header, length), read in a few bytes.

    SQLite itself would take a zero-length file for a new empty database and reports a
    truncated one only when a query reaches the missing pages; a damage marker left by
    an earlier command stands until the database is restored or checked sound.
    """
    marker = damage_marker(db_path)
    if marker.exists():
        return marker.read_text(encoding="utf-8", errors="replace").strip() or "marked damaged"
    try:
        with db_path.open("rb") as stream:
            header = stream.read(100)
        size = db_path.stat().st_size
    except OSError as error:
        return f"cannot be read: {error.strerror}"
    if not header:
        return "it is empty"
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        return "its header is not a SQLite database's"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return "its header names an impossible page size"
    pages = int.from_bytes(header[28:32], "big")
    # The page count is valid only when its "version valid for" matches the change counter,
    # and only says how long the file is when no write-ahead log holds pages for it (a
    # checkpoint stopped by a full disk writes the new header, not all the pages).
    counted = header[92:96] == header[24:28] and not _has_log(db_path)
    if counted and pages * page_size > size:
        return f"it is cut short ({size:,} of {pages * page_size:,} bytes)"
    return None


def _has_log(db_path: Path) -> bool:
    try:
        return Path(f"{db_path}-wal").stat().st_size > 0
    except OSError:
        return False


def sanity_problem_settled(db_path: Path, attempts: int = 5) -> str | None:
    """`sanity_problem`, asked again a few times before a length fault is believed.

    A checkpoint in another process writes the header's new page count before the pages
    it counts, so a file can look cut short for a few milliseconds while it grows.
    """
    problem = sanity_problem(db_path)
    for _ in range(attempts):
        if problem is None or not problem.startswith("it is cut short"):
            return problem
        time.sleep(0.1)
        problem = sanity_problem(db_path)
    return problem


def has_sqlite_header(path: Path) -> bool:
    """Whether the file starts as every SQLite database does."""
    try:
        with path.open("rb") as stream:
            return stream.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def damage_marker(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + DAMAGE_SUFFIX)


def mark_damaged(db_path: Path, reason: str) -> None:
    """Write down that the database is damaged; a read-only folder just cannot remember."""
    try:
        damage_marker(db_path).write_text(reason + "\n", encoding="utf-8")
    except OSError as error:
        log.debug("could not mark %s damaged: %s", db_path, error)


def clear_damage_mark(db_path: Path) -> None:
    damage_marker(db_path).unlink(missing_ok=True)
