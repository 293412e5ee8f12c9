"""Copies of the database file: backups taken with SQLite's online backup API, and back.

A backup is written to a hidden temporary file beside its target, checked, and only
then given its name, so a full disk or a kill leaves no partial backup under a real
name. Rolling backups are named `library-YYYYMMDD-HHMMSS-ffffff-REASON.sqlite3`; a
name already taken (two backups in one microsecond) gets a `~2`, `~3`... suffix rather
than overwriting, and the names sort by time.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from paperdesk.core.errors import DamagedLibraryError, StorageError

log = logging.getLogger(__name__)

BACKUP_GLOB = "library-*.sqlite3"
_NAME = re.compile(r"library-(\d{8})-(\d{6})-(\d{6})-([\w-]+?)(?:~(\d+))?\.sqlite3")
#: Reasons a backup is taken without being asked; only these are pruned.
AUTOMATIC_REASONS = ("daily", "import", "restore")


def backup_sqlite(db_path: Path, backup_dir: Path, reason: str) -> Path:
    """Copy a live database consistently into `backup_dir`, under a new unique name."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    return copy_database(db_path, backup_dir / f"library-{stamp}-{reason}.sqlite3", unique=True)


def copy_database(source: Path, target: Path, *, unique: bool = False) -> Path:
    """Copy `source` to `target` whole or not at all; returns the path written.

    With `unique`, a taken name gets a numbered suffix; without it, `target` is
    replaced. The copy is checked (`PRAGMA quick_check`) before it takes its name: a
    copy of a damaged database is refused rather than kept as a backup. StorageError
    when the disk refuses, naming the target.
    """
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageError(f"cannot write {target}: {error.strerror}") from error
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        _backup(source, temporary)
        problems = quick_check(temporary)
        if problems:
            raise DamagedLibraryError(
                f"the library database {source} is damaged ({problems[0]}); "
                f"no backup was written to {target}",
                reason=problems[0],
            )
        _fsync(temporary)
        made = _link_unique(temporary, target) if unique else _replace(temporary, target)
    except sqlite3.Error as error:
        raise StorageError(f"cannot write {target}: {error}") from error
    except OSError as error:
        raise StorageError(f"cannot write {target}: {error.strerror or error}") from error
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
    _fsync_folder(target.parent)
    return made


def _backup(source: Path, target: Path) -> None:
    # Opened read-only: a backup must work on a read-only library, and never create one.
    reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    try:
        writer = sqlite3.connect(target)
        try:
            reader.backup(writer)
            # A copy is one self-contained file: reading it must not leave -wal and
            # -shm files beside it. Opening it as the library turns WAL back on.
            writer.execute("PRAGMA journal_mode=DELETE")
        finally:
            writer.close()
    finally:
        reader.close()


@dataclass(frozen=True)
class CopyFacts:
    """What a database file holds, read without changing it: is it a library, how big."""

    problems: tuple[str, ...]
    papers: int | None  # None when the file is not a paperdesk library


def inspect_copy(path: Path) -> CopyFacts:
    """Check a database file (a backup, or the library's own) and count its papers."""
    problems = quick_check(path)
    if problems:
        return CopyFacts(tuple(problems), None)
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master")}
        if not {"papers", "alembic_version"} <= tables:
            return CopyFacts(("it holds no paperdesk library",), None)
        (papers,) = connection.execute("SELECT count(*) FROM papers").fetchone()
    except sqlite3.DatabaseError as error:
        return CopyFacts((str(error),), None)
    finally:
        connection.close()
    return CopyFacts((), int(papers))


def quick_check(path: Path) -> list[str]:
    """SQLite's quick structural check of a database file; empty when sound."""
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = connection.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as error:
        return [str(error)]
    finally:
        connection.close()
    return check_messages(rows)


def check_messages(rows: Iterable[tuple[Any, ...]]) -> list[str]:
    """The problems a `quick_check` or `integrity_check` reports, one line each.

    SQLite heads a report on a damaged page with `*** in database main ***` and a line
    break, which made the damage message two lines: the heading goes, breaks become `; `.
    """
    problems = []
    for (message,) in rows:
        lines = [line.strip() for line in str(message).splitlines()]
        text = "; ".join(line for line in lines if line and not line.startswith("***"))
        if text and text != "ok":
            problems.append(text)
    return problems


def _link_unique(temporary: Path, target: Path) -> Path:
    """Give the file `target`'s name, or the first free numbered variant of it."""
    for number in range(1, 1000):
        name = target if number == 1 else target.with_name(f"{target.stem}~{number}.sqlite3")
        try:
            os.link(temporary, name)  # fails, never overwrites, when the name is taken
        except FileExistsError:
            continue
        return name
    raise StorageError(f"no free backup name beside {target}")


def _replace(temporary: Path, target: Path) -> Path:
    os.replace(temporary, target)
    return target


def _fsync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _fsync_folder(folder: Path) -> None:
    """Make the new name durable; not every platform can open a folder for this."""
    try:
        _fsync(folder)
    except OSError as error:
        log.debug("could not sync folder %s: %s", folder, error)


def backups_in(backup_dir: Path) -> list[Path]:
    """The backups in `backup_dir` this code named, oldest first."""
    if not backup_dir.is_dir():
        return []
    return sorted(p for p in backup_dir.glob(BACKUP_GLOB) if _NAME.fullmatch(p.name))


def backup_reason(path: Path) -> str:
    match = _NAME.fullmatch(path.name)
    return match.group(4) if match else ""


def backup_time(path: Path) -> datetime | None:
    match = _NAME.fullmatch(path.name)
    if match is None:
        return None
    return datetime.strptime("".join(match.group(1, 2, 3)), "%Y%m%d%H%M%S%f")


def latest_backup(backup_dir: Path) -> Path | None:
    backups = backups_in(backup_dir)
    return backups[-1] if backups else None


def prune_backups(backup_dir: Path, keep: int) -> list[Path]:
    """Delete all but the newest `keep` automatic backups; manual ones are never deleted."""
    automatic = [p for p in backups_in(backup_dir) if backup_reason(p) in AUTOMATIC_REASONS]
    doomed = automatic[: max(len(automatic) - keep, 0)]
    for path in doomed:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    return doomed


def install_copy(backup: Path, db_path: Path, keep_aside: str) -> Path | None:
    """Put a checked copy of `backup` in place of `db_path`; the old file is kept aside.

    Returns where the old database went (None when there was none). The old file and
    its -wal/-shm companions move together, so SQLite never replays an old log onto the
    restored file.
    """
    staged = copy_database(backup, db_path.with_name(f".{db_path.name}.restoring"))
    aside = None
    if db_path.exists():
        aside = db_path.with_name(f"{db_path.name}.{keep_aside}")
    for suffix in ("", "-wal", "-shm", "-journal"):
        old = Path(f"{db_path}{suffix}")
        if old.exists() and aside is not None:
            os.replace(old, Path(f"{aside}{suffix}"))
        elif old.exists():
            old.unlink()
    os.replace(staged, db_path)
    _fsync_folder(db_path.parent)
    return aside
