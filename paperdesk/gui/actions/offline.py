"""A change a team library refused only because its server is away (gui/team/offline.py
shows the banner and applies what was kept once the server is back)."""

from __future__ import annotations

from paperdesk.core.errors import ReadOnlyLibraryError, ServerUnreachable
from paperdesk.gui.operations import Operations
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import pending_changes
from paperdesk.services.use_cases.pending_changes import PendingChange

#: Said when a note's save is refused that way: its text is kept as a draft.
DRAFT_KEPT = "The note is kept as a draft and saved once the team library is back."


def is_offline_refusal(desk: Desk | None, error: BaseException) -> bool:
    """Whether a team library refused a change only because its server is away."""
    if desk is None or desk.address is None:
        return False
    # A reader's library is read-only too, and stays so: only the server's absence counts.
    return isinstance(error, ServerUnreachable) or (
        desk.offline and isinstance(error, ReadOnlyLibraryError)
    )


def perform_or_keep(operations: Operations, name: str, change: PendingChange) -> None:
    """Make the change; if a team library's server is away, keep it on this machine
    to apply on its return (gui/team/offline.py) instead of refusing it."""

    def failed(error: BaseException) -> None:
        if operations.keep_offline is not None and is_offline_refusal(operations.desk, error):
            operations.keep_offline(change)
        else:
            operations.errors.report(name, error)

    operations.perform(name, lambda desk: pending_changes.apply(desk, change), on_error=failed)
