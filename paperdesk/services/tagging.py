"""Tag actions. Tag names are case-insensitive; `parent/child` names form a hierarchy."""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.core.changes import Changes
from paperdesk.services._sync import synced
from paperdesk.services.desk import Desk


def add_tags(desk: Desk, ids: Sequence[int], names: Sequence[str]) -> Changes:
    return synced(desk, desk.library.add_tags(ids, names))


def remove_tags(desk: Desk, ids: Sequence[int], names: Sequence[str]) -> Changes:
    return synced(desk, desk.library.remove_tags(ids, names))


def create_tag(desk: Desk, name: str, colour: str | None = None) -> Changes:
    return synced(desk, desk.library.create_tag(name, colour))


def rename_tag(desk: Desk, old: str, new: str) -> Changes:
    return synced(desk, desk.library.rename_tag(old, new))


def merge_tags(desk: Desk, sources: Sequence[str], target: str) -> Changes:
    return synced(desk, desk.library.merge_tags(sources, target))


def delete_tag(desk: Desk, name: str) -> Changes:
    return synced(desk, desk.library.delete_tag(name))


def set_tag_colour(desk: Desk, name: str, colour: str | None) -> Changes:
    return synced(desk, desk.library.set_tag_colour(name, colour))
