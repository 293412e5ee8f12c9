"""Screenings: named triages, stored in the library, and the decisions each one made.

Saving a screening (its scope, seed query, order...) is bookkeeping, not a user action:
undo takes back decisions, never the screening they were made in. The decisions
themselves are written by TriageStore.decide, one undo step each.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, Connection, Row, func, insert, select, text, update

from paperdesk.core.errors import NotFoundError
from paperdesk.core.scope import Kind, Scope
from paperdesk.core.screening import Screening
from paperdesk.core.triage import Decision, LoggedDecision
from paperdesk.store.database import SubStore
from paperdesk.store.tables import chunked, decisions_t, finishes_t, now, screenings_t


class ScreeningStore(SubStore):
    def all(self) -> list[Screening]:
        """Every screening, the one used last first."""
        query = select(screenings_t).order_by(screenings_t.c.used.desc(), screenings_t.c.id.desc())
        with self._db.read() as connection:
            return [_screening(row) for row in connection.execute(query)]

    def named(self, name: str) -> Screening | None:
        """The screening of this name, whatever its case (None: there is none)."""
        query = select(screenings_t).where(screenings_t.c.name == name.strip())
        with self._db.read() as connection:
            row = connection.execute(query).first()
        return None if row is None else _screening(row)

    def save(self, screening: Screening) -> Screening:
        """Store a new screening, or the new settings of the one of this name; it becomes
        the one used last. The stored screening (with its id) is returned."""
        values = _values(screening)
        stamp = now()
        with self._db.bookkeeping() as connection:
            where = screenings_t.c.name == screening.name.strip()
            found = connection.scalar(select(screenings_t.c.id).where(where))
            if found is None:
                connection.execute(insert(screenings_t).values(**values, created=stamp, used=stamp))
            else:
                connection.execute(update(screenings_t).where(where).values(**values, used=stamp))
        stored = self.named(screening.name)
        assert stored is not None
        return stored

    def touch(self, screening_id: int) -> None:
        """The screening was resumed: it becomes the one used last."""
        with self._db.bookkeeping() as connection:
            connection.execute(
                update(screenings_t).where(screenings_t.c.id == screening_id).values(used=now())
            )

    def delete(self, name: str) -> None:
        """Forget a screening; every member's decisions of it stay in the library-wide
        log (the database detaches them, also those a team member cannot see:
        migration 0011)."""
        screening = self.named(name)
        if screening is None:
            raise NotFoundError(f"no screening named {name!r}")
        with self._db.bookkeeping() as connection:
            connection.execute(screenings_t.delete().where(screenings_t.c.id == screening.id))

    def decided_among(self, screening_id: int, ids: Sequence[int], own: bool = False) -> set[int]:
        """Which of these papers the screening decided (`own`: the member decided)."""
        found: set[int] = set()
        with self._db.read() as connection:
            for chunk in chunked(list(ids)):
                query = select(decisions_t.c.paper_id).where(
                    decisions_t.c.screening_id == screening_id, decisions_t.c.paper_id.in_(chunk)
                )
                if own:
                    query = query.where(*self._own())
                found.update(connection.scalars(query))
        return found

    def log(self, screening_id: int, own: bool = False) -> list[LoggedDecision]:
        """The screening's decisions, oldest first; `own`: only the member's own, not
        their resolutions (a blind screening's progress is each member's)."""
        query = (
            select(decisions_t)
            .where(decisions_t.c.screening_id == screening_id)
            .order_by(decisions_t.c.at, decisions_t.c.id)
        )
        if own:
            query = query.where(*self._own())
        with self._db.read() as connection:
            return [_logged(row) for row in connection.execute(query)]

    def _own(self) -> tuple[ColumnElement[bool], ...]:
        """The member's own decisions, not their resolutions."""
        return (
            decisions_t.c.member.is_not_distinct_from(self._db.member),
            decisions_t.c.resolves.is_(False),
        )

    def decided(self, screening_id: int, own: bool = False) -> dict[int, LoggedDecision]:
        """Each paper the screening decided (`own`: the member decided), with its latest
        decision."""
        return {entry.paper_id: entry for entry in self.log(screening_id, own)}

    # ------------------------------------------------------------- screening in pairs

    def votes(self, screening_id: int) -> dict[str, dict[int, LoggedDecision]]:
        """Each member's latest decision on each paper, of the members whose decisions
        this member may see (on a team server: their own while a blind screening is
        theirs to finish, everyone's after)."""
        found: dict[str, dict[int, LoggedDecision]] = {}
        query = (
            select(decisions_t)
            .where(
                decisions_t.c.screening_id == screening_id,
                decisions_t.c.member.is_not(None),
                decisions_t.c.resolves.is_(False),
            )
            .order_by(decisions_t.c.at, decisions_t.c.id)
        )
        with self._db.read() as connection:
            for row in connection.execute(query):
                found.setdefault(row.member, {})[row.paper_id] = _logged(row)
        return found

    def resolutions(self, screening_id: int) -> dict[int, LoggedDecision]:
        """The latest resolution of each paper the members' disagreement was settled on."""
        query = (
            select(decisions_t)
            .where(decisions_t.c.screening_id == screening_id, decisions_t.c.resolves.is_(True))
            .order_by(decisions_t.c.at, decisions_t.c.id)
        )
        with self._db.read() as connection:
            return {row.paper_id: _logged(row) for row in connection.execute(query)}

    def progress(self, screening_id: int) -> dict[str, int]:
        """How many papers each member decided. A team server counts for everyone, also
        the decisions a blind screening hides (migration 0009); the personal library
        has no members."""
        with self._db.read() as connection:
            if connection.dialect.name == "sqlite":
                return {}
            rows = connection.execute(
                text("SELECT member, decided FROM paperdesk_screening_progress(:sid)"),
                {"sid": screening_id},
            )
            return {str(member): int(decided) for member, decided in rows}

    def finished(self, screening_id: int) -> set[str]:
        """The members who finished the screening."""
        query = select(finishes_t.c.member).where(finishes_t.c.screening_id == screening_id)
        with self._db.read() as connection:
            return set(connection.scalars(query))

    def finish(self, screening_id: int) -> None:
        """The member finished the screening: their decisions in it are final (the
        server stamps the member and refuses a second finish or taking one back)."""
        assert self._db.member is not None, "a personal library has no members to finish"
        with self._db.bookkeeping() as connection:
            connection.execute(
                insert(finishes_t).values(
                    screening_id=screening_id, member=self._db.member, at=now()
                )
            )


def screening_progress(connection: Connection) -> list[tuple[str, int]]:
    """(name, papers decided) of every screening, the one used last first."""
    decided = (
        select(decisions_t.c.screening_id, func.count(func.distinct(decisions_t.c.paper_id)))
        .where(decisions_t.c.screening_id.is_not(None))
        .group_by(decisions_t.c.screening_id)
    )
    counts = {int(i): int(n) for i, n in connection.execute(decided)}
    rows = connection.execute(
        select(screenings_t.c.id, screenings_t.c.name).order_by(
            screenings_t.c.used.desc(), screenings_t.c.id.desc()
        )
    )
    return [(name, counts.get(screening_id, 0)) for screening_id, name in rows]


def _values(screening: Screening) -> dict[str, Any]:
    return {
        "name": screening.name.strip(),
        "scope_kind": screening.scope.kind.value,
        "scope_value": screening.scope.value,
        "query": screening.query.strip(),
        "confine": screening.confine,
        "order": screening.order,
        "shortlist": screening.shortlist,
        "reasons": json.dumps(list(screening.reasons), ensure_ascii=False),
        "blind": screening.blind,
    }


def _screening(row: Row[Any]) -> Screening:
    return Screening(
        name=row.name,
        scope=Scope(Kind(row.scope_kind), row.scope_value),
        query=row.query,
        confine=bool(row.confine),
        order=row.order,
        shortlist=row.shortlist,
        reasons=tuple(json.loads(row.reasons)),
        blind=bool(row.blind),
        id=row.id,
        created=row.created,
    )


def _logged(row: Row[Any]) -> LoggedDecision:
    return LoggedDecision(row.paper_id, Decision(row.decision), row.at, row.reason)
