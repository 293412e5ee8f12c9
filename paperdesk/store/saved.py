"""Saved searches: a named query shown in the sidebar."""

from __future__ import annotations

from sqlalchemy import Connection, delete, func, insert, select, update

from paperdesk.core.changes import Changes
from paperdesk.core.errors import NotFoundError
from paperdesk.core.models import SavedSearch
from paperdesk.core.rules import SAVED_SEARCH, clean_name
from paperdesk.store.database import SubStore
from paperdesk.store.tables import now, saved_t


class SavedSearchStore(SubStore):
    def all(self) -> list[SavedSearch]:
        with self._db.read() as connection:
            return list_saved_searches(connection)

    def query_of(self, name: str) -> str:
        with self._db.read() as connection:
            query = connection.scalar(select(saved_t.c.query).where(saved_t.c.name == name))
        if query is None:
            raise NotFoundError(f"no saved search named {name!r}")
        return str(query)

    def save(self, name: str, query: str) -> Changes:
        """Save a query under a name (a name in use gets the new query)."""
        name = clean_name(name, SAVED_SEARCH)
        with self._db.action(f"Save search {name}") as w:
            where = saved_t.c.name == name
            with w.journal.tracked(saved_t, where):
                existing = w.connection.scalar(select(saved_t.c.id).where(where))
                if existing is None:
                    w.connection.execute(
                        insert(saved_t).values(name=name, query=query, created=now())
                    )
                else:
                    w.connection.execute(update(saved_t).where(where).values(query=query))
        return w.changes

    def delete(self, name: str) -> Changes:
        with self._db.action(f"Delete saved search {name}") as w:
            where = saved_t.c.name == name
            if w.connection.scalar(select(saved_t.c.id).where(where)) is None:
                raise NotFoundError(f"no saved search named {name!r}")
            with w.journal.tracked(saved_t, where):
                w.connection.execute(delete(saved_t).where(where))
        return w.changes


def list_saved_searches(connection: Connection) -> list[SavedSearch]:
    rows = connection.execute(select(saved_t).order_by(func.lower(saved_t.c.name)))
    return [SavedSearch(r.id, r.name, r.query) for r in rows]
