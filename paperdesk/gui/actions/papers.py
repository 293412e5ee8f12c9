"""Rating, status, title, any other field and deletion of papers."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from paperdesk.core.models import Status
from paperdesk.gui.actions import perform
from paperdesk.gui.actions.offline import perform_or_keep
from paperdesk.gui.operations import Operations
from paperdesk.services.use_cases import editing
from paperdesk.services.use_cases.pending_changes import PendingChange


def set_rating(operations: Operations, ids: Sequence[int], rating: int) -> None:
    perform_or_keep(operations, "Rating", PendingChange("rating", tuple(ids), rating))


def set_status(operations: Operations, ids: Sequence[int], status: Status) -> None:
    perform_or_keep(operations, "Status", PendingChange("status", tuple(ids), status.value))


def set_title(operations: Operations, paper_id: int, title: str) -> None:
    perform_or_keep(operations, "Editing the title", PendingChange("title", (paper_id,), title))


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
