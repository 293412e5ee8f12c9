"""Saved searches: a named query shown in the sidebar."""

from __future__ import annotations

from paperdesk.core.changes import Changes
from paperdesk.search.query import parse_query
from paperdesk.services._sync import synced
from paperdesk.services.desk import Desk


def save_search(desk: Desk, name: str, query: str) -> Changes:
    parse_query(query)  # refuse to save a query that cannot run (QueryError explains why)
    return synced(desk, desk.library.save_search(name, query))


def delete_search(desk: Desk, name: str) -> Changes:
    return synced(desk, desk.library.delete_saved_search(name))
