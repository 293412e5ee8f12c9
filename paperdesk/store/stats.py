"""Counts over the whole library: the sidebar's overview and `paperdesk stats`."""

from __future__ import annotations

from sqlalchemy import Connection, func, select

from paperdesk.core.models import LibraryStats, Overview, Status
from paperdesk.store.database import SubStore
from paperdesk.store.imports import list_batches
from paperdesk.store.saved import list_saved_searches
from paperdesk.store.screenings import screening_progress
from paperdesk.store.shortlists import list_shortlists
from paperdesk.store.tables import member_values_t, notes_t, papers_t, state_t
from paperdesk.store.tags import list_tags


class StatsStore(SubStore):
    def overview(self) -> Overview:
        """Everything the sidebar shows, read at one moment."""
        with self._db.snapshot() as connection:
            return _overview(connection)

    def library_stats(self) -> LibraryStats:
        """The overview's counts, with venues, ratings and notes counted too."""
        with self._db.snapshot() as connection:
            overview = _overview(connection)
            rated, with_notes = _rated_and_noted(connection, self._db.member)
            by_venue_year = _venue_year_counts(connection)
        return LibraryStats(
            papers=overview.papers,
            by_status=overview.by_status,
            by_venue_year=by_venue_year,
            rated=rated,
            with_notes=with_notes,
            tags=len(overview.tags),
            shortlists=len(overview.shortlists),
            imports=len(overview.imports),
        )


def _rated_and_noted(connection: Connection, member: str | None) -> tuple[int, int]:
    """How many papers have a rating, and a note: in a team library, the member's own."""
    if member is None:
        rated = select(func.count()).select_from(state_t).where(state_t.c.rating > 0)
        noted = select(func.count()).select_from(notes_t)
    else:
        own = (
            select(func.count())
            .select_from(member_values_t)
            .where(member_values_t.c.member == member)
        )
        rated = own.where(member_values_t.c.rating > 0)
        noted = own.where(member_values_t.c.note != "")
    return int(connection.scalar(rated) or 0), int(connection.scalar(noted) or 0)


def _overview(connection: Connection) -> Overview:
    papers = connection.scalar(select(func.count()).select_from(papers_t))
    query = select(state_t.c.status, func.count()).group_by(state_t.c.status)
    counts = {status: count for status, count in connection.execute(query)}
    return Overview(
        papers=int(papers or 0),
        by_status=tuple((s.value, counts.get(s.value, 0)) for s in Status),
        tags=tuple(list_tags(connection)),
        shortlists=tuple(list_shortlists(connection)),
        saved_searches=tuple(list_saved_searches(connection)),
        imports=tuple(list_batches(connection)),
        screenings=tuple(screening_progress(connection)),
    )


def _venue_year_counts(connection: Connection) -> tuple[tuple[str, int], ...]:
    query = (
        select(papers_t.c.venue, papers_t.c.year, func.count())
        .group_by(papers_t.c.venue, papers_t.c.year)
        .order_by(papers_t.c.venue, papers_t.c.year)
    )
    return tuple(
        (" ".join(str(p) for p in (venue, year) if p) or "(unknown)", count)
        for venue, year, count in connection.execute(query)
    )
