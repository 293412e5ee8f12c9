"""Shortlists: named, ordered selections of papers (what gets exported at the end)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, delete, func, insert, select, update

from paperdesk.core.changes import Changes
from paperdesk.core.errors import InvalidValueError, NotFoundError
from paperdesk.core.models import ShortlistInfo
from paperdesk.core.rules import SHORTLIST, clean_name
from paperdesk.store.database import SubStore, Write
from paperdesk.store.journal_changes import shortlist_members
from paperdesk.store.papers import require_ids
from paperdesk.store.tables import chunked, entries_t, insert_missing, now, shortlists_t


class ShortlistStore(SubStore):
    def all(self) -> list[ShortlistInfo]:
        """Every shortlist with how many papers it holds, by name."""
        with self._db.read() as connection:
            return list_shortlists(connection)

    def paper_ids(self, name: str) -> list[int]:
        """A shortlist's papers in the user's order."""
        with self._db.read() as connection:
            return shortlist_members(connection, _shortlist_id(connection, name))

    def create(self, name: str, ids: Sequence[int] = ()) -> Changes:
        """A new shortlist, holding these papers in this order: one action, one undo."""
        name = clean_name(name, SHORTLIST)
        description = _created(name, len(dict.fromkeys(ids)))
        with self._db.action(description) as w:
            ids = require_ids(w.connection, ids)
            if _shortlist_id_or_none(w.connection, name) is not None:
                raise InvalidValueError(f"a shortlist named {name!r} already exists")
            append_entries(w, ensure_shortlist(w, name), ids)
        return w.changes

    def rename(self, old: str, new: str) -> Changes:
        new = clean_name(new, SHORTLIST)
        with self._db.action(f"Rename shortlist {old} to {new}") as w:
            shortlist_id = _shortlist_id(w.connection, old)
            clash = _shortlist_id_or_none(w.connection, new)
            if clash is not None and clash != shortlist_id:
                raise InvalidValueError(f"a shortlist named {new!r} already exists")
            with w.journal.tracked_ids(shortlists_t, "id", [shortlist_id]):
                w.connection.execute(
                    update(shortlists_t).where(shortlists_t.c.id == shortlist_id).values(name=new)
                )
        return w.changes

    def delete(self, name: str) -> Changes:
        with self._db.action(f"Delete shortlist {name}") as w:
            shortlist_id = _shortlist_id(w.connection, name)
            with (
                w.journal.tracked_ids(shortlists_t, "id", [shortlist_id]),
                w.journal.tracked_ids(entries_t, "shortlist_id", [shortlist_id]),
            ):
                w.connection.execute(
                    delete(entries_t).where(entries_t.c.shortlist_id == shortlist_id)
                )
                w.connection.execute(delete(shortlists_t).where(shortlists_t.c.id == shortlist_id))
        return w.changes

    def add(self, name: str, ids: Sequence[int], create_missing: bool = False) -> Changes:
        """Add papers at the end, in this order (papers already in it keep their place).

        `create_missing`: with no shortlist of that name, create it holding these papers
        (decided inside the action, so one undo step, whatever another client did)."""
        with self._db.action(f"Add to {name}") as w:
            ids = require_ids(w.connection, ids)
            shortlist_id = _shortlist_id_or_none(w.connection, name)
            if shortlist_id is None and create_missing:
                name = clean_name(name, SHORTLIST)
                w.description = _created(name, len(dict.fromkeys(ids)))
                shortlist_id = ensure_shortlist(w, name)
            elif shortlist_id is None:
                raise NotFoundError(f"no shortlist named {name!r}")
            append_entries(w, shortlist_id, ids)
        return w.changes

    def remove(self, name: str, ids: Sequence[int]) -> Changes:
        with self._db.action(f"Remove from {name}") as w:
            shortlist_id = _shortlist_id(w.connection, name)
            with w.journal.tracked_ids(entries_t, "shortlist_id", [shortlist_id]):
                for chunk in chunked(list(ids)):
                    w.connection.execute(
                        delete(entries_t).where(
                            entries_t.c.shortlist_id == shortlist_id,
                            entries_t.c.paper_id.in_(chunk),
                        )
                    )
        return w.changes

    def reorder(self, name: str, ordered_ids: Sequence[int]) -> Changes:
        """Put the given members first, in this order; members not named keep theirs after."""
        with self._db.action(f"Reorder {name}") as w:
            shortlist_id = _shortlist_id(w.connection, name)
            current = shortlist_members(w.connection, shortlist_id)
            members = set(current)
            strangers = [i for i in ordered_ids if i not in members]
            if strangers:
                raise InvalidValueError(f"paper {strangers[0]} is not in the shortlist {name!r}")
            named = list(dict.fromkeys(ordered_ids))
            order = named + [i for i in current if i not in set(named)]
            with w.journal.tracked_ids(entries_t, "shortlist_id", [shortlist_id]):
                for position, paper_id in enumerate(order, start=1):
                    w.connection.execute(
                        update(entries_t)
                        .where(
                            entries_t.c.shortlist_id == shortlist_id,
                            entries_t.c.paper_id == paper_id,
                        )
                        .values(position=float(position))
                    )
        return w.changes


def _created(name: str, count: int) -> str:
    """The history's words for a new shortlist: "Create shortlist X with 3 papers"."""
    with_papers = f" with {count} paper{'s' if count != 1 else ''}" if count else ""
    return f"Create shortlist {name}{with_papers}"


def list_shortlists(connection: Connection) -> list[ShortlistInfo]:
    query = (
        select(
            shortlists_t.c.id,
            shortlists_t.c.name,
            func.count(entries_t.c.paper_id),
            shortlists_t.c.created,
        )
        .outerjoin(entries_t, entries_t.c.shortlist_id == shortlists_t.c.id)
        .group_by(shortlists_t.c.id)
        .order_by(func.lower(shortlists_t.c.name))
    )
    return [ShortlistInfo(r[0], r[1], r[2], r[3]) for r in connection.execute(query)]


def append_entries(w: Write, shortlist_id: int, ids: Sequence[int]) -> None:
    """Add papers at the end of a shortlist, in this order, inside the caller's action."""
    with w.journal.tracked_ids(entries_t, "shortlist_id", [shortlist_id]):
        members = set(shortlist_members(w.connection, shortlist_id))
        last = w.connection.scalar(
            select(func.max(entries_t.c.position)).where(entries_t.c.shortlist_id == shortlist_id)
        )
        start = (last or 0.0) + 1.0
        new = [p for p in ids if p not in members]
        rows = [
            {"shortlist_id": shortlist_id, "paper_id": p, "position": start + i}
            for i, p in enumerate(new)
        ]
        insert_missing(w.connection, entries_t, rows)  # another client's add of one stays


def ensure_shortlist(w: Write, name: str) -> int:
    """The id of the shortlist named `name`, created inside the caller's action if new."""
    name = clean_name(name, SHORTLIST)
    existing = _shortlist_id_or_none(w.connection, name)
    if existing is not None:
        return existing
    with w.journal.tracked(shortlists_t, shortlists_t.c.name == name):
        result = w.connection.execute(insert(shortlists_t).values(name=name, created=now()))
    return int(result.inserted_primary_key[0])  # type: ignore[index]


def _shortlist_id_or_none(connection: Connection, name: str) -> int | None:
    return connection.scalar(select(shortlists_t.c.id).where(shortlists_t.c.name == name.strip()))


def _shortlist_id(connection: Connection, name: str) -> int:
    shortlist_id = _shortlist_id_or_none(connection, name)
    if shortlist_id is None:
        raise NotFoundError(f"no shortlist named {name!r}")
    return shortlist_id
