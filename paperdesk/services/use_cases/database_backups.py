"""The library's database backups, as actions on an open library: how many to keep,
the backup an import starts with, and restoring a backup in place of the database.

How a backup is taken, checked and pruned is services/runtime/rolling_backups.py's (Desk takes
the day's first backup through it when a library opens).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from paperdesk.config import BACKUP_DIR, DB_FILE
from paperdesk.core.errors import FormatError, InvalidValueError, LibraryError
from paperdesk.services.runtime import indexing, rolling_backups
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.runtime.rolling_backups import IMPORT_BACKUP_SHARED_FOR
from paperdesk.services.runtime.write_lock import Notice, lock_for
from paperdesk.store.faults import clear_damage_mark, sanity_problem
from paperdesk.store.sqlite_copies import (
    backup_reason,
    backup_sqlite,
    backup_time,
    backups_in,
    inspect_copy,
    install_copy,
    prune_backups,
)

log = logging.getLogger(__name__)


def set_kept(desk: Desk, count: int) -> list[Path]:
    """Keep the newest `count` automatic backups from now on; returns those deleted."""
    if count < 1:
        raise InvalidValueError(f"keep at least one backup, not {count}")
    with desk.writing():
        desk._library.settings.set(rolling_backups.KEEP_SETTING, str(count))
        return prune_backups(desk.backup_dir, count)


def before_import(desk: Desk) -> Path | None:
    """The backup an import starts with; None for an empty library (nothing to lose).

    The files of one import share one backup: none is taken within a minute of the
    last import backup, so twenty files do not push every older backup out. A team
    library has none: its server is backed up there (pg_dump), not on each client.
    """
    if desk._library.shared or desk._library.papers.count() == 0:
        return None
    recent = datetime.now() - IMPORT_BACKUP_SHARED_FOR
    for path in reversed(backups_in(desk.backup_dir)):
        if backup_reason(path) == "import" and (backup_time(path) or datetime.min) > recent:
            return None
    return rolling_backups.take(desk._library, desk.folder, "import")


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
            indexing.rebuild(desk._library, desk._index, progress)
            papers = desk._library.papers.count()
    log.info("restored %d papers from %s", papers, source)
    return Restored(papers, aside)
