"""Adding papers found by identifier (the lookup itself runs first: gui/window/transfers.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from paperdesk.core.changes import Changes
from paperdesk.core.models import PaperRecord
from paperdesk.gui.actions import perform
from paperdesk.gui.operations import Operations
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import identifier_lookup


def add_papers(
    operations: Operations, records: Sequence[PaperRecord], tell: Callable[[str, int], None]
) -> None:
    """Add the papers looked up, merged into those already there: one undo step."""
    summary: list[str] = []

    def add(desk: Desk) -> Changes:
        report, changes = identifier_lookup.add_records(desk, records)
        summary.append(f"{report.added} added, {report.merged + report.unchanged} already there")
        return changes

    perform(operations, "Adding papers", add, done=lambda: tell(summary[0], 6000))
