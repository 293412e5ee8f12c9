"""The library at a glance: the sidebar's overview and `paperdesk stats`."""

from __future__ import annotations

from paperdesk.core.models import LibraryStats, Overview
from paperdesk.services.runtime.desk import Desk


def overview(desk: Desk) -> Overview:
    """Counts by status, tags, shortlists, saved searches and imports, read at one moment."""
    return desk._library.stats.overview()


def library_stats(desk: Desk) -> LibraryStats:
    """The overview's counts, with venues, ratings and notes counted too."""
    return desk._library.stats.library_stats()
