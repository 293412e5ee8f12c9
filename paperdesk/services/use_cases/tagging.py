"""Tag actions. Tag names are case-insensitive; `parent/child` names form a hierarchy."""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.core.changes import Changes
from paperdesk.core.models import TagInfo
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases._sync import mutation


def list_tags(desk: Desk) -> list[TagInfo]:
    """Every tag with its colour and how many papers carry it, by name."""
    return desk._library.tags.all()


@mutation
def add_tags(desk: Desk, ids: Sequence[int], names: Sequence[str]) -> Changes:
    return desk._library.tags.add(ids, names)


@mutation
def remove_tags(desk: Desk, ids: Sequence[int], names: Sequence[str]) -> Changes:
    return desk._library.tags.remove(ids, names)


@mutation
def change_tags(
    desk: Desk, ids: Sequence[int], add: Sequence[str] = (), remove: Sequence[str] = ()
) -> Changes:
    """Add some tags and remove others in one action (one undo step)."""
    return desk._library.tags.change(ids, add, remove)


@mutation
def toggle_tag(desk: Desk, ids: Sequence[int], name: str) -> Changes:
    """Add the tag to every paper, or take it off them all when every one has it."""
    wanted = name.casefold()
    papers = desk._library.papers.get_many(ids)
    if papers and all(wanted in {t.casefold() for t in p.tags} for p in papers):
        return remove_tags(desk, ids, [name])
    return add_tags(desk, ids, [name])


@mutation
def create_tag(desk: Desk, name: str, colour: str | None = None) -> Changes:
    return desk._library.tags.create(name, colour)


@mutation
def rename_tag(desk: Desk, old: str, new: str) -> Changes:
    return desk._library.tags.rename(old, new)


@mutation
def merge_tags(desk: Desk, sources: Sequence[str], target: str) -> Changes:
    return desk._library.tags.merge(sources, target)


@mutation
def delete_tag(desk: Desk, name: str) -> Changes:
    return desk._library.tags.delete(name)


@mutation
def set_tag_colour(desk: Desk, name: str, colour: str | None) -> Changes:
    return desk._library.tags.set_colour(name, colour)
