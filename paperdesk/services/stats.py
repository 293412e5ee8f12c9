"""Library statistics for `paperdesk stats` and the GUI's status bar."""

from __future__ import annotations

from paperdesk.core.models import LibraryStats
from paperdesk.services.desk import Desk
from paperdesk.store.library import notes_t, papers_t


def library_stats(desk: Desk) -> LibraryStats:
    library = desk.library
    return LibraryStats(
        papers=library.count(),
        by_status=tuple(library.status_counts().items()),
        by_venue_year=tuple(library.venue_year_counts()),
        rated=library.scalar_count(papers_t, papers_t.c.rating > 0),
        with_notes=library.scalar_count(notes_t),
        tags=len(library.tags()),
        shortlists=len(library.shortlists()),
        imports=len(library.import_batches()),
    )
