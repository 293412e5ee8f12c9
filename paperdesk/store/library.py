"""The Library facade: the only door to the database, one sub-store per aggregate.

    library.papers      reads (one, a page, all, sorted ids), field edits, deletion
    library.tags        tags and their colours, on papers and in a hierarchy
    library.shortlists  named, ordered selections of papers
    library.notes       one Markdown note per paper (per member in a team library)
    library.members     a team library's members' own notes and ratings, and the average
    library.saved       saved searches
    library.history     the history list, undo and redo
    library.merges      merging duplicates, pairs marked "not duplicates"
    library.stats       the overview the sidebar shows, `paperdesk stats`
    library.imports     import batches (provenance) and the bulk write path
    library.backups     the whole library as one state, for JSON backups
    library.annotations marked passages of abstracts, with a colour and a comment
    library.triage      keep / maybe / discard, the decision log, what the ranking reads
    library.screenings  named triages and the decisions each made
    library.settings    small named values kept in the library (how many backups to keep)
    library.changes     a team library's change sequence: which papers each generation touched

Sub-stores return core dataclasses and `Changes`, never ORM rows, connections or
tables (compare Anki's `Collection` owning its `TagManager`, `DeckManager`...). They
share one `Database`, whose `action` journals every user action so it can be undone.
"""

from __future__ import annotations

import time
from pathlib import Path

from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError

from paperdesk.core.team_url import mask
from paperdesk.store import change_log
from paperdesk.store.annotations import AnnotationStore
from paperdesk.store.database import ChangeListener, Database
from paperdesk.store.db import make_engine, make_read_only_engine
from paperdesk.store.faults import translate_errors
from paperdesk.store.history import HistoryStore
from paperdesk.store.imports import ImportStore
from paperdesk.store.member_values import MemberValueStore
from paperdesk.store.merges import MergeStore
from paperdesk.store.migrate import Guard, upgrade_to_head
from paperdesk.store.notes import NoteStore
from paperdesk.store.papers import PaperStore
from paperdesk.store.saved import SavedSearchStore
from paperdesk.store.screenings import ScreeningStore
from paperdesk.store.settings import SettingsStore
from paperdesk.store.shortlists import ShortlistStore
from paperdesk.store.snapshot import BackupStore
from paperdesk.store.sqlite_copies import check_messages
from paperdesk.store.stats import StatsStore
from paperdesk.store.tags import TagStore
from paperdesk.store.triage import TriageStore


class Library:
    """An open library database. Thread-safe for reads; one thread should do all writes."""

    def __init__(self, engine: Engine, actor: str | None = None) -> None:
        #: A team library: a database server many programs write at once (PostgreSQL).
        self.shared = engine.dialect.name != "sqlite"
        self._db = Database(engine, actor, change_log.record if self.shared else None)
        self.changes = change_log.ChangeLog(self._db)
        self.papers = PaperStore(self._db)
        self.tags = TagStore(self._db)
        self.shortlists = ShortlistStore(self._db)
        self.notes = NoteStore(self._db)
        self.members = MemberValueStore(self._db)
        self.saved = SavedSearchStore(self._db)
        self.history = HistoryStore(self._db)
        self.merges = MergeStore(self._db)
        self.stats = StatsStore(self._db)
        self.imports = ImportStore(self._db)
        self.backups = BackupStore(self._db)
        self.annotations = AnnotationStore(self._db)
        self.triage = TriageStore(self._db)
        self.screenings = ScreeningStore(self._db)
        self.settings = SettingsStore(self._db)

    def listen(self, listener: ChangeListener | None) -> ChangeListener | None:
        """Tell `listener`, from now on, what each committed write changed (read from
        its journal); returns the listener it replaces."""
        replaced, self._db.listener = self._db.listener, listener
        return replaced

    @classmethod
    def open(
        cls,
        url: str,
        db_path: Path | None = None,
        backup_dir: Path | None = None,
        *,
        read_only: bool = False,
        upgrade_guard: Guard | None = None,
        actor: str | None = None,
    ) -> Library:
        """Open a database, migrating it first (backed up before, refused when too new).

        With `db_path`, storage faults (damaged, read-only, full, busy) raise the
        library's own errors, one line each (store/faults.py). `read_only` opens the
        file without ever writing to it; `upgrade_guard` is held while migrating.
        `actor` is who the history names for this program's changes (default: the login).
        """
        if read_only and db_path is not None:
            engine = make_read_only_engine(db_path)
        else:
            engine = make_engine(url)
        if db_path is not None:
            translate_errors(engine, db_path, backup_dir)
        if engine.dialect.name == "postgresql":
            # psycopg and the server's modules load for a team library only: they took
            # 0.05 s of every local command's start.
            from paperdesk.store.server_waits import replace_closed_connections
            from paperdesk.store.team_server import (
                bound_connect_time,
                migration_lock,
                translate_server_errors,
            )

            translate_server_errors(engine, mask(url))
            bound_connect_time(engine)
            replace_closed_connections(engine)
            upgrade_guard = upgrade_guard or (lambda: migration_lock(engine))
        try:
            upgrade_to_head(engine, db_path, backup_dir, upgrade_guard, read_only)
        except BaseException:
            engine.dispose()
            raise
        return cls(engine, actor)

    def close(self) -> None:
        self._db.engine.dispose()

    @property
    def file(self) -> Path | None:
        """The SQLite file other processes can open (index workers); None for another
        database, in memory or opened read-only."""
        url = self._db.engine.url
        if url.get_backend_name() != "sqlite" or url.query.get("mode") == "ro":
            return None
        database = url.database
        return Path(database) if database and database != ":memory:" else None

    @property
    def member(self) -> str | None:
        """Whose own notes and ratings this program reads and writes (a team library)."""
        return self._db.member

    @property
    def actor(self) -> str:
        """Who this program's changes are recorded as."""
        return self._db.actor

    def may_write(self) -> bool:
        """Whether the server lets this program change the library (a team library's
        readers may not: store/team_roles.py)."""
        if not self.shared:
            return True
        with self._db.read() as connection:
            query = text("SELECT has_table_privilege('history', 'INSERT')")
            return bool(connection.scalar(query))

    def init_team(self) -> str:
        """Set up this team library's roles and grants (store/team_roles.py); returns the
        owner who did."""
        from paperdesk.store import team_roles  # psycopg: for a team library only

        return team_roles.init_team(self._db.engine)

    def add_member(self, name: str, level: str, password: str | None) -> bool:
        """Let `name` into this team library at `level`; True when the role was created."""
        from paperdesk.store import team_roles

        return team_roles.add_member(self._db.engine, name, level, password)

    def generation(self) -> int:
        """A counter raised by every committed write; the index stores the one it reflects."""
        return self._db.generation()

    def quick_check(self, budget_s: float | None = None) -> list[str] | None:
        """SQLite's quick structural check of every page; empty when sound.

        With `budget_s`, a check that would take longer is abandoned and None returned
        (no verdict): it reads the whole file, about 0.2 s per 10 MB.
        """
        with self._db.read() as connection:
            if connection.dialect.name != "sqlite":
                return []
            driver = connection.connection.driver_connection
            if budget_s is not None and driver is not None:
                deadline = time.monotonic() + budget_s
                driver.set_progress_handler(lambda: time.monotonic() > deadline, 20_000)
            try:
                rows = connection.exec_driver_sql("PRAGMA quick_check").fetchall()
            except OperationalError as error:
                if "interrupt" in str(error):
                    return None
                raise
            finally:
                if budget_s is not None and driver is not None:
                    driver.set_progress_handler(None, 0)
        return [f"database: {message}" for message in check_messages(rows)]

    def integrity_problems(self) -> list[str]:
        """What SQLite's own checks report (empty when the database is sound)."""
        problems: list[str] = []
        with self._db.read() as connection:
            if connection.dialect.name != "sqlite":
                return problems
            rows = connection.exec_driver_sql("PRAGMA integrity_check")
            problems += [f"database: {message}" for message in check_messages(rows)]
            for row in connection.exec_driver_sql("PRAGMA foreign_key_check"):
                problems.append(f"database: row {row[1]} of {row[0]} points at a missing {row[2]}")
        return problems
