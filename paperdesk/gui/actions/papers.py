"""Rating, status, title, any other field and deletion of papers."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from paperdesk.core.models import Status
from paperdesk.gui.actions import perform
from paperdesk.gui.actions.offline import is_offline_refusal
from paperdesk.gui.operations import Operations
from paperdesk.services import editing, pending_changes
from paperdesk.services.pending_changes import PendingChange


def set_rating(operations: Operations, ids: Sequence[int], rating: int) -> None:
    _set_or_keep(operations, "Rating", PendingChange("rating", tuple(ids), rating))


def set_status(operations: Operations, ids: Sequence[int], status: Status) -> None:
    _set_or_keep(operations, "Status", PendingChange("status", tuple(ids), status.value))


def _set_or_keep(operations: Operations, name: str, change: PendingChange) -> None:
    """Make the change; if a team library's server is away, keep it on this machine
    to apply on its return (gui/team_offline.py) instead of refusing it."""

    def failed(error: BaseException) -> None:
        if operations.keep_offline is not None and is_offline_refusal(operations.desk, error):
            operations.keep_offline(change)
        else:
            operations.errors.report(name, error)

    operations.perform(name, lambda desk: pending_changes.apply(desk, change), on_error=failed)


def set_title(operations: Operations, paper_id: int, title: str) -> None:
    perform(operations, "Editing the title", lambda desk: editing.set_title(desk, paper_id, title))


def edit_field(
    operations: Operations,
    paper_id: int,
    name: str,
    text: str,
    failed: Callable[[BaseException], None] | None = None,
) -> None:
    """One field set from what the user typed (read and checked by the service);
    `failed` runs when it is refused (the pane puts the stored value back)."""
    perform(
        operations,
        f"Editing the {name}",
        lambda desk: editing.edit_field(desk, paper_id, name, text),
        failed=failed,
    )


def delete_papers(operations: Operations, ids: Sequence[int]) -> None:
    ids = list(ids)
    perform(operations, "Deleting papers", lambda desk: editing.delete_papers(desk, ids))
