"""History: what every action did, who did it and when; undo and redo over the journal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Row, select, update

from paperdesk.core.changes import Changes
from paperdesk.core.models import HistoryEntry, UndoLabels
from paperdesk.store.database import SubStore
from paperdesk.store.journal import Journal, Step, apply_states, steps_from_json, steps_to_json
from paperdesk.store.journal_changes import changes_of, papers_touched
from paperdesk.store.papers import rows_with_links
from paperdesk.store.tables import history_t, papers_t


class HistoryStore(SubStore):
    def recent(self, limit: int = 50) -> list[HistoryEntry]:
        query = select(history_t).order_by(history_t.c.id.desc()).limit(limit)
        with self._db.read() as connection:
            return [_entry(row) for row in connection.execute(query)]

    def labels(self) -> UndoLabels:
        """What Undo and Redo would do now, read at one moment."""
        with self._db.read() as connection:
            undo, redo = (
                replay_candidate(connection, undone=False, actor=self._db.member),
                replay_candidate(connection, undone=True, actor=self._db.member),
            )
        return UndoLabels(undo.action if undo else None, redo.action if redo else None)

    def undo(self) -> Changes | None:
        return self._replay(undo=True)

    def redo(self) -> Changes | None:
        return self._replay(undo=False)

    def _replay(self, *, undo: bool) -> Changes | None:
        with self._db.transaction() as connection:
            entry = replay_candidate(connection, undone=not undo, actor=self._db.member)
            if entry is None:
                return None
            payload = connection.scalar(
                select(history_t.c.payload).where(history_t.c.id == entry.id)
            )
            steps = steps_from_json(str(payload))
            if undo and any(step.added_ids for step in steps):
                steps = _with_added_rows(connection, steps)
                connection.execute(
                    update(history_t)
                    .where(history_t.c.id == entry.id)
                    .values(payload=steps_to_json(steps))
                )
            touched_before = papers_touched(connection, steps)
            apply_states(connection, steps, undo=undo)
            connection.execute(
                update(history_t)
                .where(history_t.c.id == entry.id)
                .values(undone=undo, undone_by=self._db.actor if undo else None)
            )
            generation = self._db.committing(connection, steps)
            verb = "Undo" if undo else "Redo"
            changes = changes_of(
                connection,
                f"{verb} {entry.action}",
                steps,
                also=touched_before,
                history_id=entry.id,
                generation=generation,
            )
        self._db.announce(changes)
        return changes


def _entry(row: Row[Any]) -> HistoryEntry:
    return HistoryEntry(row.id, row.action, row.actor, row.at, row.undone, row.undone_by)


def replay_candidate(
    connection: Connection, *, undone: bool, actor: str | None
) -> HistoryEntry | None:
    """The next action to undo (the newest done) or redo (the oldest undone); in a team
    library (`actor` given: the member) the member's own, never another's.

    Only journaled actions count: a restore's row records that it happened but holds
    no journal, so undo steps over it.
    """
    order = history_t.c.id.asc() if undone else history_t.c.id.desc()
    query = (
        select(history_t)
        .where(history_t.c.undone.is_(undone), history_t.c.payload.like("[%"))
        .order_by(order)
        .limit(1)
    )
    if actor is not None:
        query = query.where(history_t.c.actor == actor)
    row = connection.execute(query).first()
    return _entry(row) if row else None


def _with_added_rows(connection: Connection, steps: Sequence[Step]) -> list[Step]:
    """An import's steps with its new papers read into ordinary steps (see Step).

    Undo deletes those rows, and a redo puts back what undo read; from then on the
    import's history row is an ordinary journal.
    """
    journal = Journal(connection)
    expanded: list[Step] = []
    for step in steps:
        if step.added_ids is None:
            expanded.append(step)
            continue
        first, last = step.added_ids
        ids = list(
            connection.scalars(select(papers_t.c.id).where(papers_t.c.id.between(first, last)))
        )
        expanded.extend(rows_with_links(journal, ids))
    return expanded
