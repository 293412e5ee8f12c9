"""Saved searches: a named query shown in the sidebar."""

from __future__ import annotations

from paperdesk.core.changes import Changes
from paperdesk.core.models import SavedSearch
from paperdesk.search.query import parse_query
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases._sync import mutation


def list_searches(desk: Desk) -> list[SavedSearch]:
    return desk._library.saved.all()


@mutation
def save_search(desk: Desk, name: str, query: str) -> Changes:
    parse_query(query)  # refuse to save a query that cannot run (QueryError explains why)
    return desk._library.saved.save(name, query)


@mutation
def delete_search(desk: Desk, name: str) -> Changes:
    return desk._library.saved.delete(name)
