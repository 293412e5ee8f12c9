"""Rolling backups of the library database, and restoring one.

A copy of the database (SQLite's online backup API, checked before it is kept) is
taken on the first open of each day and before every import and every schema upgrade,
into `LIBRARY/backups/`; the newest N automatic ones are kept (the library setting
`backups.keep`, 10 unless set). `restore_database` puts such a copy (or any
`.sqlite3` backup) back in place of a missing, damaged or unwanted database.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk.config import BACKUP_DIR, DB_FILE
from paperdesk.core.errors import (
    DamagedLibraryError,
    FormatError,
    InvalidValueError,
    LibraryError,
    PaperdeskError,
)
from paperdesk.services import indexing
from paperdesk.services.write_lock import Notice, lock_for
from paperdesk.store.faults import (
    clear_damage_mark,
    has_sqlite_header,
    mark_damaged,
    sanity_problem,
)
from paperdesk.store.sqlite_copies import (
    backup_reason,
    backup_sqlite,
    backup_time,
    backups_in,
    inspect_copy,
    install_copy,
    latest_backup,
    prune_backups,
)

if TYPE_CHECKING:
    from paperdesk.services.desk import Desk

log = logging.getLogger(__name__)

KEEP_SETTING = "backups.keep"
DEFAULT_KEEP = 10
IMPORT_BACKUP_SHARED_FOR = timedelta(minutes=1)


def kept(desk: Desk) -> int:
    """How many automatic backups the library keeps."""
    value = desk.library.settings.get(KEEP_SETTING)
    return int(value) if value is not None and value.isdigit() else DEFAULT_KEEP


def set_kept(desk: Desk, count: int) -> list[Path]:
    """Keep the newest `count` automatic backups from now on; returns those deleted."""
    if count < 1:
        raise InvalidValueError(f"keep at least one backup, not {count}")
    with desk.writing():
        desk.library.settings.set(KEEP_SETTING, str(count))
        return prune_backups(desk.backup_dir, count)


def take(desk: Desk, reason: str) -> Path:
    """A new backup of the database, uniquely named; older automatic ones are pruned."""
    try:
        made = backup_sqlite(desk.db_path, desk.backup_dir, reason)
    except DamagedLibraryError as error:
        # The copy failed its check, so the database did: no later command may write.
        mark_damaged(desk.db_path, error.reason)
        raise
    prune_backups(desk.backup_dir, kept(desk))
    log.info("backed up the library to %s", made)
    return made


def before_import(desk: Desk) -> Path | None:
    """The backup an import starts with; None for an empty library (nothing to lose).

    The files of one import share one backup: none is taken within a minute of the
    last import backup, so twenty files do not push every older backup out. A team
    library has none: its server is backed up there (pg_dump), not on each client.
    """
    if desk.library.shared or desk.library.papers.count() == 0:
        return None
    recent = datetime.now() - IMPORT_BACKUP_SHARED_FOR
    for path in reversed(backups_in(desk.backup_dir)):
        if backup_reason(path) == "import" and (backup_time(path) or datetime.min) > recent:
            return None
    return take(desk, "import")


def daily(desk: Desk) -> Path | None:
    """A backup on the day's first open of a library with papers.

    A failure is logged, never stops the opening.
    """
    today = datetime.now().date()
    if desk.library.papers.count() == 0:
        return None  # nothing to lose, and nothing a restore should be offered
    if any((backup_time(p) or datetime.min).date() == today for p in backups_in(desk.backup_dir)):
        return None
    try:
        return take(desk, "daily")
    except PaperdeskError as error:
        log.warning("no daily backup: %s", error)
        return None


def latest(folder: Path) -> Path | None:
    """The newest backup in the library folder, if any (what a restore is offered)."""
    return latest_backup(Path(folder) / BACKUP_DIR)


def is_database_file(path: Path) -> bool:
    """A `.sqlite3` backup (restored by `restore_database`), not a JSON one."""
    return has_sqlite_header(Path(path))


@dataclass(frozen=True)
class Restored:
    papers: int
    #: Where the database it replaced was moved (None when there was none).
    kept_aside: Path | None


def restore_database(
    folder: Path,
    source: Path,
    *,
    force: bool = False,
    progress: Callable[[int, int], None] | None = None,
    on_wait: Notice | None = None,
) -> Restored:
    """Put the backup `source` in place of the library's database, then re-index.

    A missing or damaged database is replaced as it is (and kept aside, never deleted);
    a sound one that holds papers only with `force`, after a backup of it. FormatError
    when `source` is not a sound paperdesk database; nothing is changed then.
    """
    from paperdesk.services.desk import Desk  # desk.py takes the daily backup: no cycle

    folder, source = Path(folder), Path(source)
    facts = inspect_copy(source)
    if facts.papers is None:
        raise FormatError(str(source), f"not a sound paperdesk backup ({facts.problems[0]})")
    db_path = folder / DB_FILE
    with lock_for(folder).hold(on_wait):
        current = inspect_copy(db_path) if db_path.exists() else None
        sound = current is not None and not current.problems and sanity_problem(db_path) is None
        if sound and current is not None and current.papers:
            if not force:
                raise LibraryError(
                    f"the library at {folder} holds {current.papers} papers, which a restore "
                    f"would replace: add --force to restore {source.name} all the same "
                    "(the library is backed up first)"
                )
            backup_sqlite(db_path, folder / BACKUP_DIR, "restore")
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        aside = install_copy(source, db_path, f"{'replaced' if sound else 'damaged'}-{stamp}")
        clear_damage_mark(db_path)
        with Desk.open(folder, ensure_index=False, on_wait=on_wait) as desk:
            # The index describes the replaced database; its stamp may match by chance.
            indexing.rebuild(desk.library, desk.index, progress)
            papers = desk.library.papers.count()
    log.info("restored %d papers from %s", papers, source)
    return Restored(papers, aside)
