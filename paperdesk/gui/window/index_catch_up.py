"""Re-indexing after a bulk change, in the background, a chunk per writer job.

A status set on 100,000 papers is written and shown in a second or two; their search
documents follow here, a chunk at a time, each chunk one job on the writer thread (the
catch-up process re-indexes it, services/runtime/catch_up_process.py, so the GUI keeps the
GIL), and a star rated or an undo meanwhile waits for one chunk at most.
The status bar shows how far it got; searches say their results may be out of date.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from paperdesk.gui.operations import Operations
from paperdesk.gui.widgets.job_progress import JobProgress

#: Papers re-indexed per writer job: about half a second of whoosh's time.
CHUNK = 400
#: Fewer papers than this (a triage decision) catch up without a word in the status bar.
SHOWN_FROM = 50


class IndexCatchUp(QObject):
    """`caught_up` fires once the index has every change again."""

    caught_up = Signal()

    def __init__(self, operations: Operations, progress: JobProgress) -> None:
        super().__init__(progress)
        self.operations = operations
        self.progress = progress
        self._running = False
        self._total = 0

    def is_running(self) -> bool:
        return self._running

    def start_if_behind(self) -> None:
        desk = self.operations.desk
        if desk is None or self._running:
            return
        remaining = desk.papers_behind()
        if remaining:
            self._running = True
            self._total = remaining
            if remaining >= SHOWN_FROM:
                self.progress.start(self._text(remaining), cancellable=False)
            self._next_chunk()

    def _next_chunk(self) -> None:
        desk = self.operations.desk
        if desk is None:
            self._running = False
            return
        self.operations.runner.write(
            "Updating the search index",
            lambda job: desk.catch_up_deferred(CHUNK),
            on_done=self._chunk_done,
            on_error=self._failed,
        )

    def _chunk_done(self, remaining: int) -> None:
        # A bulk change made meanwhile adds to what is left.
        self._total = max(self._total, remaining)
        if remaining:
            done = self._total - remaining
            if self._total >= SHOWN_FROM:
                self.progress.update_progress(done, self._total, self._text(remaining))
            self._next_chunk()
            return
        self._running = False
        self.progress.hide()
        self.caught_up.emit()

    def _failed(self, error: BaseException) -> None:
        self._running = False
        self.progress.hide()
        self.operations.errors.report("Updating the search index", error)

    @staticmethod
    def _text(remaining: int) -> str:
        return f"Updating the search index: {remaining:,} papers to go…"
