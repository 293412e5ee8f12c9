"""Desk: an open library folder (database + search index) that services act on."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk.config import BACKUP_DIR, DB_FILE, INDEX_DIR, UNFINISHED_DIR, team_state_dir
from paperdesk.core.changes import Changes
from paperdesk.core.errors import (
    LibraryError,
    ReadOnlyLibraryError,
    ServerUnreachable,
    StorageError,
)
from paperdesk.core.team_url import TeamAddress
from paperdesk.formats.atomic import remove_unfinished
from paperdesk.search.index import FullTextIndex
from paperdesk.services.runtime import indexing, rolling_backups, team_index
from paperdesk.services.runtime.index_follower import IndexFollower
from paperdesk.services.runtime.write_lock import Notice, WriteLock, lock_for
from paperdesk.store.db import can_write
from paperdesk.store.faults import damaged_error, mark_damaged, sanity_problem_settled
from paperdesk.store.library import Library
from paperdesk.store.sqlite_copies import backups_in

if TYPE_CHECKING:  # the ranking loads scikit-learn: only when a library first needs it
    from paperdesk.services.runtime.promise import Promise

log = logging.getLogger(__name__)

#: How long the check before a program's first write may take (about 15 MB of database).
QUICK_CHECK_BUDGET_S = 0.3


class Desk:
    """The library folder: `library.sqlite3`, `index/`, `backups/`.

    Every change goes through `writing()`, which holds the library's write lock across
    programs (services/runtime/write_lock.py). A library whose folder or database cannot be
    written opens `read_only`: reads and searches work, changes are refused.

    A team library (`open_team`) lives on a PostgreSQL server; its folder is local
    state (the search index) in the user data folder, keyed by server and database.
    The server's transactions keep the clients' writes apart; the write lock then
    only keeps this machine's programs from writing the shared local index at once.

    The store and the index are private (`_library`, `_index`): the services of this
    package use them; the GUI and the CLI call the services (ruff's SLF001 refuses a
    private member in paperdesk/gui and paperdesk/cli).
    """

    def __init__(
        self,
        folder: Path,
        library: Library,
        index: FullTextIndex,
        read_only: bool = False,
        on_wait: Notice | None = None,
        address: TeamAddress | None = None,
    ) -> None:
        self.folder = folder
        #: Where a team library's database is (None: the local library in `folder`).
        self.address = address
        self._library = library
        self._index = index
        self._promise: Promise | None = None
        self._promise_lock = threading.Lock()
        self.read_only = read_only
        #: A team library whose server the window found away: writes are refused at
        #: once (not after a network timeout), saying why.
        self.offline = False
        #: Told (from the writing thread) when a change waits for another program's.
        self.on_wait = on_wait
        self.lock: WriteLock = lock_for(folder)
        self._checked = False
        self._index_failed = False
        self._index_apart = False
        # How far the search index is behind the database, and bringing it up.
        self._follower = IndexFollower(library, index)
        # A service marked @mutation follows its writes (services/use_cases/_sync.py).
        library.listen(_written_outside_a_mutation)

    @property
    def location(self) -> str:
        """The library as the user names it: its folder, or a team library's masked URL."""
        return self.address.masked if self.address is not None else str(self.folder)

    @property
    def db_path(self) -> Path:
        return self.folder / DB_FILE

    @property
    def backup_dir(self) -> Path:
        return self.folder / BACKUP_DIR

    @classmethod
    def open(
        cls,
        folder: Path,
        progress: Callable[[int, int], None] | None = None,
        ensure_index: bool = True,
        on_wait: Notice | None = None,
        maintain: bool = True,
        index_apart: bool = False,
    ) -> Desk:
        """Open (creating if needed) a library; bring its index up to date.

        DamagedLibraryError when the database is missing from a folder that held a
        library, or is damaged: never an empty library in its place. `maintain=False`
        leaves `maintain` (the day's backup, the index's check) to the caller: the
        window paints its table first and runs it next on its writer thread.
        `index_apart` (a window): once maintained, every index update of a large
        library is made in a worker process (IndexFollower.keep_apart).
        """
        folder = Path(folder)
        _make_folder(folder)
        db_path = folder / DB_FILE
        check_database_file(folder)
        read_only = not can_write(db_path)
        lock = lock_for(folder)
        library = Library.open(
            f"sqlite:///{db_path}",
            db_path,
            folder / BACKUP_DIR,
            read_only=read_only,
            upgrade_guard=None if read_only else lambda: lock.hold(on_wait),
        )
        desk = cls(folder, library, FullTextIndex(folder / INDEX_DIR), read_only, on_wait)
        desk._index_apart = index_apart
        if maintain:
            desk.maintain(progress, ensure_index)
        return desk

    def maintain(
        self,
        progress: Callable[[int, int], None] | None = None,
        ensure_index: bool = True,
        catch_up: bool = True,
    ) -> str | None:
        """What opening a library does once its database is open: the day's backup
        (seconds at 100,000 papers), an import's unfinished indexing (`catch_up=False`:
        left for the caller's `catch_up_deferred` in chunks), and, with
        `ensure_index`, the index brought up to date. Returns why it was stale, if it was."""
        if self._library.shared:  # its server keeps the backups and the import records
            return self.ensure_index(progress) if ensure_index else None
        self._follower.resume(_interrupted_import_indexing(self._library, self._index))
        if not self.read_only:
            remove_unfinished(self.folder / UNFINISHED_DIR)  # what a killed export left behind
            with self.lock.hold_if_free() as free:
                if free:  # else another program writes: it or the next open cleans up
                    self._index.remove_leftovers()  # what a killed index writer left
            rolling_backups.daily(self._library, self.folder)
        if not ensure_index:
            return None
        if catch_up and self._follower.waiting() and not self.read_only:
            self.catch_up_deferred()  # just the papers an import left unindexed
        reason = self.ensure_index(progress)
        if self._index_apart and not self.read_only:
            self._follower.keep_apart()
        return reason

    @classmethod
    def open_team(
        cls,
        address: TeamAddress,
        progress: Callable[[int, int], None] | None = None,
        ensure_index: bool = True,
        on_wait: Notice | None = None,
    ) -> Desk:
        """Open (creating its tables if needed) the team library at `address`, and bring
        this machine's index of it up to date. Changes are recorded as the role the server
        authenticated (never a name the environment gives)."""
        folder = team_state_dir(address)
        _make_folder(folder)
        library = Library.open(address.url)
        read_only = not library.may_write()  # a reader's role: the server refuses writes
        desk = cls(folder, library, FullTextIndex(folder / INDEX_DIR), read_only, on_wait, address)
        if ensure_index:
            desk.ensure_index(progress)
        return desk

    def catch_up_deferred(self, limit: int | None = None) -> int:
        """Re-index up to `limit` (default: all) of the papers left behind by bulk
        changes; returns how many still wait. Each call is one commit, so a caller can
        take turns with other writes (a star rated between two chunks is not kept
        waiting)."""
        if not self._follower.waiting():
            return 0
        with self.writing():  # index writes take turns with other programs' actions
            return self._follower.catch_up(limit)

    def papers_behind(self) -> int:
        """How many papers' search documents wait for `catch_up_deferred`."""
        return self._follower.waiting()

    def catch_up_with_others(
        self, progress: Callable[[int, int], None] | None = None, generation: int | None = None
    ) -> int:
        """Re-index what other clients changed in a team library since this machine's
        index last caught up (services/runtime/team_index.py); returns how many papers.

        One query when nothing changed (none when the caller read the `generation`), so
        searches call it every time.
        """
        if not self._library.shared:
            return 0
        if generation is not None and team_index.caught_up_to(self._index) == generation:
            # A search's usual case, without taking this machine's lock (a third of a
            # team search's CPU): the cursor file is replaced whole, after the index
            # it describes was written.
            return 0
        with self.lock.hold(self.on_wait):  # this machine's programs share the index
            return team_index.catch_up(self._library, self._index, progress, generation)

    @contextmanager
    def writing(self, progress: Callable[[int, int], None] | None = None) -> Iterator[None]:
        """Hold the library's write lock for one action (re-entrant within a thread).

        The outermost hold first checks the database once per Desk (a damaged file takes
        no writes) and brings the index up to date if another program's action left it
        behind (it died, or its disk filled, between its commit and its index update).
        """
        if self.offline:
            raise ServerUnreachable(
                f"the team library {self.location} cannot be reached: nothing was changed yet"
            )
        if self.read_only:
            raise ReadOnlyLibraryError(
                f"the library at {self.location} is read-only: nothing was changed"
            )
        with self.lock.hold(self.on_wait):
            if self.lock.depth == 1:
                self._check_once()
                self._catch_up_index(progress)
            yield

    def ensure_index(self, progress: Callable[[int, int], None] | None = None) -> str | None:
        """Rebuild the index when missing, stale or damaged; returns why it was stale.

        Checked first without the lock (the common case: current); a stale index is
        rebuilt under it, and only if it is still stale once the lock is held (another
        program may just have been finishing its update).
        """
        if self._library.shared:
            self.catch_up_with_others(progress)
            return None
        reason = self._index.why_stale(self._library.generation())
        if reason is None:
            return None
        if self.read_only:
            log.warning("the search index is out of date (%s); searches may miss papers", reason)
            return reason
        with self.writing(progress):
            pass
        return reason

    @property
    def promise(self) -> Promise:
        """'Most promising first' for this library (runtime/promise.py), made on first use."""
        with self._promise_lock:
            if self._promise is None:
                from paperdesk.services.runtime.promise import Promise

                self._promise = Promise(self.folder, self._library)
            return self._promise

    def promise_if_started(self) -> Promise | None:
        return self._promise

    def _catch_up_index(self, progress: Callable[[int, int], None] | None) -> None:
        if self._index_failed:
            return  # tried once by this Desk already; the next program tries again
        if self._library.shared:
            # Others change a team library all the time: its index catches up when it
            # opens and before a search (catch_up_with_others), not before every write.
            return
        if self._follower.stale_on_purpose():
            # Stale because this Desk deferred a bulk change's re-indexing (catch_up
            # finishes it in chunks) or an import's (index_import adds its papers): a
            # rebuild here would redo all of it at once.
            return
        reason = self._index.why_stale(self._library.generation())
        if reason is None:
            return
        log.info("rebuilding the search index: %s", reason)
        try:
            indexing.rebuild(self._library, self._index, progress)
        except (OSError, StorageError) as error:
            # The database is the truth and can still take the change. The rebuild left
            # nothing behind and the index that was there stays in use (an older one
            # still finds most papers); the next program tries again, once it can.
            self._index_failed = True
            log.warning("the search index could not be rebuilt: %s", _reason(error))

    def _check_once(self) -> None:
        """SQLite's quick check before this Desk's first write: damage takes no writes.

        Bounded in time, so a write command on a large library stays quick; such a
        library is checked in full by the day's first backup (rolling_backups.daily).
        """
        if self._checked:
            return
        problems = self._library.quick_check(budget_s=QUICK_CHECK_BUDGET_S)
        if problems:
            reason = problems[0].removeprefix("database: ")
            mark_damaged(self.db_path, reason)
            raise damaged_error(self.db_path, reason, self.backup_dir)
        self._checked = True

    def close(self, catch_up: bool = True) -> None:
        """Close the library, re-indexing first what a bulk edit left behind (unless
        `catch_up` is False: the window does not wait; the next open rebuilds)."""
        if catch_up and self._follower.waiting() and not self.read_only:
            self.catch_up_deferred()
        if self._promise is not None:
            self._promise.close()
        self._follower.close()
        self._index.close()
        self._library.close()

    def __enter__(self) -> Desk:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def _interrupted_import_indexing(library: Library, index: FullTextIndex) -> list[int]:
    """The papers an import stored but had not indexed when its program ended, if the
    index has everything else (then they are indexed in the background, not the whole
    library again); none when anything changed since (the index is rebuilt)."""
    pending = library.imports.pending_indexing()
    if pending is None or pending.generation != library.generation():
        return []
    return pending.paper_ids if index.why_stale(pending.generation - 1) is None else []


def _reason(error: OSError | StorageError) -> str:
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise LibraryError(
            f"cannot create the library folder {folder}: {error.strerror}"
        ) from error
    if not folder.is_dir():
        raise LibraryError(f"{folder} is not a folder")


def check_database_file(folder: Path) -> None:
    """Refuse a database that is missing from a used library folder, or damaged.

    SQLite would create a new empty database in place of a deleted one, and take a
    zero-length file for one: the user's papers would seem gone. A folder that holds
    a search index or backups held a library, so its database is missing, not new.
    """
    db_path = folder / DB_FILE
    backup_dir = folder / BACKUP_DIR
    if db_path.exists():
        problem = sanity_problem_settled(db_path)
        if problem == "it is empty" and not _held_a_library(folder):
            return  # created and never written (the very first open was cut short)
    elif _held_a_library(folder):
        problem = "it is missing, though the folder holds a library's index or backups"
    else:
        return
    if problem is not None:
        raise damaged_error(db_path, problem, backup_dir)


def _held_a_library(folder: Path) -> bool:
    index = folder / INDEX_DIR
    return (
        (index.is_dir() and any(index.iterdir()))
        or bool(backups_in(folder / BACKUP_DIR))
        or Path(f"{folder / DB_FILE}-wal").exists()
    )


def _written_outside_a_mutation(changes: Changes) -> None:
    """A write outside the lock could interleave with another program's, and nothing
    would bring the index up to date with it."""
    raise RuntimeError(
        f"{changes.description or 'a write'}: a service that changes the library must be "
        "marked @mutation"
    )
