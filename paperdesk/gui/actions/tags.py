"""Tags on papers, and the tags themselves (create, rename, merge, colour, delete)."""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.gui.actions import Done, perform
from paperdesk.gui.actions.offline import perform_or_keep
from paperdesk.gui.operations import Operations
from paperdesk.services.use_cases import tagging
from paperdesk.services.use_cases.pending_changes import PendingChange


def add_tags(operations: Operations, ids: Sequence[int], names: Sequence[str]) -> None:
    if ids and names:
        change = PendingChange("add tags", tuple(ids), tuple(names))
        perform_or_keep(operations, "Adding tags", change)


def remove_tags(operations: Operations, ids: Sequence[int], names: Sequence[str]) -> None:
    if ids and names:
        change = PendingChange("remove tags", tuple(ids), tuple(names))
        perform_or_keep(operations, "Removing tags", change)


def toggle_tag(operations: Operations, ids: Sequence[int], name: str) -> None:
    """Add the tag to every paper, or take it off them all when every one has it
    (as they are when the server takes it, for a change kept while it was away)."""
    if ids:
        change = PendingChange("toggle tag", tuple(ids), name)
        perform_or_keep(operations, f"Toggling tag {name}", change)


def create_tag(operations: Operations, name: str) -> None:
    perform(operations, "Creating a tag", lambda desk: tagging.create_tag(desk, name))


def rename_tag(operations: Operations, old: str, new: str, done: Done | None = None) -> None:
    """`done`: e.g. the sidebar follows the tag it shows to its new name."""
    perform(
        operations, "Renaming a tag", lambda desk: tagging.rename_tag(desk, old, new), done=done
    )


def merge_tag(operations: Operations, name: str, target: str) -> None:
    perform(operations, "Merging tags", lambda desk: tagging.merge_tags(desk, [name], target))


def set_tag_colour(operations: Operations, name: str, colour: str | None) -> None:
    doing = "Colouring a tag" if colour else "Removing a colour"
    perform(operations, doing, lambda desk: tagging.set_tag_colour(desk, name, colour))


def delete_tag(operations: Operations, name: str) -> None:
    perform(operations, f"Deleting tag {name}", lambda desk: tagging.delete_tag(desk, name))
