"""The user's actions on the library, one free function each (compare Anki's
`aqt/operations/`): papers, tags, notes, highlights, shortlists, saved searches,
triage decisions, undo.

The main window, its menus, the sidebar's right-click menus and the triage view all
call these; none of them writes to the library another way. Each action is one
service call on the writer thread (`Operations.perform`), so one undo step, and fails
the same way wherever it was asked for (`perform` below). What an action acts on (the
ids, the names) is passed in: reading it from the table's selection or the paper
shown is the caller's job.
"""

from __future__ import annotations

from collections.abc import Callable

from paperdesk.gui.operations import Action, Operations
from paperdesk.gui.tasks import ErrorCallback, Job

#: Runs on the GUI thread once an action succeeded, before the panes show its changes.
Done = Callable[[], None]


def perform(
    operations: Operations,
    name: str,
    service: Action,
    *,
    done: Done | None = None,
    failed: ErrorCallback | None = None,
) -> Job | None:
    """Run one service call as one user action.

    On failure `failed` runs first (the caller's own bookkeeping: a busy flag, a draft),
    then the error is reported as every action's is: a message naming the action, the
    library unchanged (gui/dialogs/questions.py `ErrorReporter`).
    """

    def report(error: BaseException) -> None:
        if failed is not None:
            failed(error)
        operations.errors.report(name, error)

    return operations.perform(name, service, on_error=report, before_apply=done)
