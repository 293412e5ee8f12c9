"""The change sequence of a team library: which papers each generation touched.

Every write on a team library ends by raising the generation (Database.committing)
and recording here the papers whose search documents it changed. A client that was
away, or that simply did not make those changes, asks `papers_since(its generation)`
and re-indexes only them (services/runtime/team_index.py). Generations are committed in
order (the generation row stays locked to the commit), so a client that has read
generation G has seen every row up to G: nothing committed later can fall below it.

A change to one member's own note or rating (store/member_values.py) is logged with
that member: only their index shows it (an index holds its reader's own note and
rating, never the team's average), so only they re-index the paper for it.

The local library does not keep this log: one program at a time writes it, and its
index follows every change as it is made (services/use_cases/_sync.py).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import Connection, func, insert, or_, select

from paperdesk.store.database import Database
from paperdesk.store.journal import Step
from paperdesk.store.journal_changes import papers_touched
from paperdesk.store.tables import change_log_t, chunked, member_values_t


def record(connection: Connection, generation: int, steps: Sequence[Step]) -> None:
    """Log the papers an action's steps touched (Database's ChangeRecorder)."""
    shared = [step for step in steps if step.table != member_values_t.name]
    ids = papers_touched(connection, shared)
    own = _own_values_touched(steps)
    # Two members' values of one paper changed in one action (an import): everyone's.
    ids.update(paper_id for paper_id, members in own.items() if len(members) > 1)
    rows: list[dict[str, object]] = [
        {"generation": generation, "paper_id": i, "member": None} for i in sorted(ids)
    ]
    rows += [
        {"generation": generation, "paper_id": paper_id, "member": min(members)}
        for paper_id, members in sorted(own.items())
        if paper_id not in ids  # one member's own values alone
    ]
    for chunk in chunked(rows):
        connection.execute(insert(change_log_t), chunk)


def _own_values_touched(steps: Sequence[Step]) -> dict[int, set[str]]:
    """The members whose own note or rating of each paper the steps changed."""
    members: dict[int, set[str]] = {}
    for step in steps:
        if step.table == member_values_t.name:
            for row in [*step.before, *step.after]:
                members.setdefault(row["paper_id"], set()).add(row["member"])
    return members


class ChangeLog:
    """Reads of the change sequence (the library's `changes` sub-store)."""

    def __init__(self, database: Database) -> None:
        self._db = database

    def papers_since(
        self,
        generation: int,
        up_to: int,
        member: str | None = None,
        skip: Collection[int] = (),
    ) -> set[int]:
        """The papers changed after `generation`, up to and including `up_to`; with a
        `member`, leaving out changes to other members' own notes and ratings; leaving
        out the generations in `skip` (this machine's own, already indexed)."""
        query = (
            select(change_log_t.c.paper_id)
            .where(change_log_t.c.generation > generation)
            .where(change_log_t.c.generation <= up_to)
            .distinct()
        )
        if skip:
            query = query.where(change_log_t.c.generation.not_in(list(skip)))
        if member is not None:
            mine = change_log_t.c.member == member
            query = query.where(or_(change_log_t.c.member.is_(None), mine))
        with self._db.read() as connection:
            return set(connection.scalars(query))

    def count_since(self, generation: int, skip: Collection[int] = ()) -> int:
        """How many paper changes were logged after `generation`, but in the generations
        in `skip` (to decide on a rebuild)."""
        query = select(func.count()).where(change_log_t.c.generation > generation)
        if skip:
            query = query.where(change_log_t.c.generation.not_in(list(skip)))
        with self._db.read() as connection:
            return int(connection.scalar(query) or 0)
