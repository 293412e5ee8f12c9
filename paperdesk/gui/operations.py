"""Running service calls off the GUI thread (compare Anki's `aqt/operations/`).

A user action is one service call: `perform` queues it on the writer thread and hands
the `Changes` it returns to the window, which routes them to the panes. Reads that may
take a while (a search over the whole library, an export preview) go to the reader
thread with `read`; imports and exports, which report progress and can be cancelled,
go to the writer with `run_long`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from paperdesk.core.changes import Changes
from paperdesk.core.errors import ServerUnreachable
from paperdesk.gui.dialogs.questions import ErrorReporter
from paperdesk.gui.tasks import ErrorCallback, Job, ProgressCallback, TaskRunner
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases.pending_changes import PendingChange

T = TypeVar("T")
Action = Callable[[Desk], Changes | None]


class Operations:
    """The open desk (None until the library is open) and the threads that act on it."""

    def __init__(
        self,
        runner: TaskRunner,
        errors: ErrorReporter,
        apply_changes: Callable[[Changes | None], None],
    ) -> None:
        self.runner = runner
        self.errors = errors
        self.apply_changes = apply_changes
        self.desk: Desk | None = None
        #: Keeps a rating or status a team library's absent server could not take
        #: (gui/team/offline.py); None: such a change is refused like any other.
        self.keep_offline: Callable[[PendingChange], None] | None = None
        #: Told when an action found a team library's server away (gui/team/offline.py
        #: then goes offline, and retries what was kept once the server answers).
        self.server_lost: Callable[[ServerUnreachable], None] | None = None

    def perform(
        self,
        name: str,
        action: Action,
        on_error: ErrorCallback | None = None,
        before_apply: Callable[[], None] | None = None,
    ) -> Job | None:
        """Run one user action on the writer; its Changes come back to the window.

        `before_apply` runs on the GUI thread once the action succeeded, before the panes
        are refreshed (e.g. to follow a rename of the shortlist being shown).
        """
        desk = self.desk
        if desk is None:
            return None

        def done(changes: Changes | None) -> None:
            if before_apply is not None:
                before_apply()
            self.apply_changes(changes)

        report = on_error or partial(self.errors.report, name)

        def failed(error: BaseException) -> None:
            report(error)
            if isinstance(error, ServerUnreachable) and self.server_lost is not None:
                self.server_lost(error)

        return self.runner.write(name, lambda job: action(desk), on_done=done, on_error=failed)

    def read(
        self,
        name: str,
        query: Callable[[Desk], T],
        on_done: Callable[[T], None],
        on_error: ErrorCallback,
        key: str | None = None,
    ) -> Job | None:
        """Run a read on the reader thread; a newer read with the same `key` replaces it."""
        desk = self.desk
        if desk is None:
            return None
        return self.runner.read(
            name, lambda job: query(desk), on_done=on_done, on_error=on_error, key=key
        )

    def run_long(
        self,
        name: str,
        work: Callable[[Desk, Job], Any],
        on_done: Callable[[Any], None],
        on_error: ErrorCallback,
        on_progress: ProgressCallback | None = None,
        *,
        planning: bool = False,
    ) -> Job | None:
        """Run an import or export on the writer; `work` reports progress through its job
        and stops when the job is cancelled. `planning` work only reads, to decide what
        a write will do (an import's plan): it runs on the pool, so user actions
        meanwhile do not wait for it."""
        desk = self.desk
        if desk is None:
            return None
        worker = self.runner.pool if planning else self.runner.writer
        return self.runner.submit(
            worker, name, lambda job: work(desk, job), on_done, on_error, on_progress
        )
