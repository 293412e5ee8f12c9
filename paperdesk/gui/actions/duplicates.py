"""Likely duplicates: merged into one paper, or marked as different papers."""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.gui.actions import Done, perform
from paperdesk.gui.operations import Operations
from paperdesk.services.use_cases import duplicates


def merge(operations: Operations, ids: Sequence[int], done: Done | None = None) -> None:
    """One paper of the group, the first, keeping what the others held (undo brings them
    back)."""
    ids = list(ids)
    perform(
        operations,
        "Merging duplicates",
        lambda desk: duplicates.merge(desk, ids, keep=ids[0]),
        done=done,
    )


def keep_apart(operations: Operations, ids: Sequence[int], done: Done | None = None) -> None:
    """Different papers that look alike: never suggested as duplicates again."""
    ids = list(ids)
    perform(
        operations,
        "Keeping papers apart",
        lambda desk: duplicates.mark_not_duplicates(desk, ids),
        done=done,
    )
