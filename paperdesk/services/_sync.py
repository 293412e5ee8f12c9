"""The one step every mutating service shares: bring the search index (and the ranking,
once a triage started it) up to date."""

from __future__ import annotations

from paperdesk.core.changes import Changes
from paperdesk.services import indexing
from paperdesk.services.desk import Desk


def synced(desk: Desk, changes: Changes) -> Changes:
    """Re-index what `changes` names, in the same service call as the database write."""
    indexing.sync_changes(desk.library, desk.index, changes)
    promise = desk.promise_if_started()
    if promise is not None:
        promise.note_changes(changes)
    return changes
