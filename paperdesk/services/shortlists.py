"""Shortlists: named, ordered selections of papers (what gets exported at the end)."""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.core.changes import Changes
from paperdesk.services._sync import synced
from paperdesk.services.desk import Desk


def create(desk: Desk, name: str) -> Changes:
    return synced(desk, desk.library.create_shortlist(name))


def rename(desk: Desk, old: str, new: str) -> Changes:
    return synced(desk, desk.library.rename_shortlist(old, new))


def delete(desk: Desk, name: str) -> Changes:
    return synced(desk, desk.library.delete_shortlist(name))


def add(desk: Desk, name: str, ids: Sequence[int]) -> Changes:
    return synced(desk, desk.library.add_to_shortlist(name, ids))


def remove(desk: Desk, name: str, ids: Sequence[int]) -> Changes:
    return synced(desk, desk.library.remove_from_shortlist(name, ids))


def reorder(desk: Desk, name: str, ordered_ids: Sequence[int]) -> Changes:
    return synced(desk, desk.library.reorder_shortlist(name, ordered_ids))
