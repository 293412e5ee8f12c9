"""Undo and redo over the journal every user action leaves (store/journal.py)."""

from __future__ import annotations

from paperdesk.core.changes import Changes
from paperdesk.core.models import HistoryEntry
from paperdesk.services._sync import synced
from paperdesk.services.desk import Desk


def undo(desk: Desk) -> Changes | None:
    changes = desk.library.undo()
    return synced(desk, changes) if changes is not None else None


def redo(desk: Desk) -> Changes | None:
    changes = desk.library.redo()
    return synced(desk, changes) if changes is not None else None


def undo_label(desk: Desk) -> str | None:
    entry = desk.library.undo_candidate()
    return entry.action if entry else None


def redo_label(desk: Desk) -> str | None:
    entry = desk.library.redo_candidate()
    return entry.action if entry else None


def recent(desk: Desk, limit: int = 50) -> list[HistoryEntry]:
    return desk.library.history(limit)
