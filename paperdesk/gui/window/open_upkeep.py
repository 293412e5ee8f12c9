"""What opening a library does after the table is painted: the day's backup and the
index's check (`Desk.maintain`), one job on the writer thread.

At 100,000 papers they take 1-2 s (the backup copies and checks a 220 MB database once
a day; the index opens every segment to be checked). The table lists papers from the
database meanwhile; a search that reads the index waits for the check (a missing or
stale index is rebuilt first), and a change waits behind it on the writer thread, so
the day's backup still comes before the day's first change. The job starts once the
first listing is painted (or failed): a thread running Python code holds the GIL for up
to 5 ms each time the painting table calls into Python, which made the first paint 0.5 s
slower when both ran at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, QTimer, SignalInstance
from PySide6.QtWidgets import QTableView

from paperdesk.core.errors import ServerUnreachable
from paperdesk.gui.operations import Operations
from paperdesk.gui.tasks import Job
from paperdesk.gui.widgets.job_progress import JobProgress
from paperdesk.gui.window.index_catch_up import IndexCatchUp


class ListingWindow(Protocol):
    """What the upkeep watches of the main window."""

    @property
    def table(self) -> QTableView: ...
    @property
    def search_applied(self) -> SignalInstance: ...
    @property
    def failed(self) -> SignalInstance: ...


class OpenUpkeep(QObject):
    """`opened()` once a desk is open: the upkeep runs once the window's first listing
    is painted, or at once if it failed. `when_ready(then)` runs `then` now if the
    upkeep is done, else once it is."""

    def __init__(
        self,
        operations: Operations,
        progress: JobProgress,
        catch_up: IndexCatchUp,
        window: ListingWindow,
    ) -> None:
        super().__init__(progress)
        self.operations = operations
        self.progress = progress
        self.catch_up = catch_up
        self._ready = False
        self._due = False
        self._listed = False
        self._waiting: Callable[[], None] | None = None
        window.search_applied.connect(self._on_listed)
        window.failed.connect(self._begin)
        self._viewport = window.table.viewport()
        self._viewport.installEventFilter(self)

    def opened(self) -> None:
        self._ready, self._due, self._listed = False, True, False

    def _on_listed(self) -> None:
        self._listed = True
        if self._due:
            # A paint to follow the listing: an empty table listed empty repaints
            # nothing by itself (it was painted before), and the upkeep waited forever.
            self._viewport.update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self._due and self._listed and event.type() == QEvent.Type.Paint:
            QTimer.singleShot(0, self._begin)  # once this paint is done
        return False

    def _begin(self, *_args: object) -> None:
        desk = self.operations.desk
        if not self._due or desk is None:
            return
        self._due = False
        self.progress.start("Checking the library…", cancellable=False)

        def maintain(job: Job) -> str | None:
            # Papers left unindexed (an import cut short, or a bulk edit made since the
            # window opened) are indexed a chunk at a time by IndexCatchUp, after this.
            return desk.maintain(
                lambda done, total: job.report_progress(
                    done, total, f"Indexing papers: {done:,} of {total:,}"
                ),
                catch_up=False,
            )

        self.operations.runner.write(
            "Check the library",
            maintain,
            on_done=lambda _reason: self._finish(),
            on_error=self._failed,
            on_progress=self.progress.update_progress,
        )

    def is_ready(self) -> bool:
        return self._ready

    def when_ready(self, then: Callable[[], None]) -> bool:
        """True when the upkeep is done; otherwise `then` (the latest one asked) runs
        once it is, and False. A search asked before the first listing (a query given
        at start) starts the upkeep at once: no listing will come before it."""
        if not self._ready:
            self._waiting = then
            self._begin()
        return self._ready

    def _failed(self, error: BaseException) -> None:
        # A team server gone away is the offline banner's to say (gui/team/offline.py);
        # the searches that waited then run and say it in the search bar.
        if not isinstance(error, ServerUnreachable):
            self.operations.errors.report("Checking the library", error)
        self._finish()

    def _finish(self) -> None:
        self._ready = True
        self.progress.hide()
        self.catch_up.start_if_behind()  # an import's indexing the last program left half-done
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            waiting()
