"""Undo and redo over the journal every user action leaves (store/journal.py)."""

from __future__ import annotations

from paperdesk.core.changes import Changes
from paperdesk.core.models import HistoryEntry, UndoLabels
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases._sync import mutation


@mutation
def undo(desk: Desk) -> Changes | None:
    return desk._library.history.undo()


@mutation
def redo(desk: Desk) -> Changes | None:
    return desk._library.history.redo()


def labels(desk: Desk) -> UndoLabels:
    """What Undo and Redo would do now (the Edit menu's texts), in one read."""
    return desk._library.history.labels()


def recent(desk: Desk, limit: int = 50) -> list[HistoryEntry]:
    return desk._library.history.recent(limit)
