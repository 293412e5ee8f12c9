"""What every sub-store shares: the engine, and one user action as one transaction.

A user action runs inside `Database.action`, which journals the rows it touches into the
history table (store/journal.py) so it can be undone, and raises the generation counter
the search index compares itself with. Sub-stores hold this object, not a copy of it.
"""

from __future__ import annotations

import getpass
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, delete, insert, select, update

from paperdesk.store.journal import Journal
from paperdesk.store.tables import history_t, meta_t, now


@dataclass
class Write:
    """What an action hands its body: the connection and the action's journal."""

    connection: Connection
    journal: Journal


class Database:
    """An engine shared by the sub-stores. Thread-safe for reads; one thread writes."""

    def __init__(self, engine: Engine, actor: str | None = None) -> None:
        self.engine = engine
        self.actor = actor or _current_user()

    def read(self) -> Connection:
        """A connection for reads: `with database.read() as connection: ...`."""
        return self.engine.connect()

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
    def action(self, description: str, *, undoable: bool = True) -> Iterator[Write]:
        """One user action: a transaction, a journal, a history row, a new generation.

        An undoable action that changed nothing leaves no history row. A non-undoable
        one (an import) is recorded all the same, so the history says it happened.
        """
        with self.engine.begin() as connection:
            journal = Journal(connection)
            yield Write(connection, journal)
            if journal.steps or not undoable:
                if undoable:
                    # A new action forgets what could have been redone (as every editor does).
                    connection.execute(delete(history_t).where(history_t.c.undone.is_(True)))
                connection.execute(
                    insert(history_t).values(
                        action=description,
                        actor=self.actor,
                        at=now(),
                        undone=False,
                        payload=journal.to_json() if undoable else json.dumps({"undoable": False}),
                    )
                )
                bump_generation(connection)

    @contextmanager
    def bookkeeping(self) -> Iterator[Connection]:
        """A write that is no user action (the citation keys an export pins): one
        transaction and a new generation, but no journal and no history row, so that
        undo never meets it and the user's last action stays the one undone.
        """
        with self.engine.begin() as connection:
            yield connection
            bump_generation(connection)

    def generation(self) -> int:
        """A counter raised by every committed write; the index stores the one it reflects."""
        with self.read() as connection:
            value = connection.scalar(select(meta_t.c.value).where(meta_t.c.key == "generation"))
        return int(value or 0)


class SubStore:
    """One aggregate's reads and actions (tags, notes...), over the shared Database."""

    def __init__(self, database: Database) -> None:
        self._db = database


def bump_generation(connection: Connection) -> None:
    current = connection.scalar(select(meta_t.c.value).where(meta_t.c.key == "generation"))
    if current is None:
        connection.execute(insert(meta_t).values(key="generation", value="1"))
    else:
        connection.execute(
            update(meta_t).where(meta_t.c.key == "generation").values(value=str(int(current) + 1))
        )


def _current_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (containers): still record something
        return "unknown"
