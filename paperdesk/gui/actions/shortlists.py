"""Shortlists: named, ordered selections of papers."""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.gui.actions import Done, perform
from paperdesk.gui.actions.offline import perform_or_keep
from paperdesk.gui.operations import Operations
from paperdesk.services.use_cases import shortlists
from paperdesk.services.use_cases.pending_changes import PendingChange


def create(operations: Operations, name: str, ids: Sequence[int] = ()) -> None:
    """A new shortlist, holding `ids` in their order."""
    ids = list(ids)
    perform(
        operations, f"Creating shortlist {name}", lambda desk: shortlists.create(desk, name, ids)
    )


def add(operations: Operations, name: str, ids: Sequence[int]) -> None:
    """Add papers to a shortlist, creating it when no shortlist has that name (the
    service decides, in the same transaction as the write)."""
    if ids:
        change = PendingChange("add to shortlist", tuple(ids), name)
        perform_or_keep(operations, f"Adding to {name}", change)


def remove(operations: Operations, name: str, ids: Sequence[int]) -> None:
    if ids:
        change = PendingChange("remove from shortlist", tuple(ids), name)
        perform_or_keep(operations, f"Removing from {name}", change)


def reorder(operations: Operations, name: str, ids: Sequence[int]) -> None:
    """The shortlist's papers in this new order (rows dragged or moved by keys)."""
    ids = list(ids)
    perform(operations, f"Reordering {name}", lambda desk: shortlists.reorder(desk, name, ids))


def rename(operations: Operations, old: str, new: str, done: Done | None = None) -> None:
    """`done`: e.g. the sidebar follows the shortlist it shows to its new name."""
    perform(
        operations,
        "Renaming a shortlist",
        lambda desk: shortlists.rename(desk, old, new),
        done=done,
    )


def delete(operations: Operations, name: str) -> None:
    perform(operations, f"Deleting {name}", lambda desk: shortlists.delete(desk, name))
