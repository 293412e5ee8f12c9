"""Rolling backups of the library database, and restoring one.

A copy of the database (SQLite's online backup API, checked before it is kept) is
taken on the first open of each day and before every import and every schema upgrade,
into `LIBRARY/backups/`; the newest N automatic ones are kept (the library setting
`backups.keep`, 10 unless set). The actions on an open library (how many to keep,
the import's backup, restoring one) are services/use_cases/database_backups.py's.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk.config import BACKUP_DIR, DB_FILE
from paperdesk.core.errors import (
    DamagedLibraryError,
    PaperdeskError,
)
from paperdesk.store.faults import (
    has_sqlite_header,
    mark_damaged,
)
from paperdesk.store.sqlite_copies import (
    backup_sqlite,
    backup_time,
    backups_in,
    latest_backup,
    prune_backups,
)

if TYPE_CHECKING:
    from paperdesk.store.library import Library

log = logging.getLogger(__name__)

KEEP_SETTING = "backups.keep"
DEFAULT_KEEP = 10
IMPORT_BACKUP_SHARED_FOR = timedelta(minutes=1)


def kept(library: Library) -> int:
    """How many automatic backups the library keeps."""
    value = library.settings.get(KEEP_SETTING)
    return int(value) if value is not None and value.isdigit() else DEFAULT_KEEP


def take(library: Library, folder: Path, reason: str) -> Path:
    """A new backup of the database in `folder`, uniquely named; older automatic ones
    are pruned."""
    db_path, backup_dir = folder / DB_FILE, folder / BACKUP_DIR
    try:
        made = backup_sqlite(db_path, backup_dir, reason)
    except DamagedLibraryError as error:
        # The copy failed its check, so the database did: no later command may write.
        mark_damaged(db_path, error.reason)
        raise
    prune_backups(backup_dir, kept(library))
    log.info("backed up the library to %s", made)
    return made


def daily(library: Library, folder: Path) -> Path | None:
    """A backup on the day's first open of a library with papers.

    A failure is logged, never stops the opening.
    """
    today = datetime.now().date()
    if library.papers.count() == 0:
        return None  # nothing to lose, and nothing a restore should be offered
    if any(
        (backup_time(p) or datetime.min).date() == today for p in backups_in(folder / BACKUP_DIR)
    ):
        return None
    try:
        return take(library, folder, "daily")
    except PaperdeskError as error:
        log.warning("no daily backup: %s", error)
        return None


def latest(folder: Path) -> Path | None:
    """The newest backup in the library folder, if any (what a restore is offered)."""
    return latest_backup(Path(folder) / BACKUP_DIR)


def is_database_file(path: Path) -> bool:
    """A `.sqlite3` backup (restored by `restore_database`), not a JSON one."""
    return has_sqlite_header(Path(path))
