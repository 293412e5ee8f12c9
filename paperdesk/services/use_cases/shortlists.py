"""Shortlists: named, ordered selections of papers (what gets exported at the end)."""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.core.changes import Changes
from paperdesk.core.models import ShortlistInfo
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases._sync import mutation


def list_shortlists(desk: Desk) -> list[ShortlistInfo]:
    """Every shortlist with how many papers it holds, by name."""
    return desk._library.shortlists.all()


@mutation
def create(desk: Desk, name: str, ids: Sequence[int] = ()) -> Changes:
    """A new shortlist, empty or holding these papers in this order (one undo step)."""
    return desk._library.shortlists.create(name, ids)


@mutation
def rename(desk: Desk, old: str, new: str) -> Changes:
    return desk._library.shortlists.rename(old, new)


@mutation
def delete(desk: Desk, name: str) -> Changes:
    return desk._library.shortlists.delete(name)


@mutation
def add(desk: Desk, name: str, ids: Sequence[int], create_missing: bool = False) -> Changes:
    """Add papers at the end; `create_missing`: make the shortlist first if there is none
    of that name (decided in the same transaction: one call, one undo step)."""
    return desk._library.shortlists.add(name, ids, create_missing)


@mutation
def remove(desk: Desk, name: str, ids: Sequence[int]) -> Changes:
    return desk._library.shortlists.remove(name, ids)


@mutation
def reorder(desk: Desk, name: str, ordered_ids: Sequence[int]) -> Changes:
    return desk._library.shortlists.reorder(name, ordered_ids)
