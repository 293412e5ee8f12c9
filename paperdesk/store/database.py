"""What every sub-store shares: the engine, and one user action as one transaction.

A user action runs inside `Database.action`, which journals the rows it touches into the
history table (store/journal.py) so it can be undone, raises the generation counter
the search index compares itself with, and reads from the journal what the action
changed (store/journal_changes.py): that `Changes` is the action's answer, and is told
to the `listener` once committed (services/use_cases/_sync.py brings the search index
and the ranking up to date from it). Sub-stores hold this object, not a copy of it.
"""

from __future__ import annotations

import getpass
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from sqlalchemy import Connection, Engine, Integer, cast, delete, insert, select, text, update

from paperdesk.core.changes import Changes
from paperdesk.store.journal import Journal, Step
from paperdesk.store.journal_changes import changes_of
from paperdesk.store.tables import history_t, meta_t, now

#: Told, inside the action's transaction, which generation it made and what it journaled
#: (a team library records the papers it touched: store/change_log.py).
ChangeRecorder = Callable[[Connection, int, Sequence[Step]], None]
#: Told, after the commit, what a write changed.
ChangeListener = Callable[[Changes], None]


@dataclass
class Write:
    """What an action hands its body: the connection, the action's journal, and its
    description (which the body may make more precise once it has read the library)."""

    connection: Connection
    journal: Journal
    description: str
    #: The action's history row, once the action recorded it (the id comes from the
    #: action's own transaction: reading "the newest" after the commit could name
    #: another member's action).
    history_id: int | None = None
    #: The generation the action committed (set as it commits).
    generation: int | None = None
    #: What the action changed, read from its journal as it commits.
    changes: Changes = field(default_factory=Changes)


class Database:
    """An engine shared by the sub-stores. Thread-safe for reads; one thread writes."""

    def __init__(
        self, engine: Engine, actor: str | None = None, recorder: ChangeRecorder | None = None
    ) -> None:
        self.engine = engine
        # A team library's member is the role its server authenticated, whatever the
        # client's environment says (LOGNAME, USER, PGUSER): the server stamps its
        # history with the same name (migration 0007).
        server_user = _server_user(engine) if engine.dialect.name != "sqlite" else None
        self.actor: str = server_user or actor or _current_user()
        self.recorder = recorder
        #: Whose own notes and ratings this program reads and writes: the actor in a
        #: team library (store/member_values.py); None in the personal library, where
        #: the note and rating are the paper's.
        self.member = self.actor if engine.dialect.name != "sqlite" else None
        #: Told what each committed write changed (None: nobody follows the library).
        self.listener: ChangeListener | None = None

    def read(self) -> Connection:
        """A connection for reads: `with database.read() as connection: ...`.

        A team library's reads run outside a transaction: under PostgreSQL's READ
        COMMITTED each statement sees its own moment either way, and a read's BEGIN and
        the pool's ROLLBACK when it is handed back were two more round trips to the
        server for each (a search cost 2.3x a local one; bench/bench_team_search.py).
        """
        connection = self.engine.connect()
        if connection.dialect.name != "sqlite":
            connection.execution_options(isolation_level="AUTOCOMMIT")
        return connection

    @contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """A connection whose every query sees the database at one moment.

        pysqlite starts no transaction for reads, so each SELECT would see the database
        as of its own moment; a write landing between two of them (a deleted paper)
        would leave counts that disagree. One read transaction makes them agree.
        """
        with self.read() as connection:
            if connection.dialect.name == "sqlite":
                connection.exec_driver_sql("BEGIN")
            yield connection

    @contextmanager
    def action(
        self, description: str, *, undoable: bool = True, announced: bool = True
    ) -> Iterator[Write]:
        """One user action: a transaction, a journal, a history row, a new generation.

        An undoable action that changed nothing leaves no history row. A non-undoable
        one (an import) is recorded all the same, so the history says it happened.
        `announced` False: the caller brings the index up to date itself (an import
        indexes its new papers with progress and a cancel button; a restore rebuilds
        the whole index), so the listener is not told.
        """
        with self.transaction() as connection:
            journal = Journal(connection)
            write = Write(connection, journal, description)
            written = _rows_written(connection)
            yield write
            if undoable and not journal.declared and _rows_written(connection) != written:
                # Undo could not take the rows back, and neither the search index nor
                # the window would learn of them (they follow the journal): a writer
                # that forgot its journal blocks fails here, in its own tests.
                raise RuntimeError(
                    f"{description!r} wrote rows without journaling them (store/journal.py)"
                )
            if journal.steps or not undoable:
                if undoable:
                    # A new action forgets what its member could have redone (as every
                    # editor does); what others undid stays theirs to redo.
                    redoable = delete(history_t).where(history_t.c.undone.is_(True))
                    if self.member is not None:
                        redoable = redoable.where(history_t.c.actor == self.member)
                    connection.execute(redoable)
                write.history_id = connection.scalar(
                    insert(history_t)
                    .values(
                        action=write.description,
                        actor=self.actor,
                        at=now(),
                        undone=False,
                        payload=journal.to_json() if undoable else json.dumps({"undoable": False}),
                    )
                    .returning(history_t.c.id)
                )
                write.generation = self.committing(connection, journal.steps)
            write.changes = changes_of(
                connection,
                write.description,
                journal.steps,
                history_id=write.history_id,
                generation=write.generation,
            )
        if write.generation is not None and announced:
            self.announce(write.changes)

    def announce(self, changes: Changes) -> None:
        """Tell the listener what a committed write changed."""
        if self.listener is not None:
            self.listener(changes)

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A write transaction; on a team library, one at a time across all clients.

        A team library's transactions queue on the generation row, which every write
        raises anyway: so an action's reads, its journal and its writes see no other
        client's write midway (an append to a note cannot lose another's, an undo
        record is exact), generations are committed in order, and no two writes can
        deadlock. Writes are short; a lab's clients barely notice the queue.
        """
        with self.engine.begin() as connection:
            if connection.dialect.name != "sqlite":
                connection.execute(
                    select(meta_t.c.value).where(meta_t.c.key == "generation").with_for_update()
                )
            yield connection

    def committing(self, connection: Connection, steps: Sequence[Step]) -> int:
        """The last statements of a write: a new generation (returned), and the change
        record."""
        generation = bump_generation(connection)
        if self.recorder is not None:
            self.recorder(connection, generation, steps)
        return generation

    @contextmanager
    def bookkeeping(self) -> Iterator[Connection]:
        """A write that is no user action (the citation keys an export pins): one
        transaction and a new generation, but no journal and no history row, so that
        undo never meets it and the user's last action stays the one undone.
        """
        with self.engine.begin() as connection:
            yield connection
            bump_generation(connection)
        # Nothing searchable changed: the index learns it is current for the generation.
        self.announce(Changes())

    def generation(self) -> int:
        """A counter raised by every committed write; the index stores the one it reflects."""
        with self.read() as connection:
            value = connection.scalar(select(meta_t.c.value).where(meta_t.c.key == "generation"))
        return int(value or 0)


class SubStore:
    """One aggregate's reads and actions (tags, notes...), over the shared Database."""

    def __init__(self, database: Database) -> None:
        self._db = database


def bump_generation(connection: Connection) -> int:
    """Raise the generation in one statement and return it.

    One UPDATE, not a read then a write: on a team library two clients' transactions
    would otherwise both write the same number. The row stays locked until the commit,
    so generations are committed in the order they are given (store/change_log.py
    relies on it).
    """
    value = cast(cast(meta_t.c.value, Integer) + 1, meta_t.c.value.type)
    raised = connection.scalar(
        update(meta_t)
        .where(meta_t.c.key == "generation")
        .values(value=value)
        .returning(meta_t.c.value)
    )
    return int(raised)  # the row exists from migration 0004 on


def _rows_written(connection: Connection) -> int | None:
    """How many rows SQLite's connection has inserted, updated or deleted so far (None
    on a database server, which does not say)."""
    driver = connection.connection.driver_connection
    return driver.total_changes if connection.dialect.name == "sqlite" else None  # type: ignore[union-attr]


def _server_user(engine: Engine) -> str:
    """The role the database server authenticated this program as."""
    with engine.connect() as connection:
        return str(connection.scalar(text("SELECT session_user")))


def _current_user() -> str:
    """Who changes a personal library: the login (a team library asks its server)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (containers): still record something
        return "unknown"
