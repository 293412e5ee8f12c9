"""The one step every mutating service shares: bring the search index up to date."""

from __future__ import annotations

from paperdesk.core.changes import Changes
from paperdesk.services import indexing
from paperdesk.services.desk import Desk

#: Above this many papers a change is re-indexed after the call (indexing.catch_up),
#: not in it: whoosh re-analyses a whole document to change one field, ~1 ms a paper,
#: and a status set on 100,000 papers must not wait two minutes for that.
BULK_PAPERS = 500


def synced(desk: Desk, changes: Changes) -> Changes:
    """Re-index what `changes` names, in the same service call as the database write
    (a bulk change: in the background, through indexing.catch_up)."""
    if len(changes.paper_ids) > BULK_PAPERS:
        indexing.defer(desk, changes)
        return changes
    return indexing.sync_changes(desk.library, desk.index, changes, behind=desk.index_behind)
