"""Undo and redo: each takes back (or does again) one whole action."""

from __future__ import annotations

from paperdesk.gui.actions import perform
from paperdesk.gui.operations import Operations
from paperdesk.gui.tasks import ErrorCallback
from paperdesk.services.use_cases import history


def undo(operations: Operations, failed: ErrorCallback | None = None) -> None:
    perform(operations, "Undo", history.undo, failed=failed)


def redo(operations: Operations) -> None:
    perform(operations, "Redo", history.redo)
