"""Background work: one writer thread for every mutation, one reader thread for searches,
one pool thread for long reads (planning imports).

DESIGN §5: the GUI thread never waits on a long job. All writes (SQLite and the whoosh
writer) go through a single `SerialWorker`, so they never race each other; searches go
through a second one so typing is never stuck behind an import. Results and errors come
back to the GUI thread through Qt signals (queued connections across threads), where the
job's callbacks run.

A search superseded by a newer one with the same `key` is dropped before it starts and
its result is never delivered, so the table only ever shows the latest query.
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

log = logging.getLogger(__name__)

Callback = Callable[[Any], None]
ErrorCallback = Callable[[BaseException], None]
ProgressCallback = Callable[[int, int, str], None]


@dataclass(eq=False)
class Job:
    """A handle on submitted work: cancel it, ask whether it was cancelled.

    `fn` receives the job itself, so long work can call `job.report_progress` and pass
    `job.is_cancelled` to a service's `cancelled=` hook.
    """

    id: int
    name: str
    fn: Callable[[Job], Any]
    on_done: Callback | None = None
    on_error: ErrorCallback | None = None
    on_progress: ProgressCallback | None = None
    key: str | None = None
    _cancelled: threading.Event = field(default_factory=threading.Event)
    #: Set by the runner that takes the job: where its progress goes (a Qt signal).
    emit_progress: Callable[[int, int, int, str], None] | None = None
    _last_progress: float = 0.0

    def cancel(self) -> None:
        self._cancelled.set()

    def is_cancelled(self) -> bool:
        return self._cancelled.is_set()

    def report_progress(self, done: int, total: int, text: str = "") -> None:
        """Thread-safe; throttled so a per-record report cannot flood the GUI's queue."""
        now = time.monotonic()
        if self.emit_progress is None:
            return
        if done >= total or done <= 1 or now - self._last_progress >= PROGRESS_INTERVAL_S:
            self._last_progress = now
            self.emit_progress(self.id, done, total, text)


PROGRESS_INTERVAL_S = 0.05
_STOP = object()


class SerialWorker(QThread):
    """Runs jobs one after another, in submission order, on its own thread."""

    finished_job = Signal(int, object)
    failed_job = Signal(int, object)
    progressed = Signal(int, int, int, str)

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self._queue: queue.Queue[Job | object] = queue.Queue()
        self._latest_by_key: dict[str, int] = {}
        self._lock = threading.Lock()

    def submit(self, job: Job) -> None:
        if job.key is not None:
            with self._lock:
                self._latest_by_key[job.key] = job.id
        job.emit_progress = self.progressed.emit
        self._queue.put(job)

    def is_superseded(self, job: Job) -> bool:
        if job.key is None:
            return False
        with self._lock:
            return self._latest_by_key.get(job.key) != job.id

    def stop(self) -> None:
        """Run every job queued so far (a note save queued on close must land), then end."""
        self._queue.put(_STOP)
        self.wait()

    def run(self) -> None:
        while True:
            job = self._queue.get()
            if job is _STOP:
                return
            assert isinstance(job, Job)
            if self.is_superseded(job):
                self.failed_job.emit(job.id, None)
                continue
            try:
                result = job.fn(job)
            except BaseException as error:  # delivered to the GUI thread
                self.failed_job.emit(job.id, error)
            else:
                self.finished_job.emit(job.id, result)


class TaskRunner(QObject):
    """Submits jobs to the writer or the reader thread and calls back on the GUI thread.

    Cancelling is a request the job honours by checking `is_cancelled`; what it returns
    then (an import reports what it did and what it skipped) is still delivered. A
    superseded search never runs, or is never delivered if it already ran. Errors
    without an `on_error` go to `unhandled_error`, which the window turns into a message.
    """

    unhandled_error = Signal(str, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[Job, SerialWorker]] = {}
        self.writer = SerialWorker("paperdesk-writer", self)
        self.reader = SerialWorker("paperdesk-reader", self)
        # Long reads (planning an import: parsing a file, matching it against the
        # library) run here, so neither the writer nor a search waits behind them.
        self.pool = SerialWorker("paperdesk-pool", self)
        for worker in (self.writer, self.reader, self.pool):
            worker.finished_job.connect(self._on_finished)
            worker.failed_job.connect(self._on_failed)
            worker.progressed.connect(self._on_progress)
            worker.start()

    def write(
        self,
        name: str,
        fn: Callable[[Job], Any],
        on_done: Callback | None = None,
        on_error: ErrorCallback | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Job:
        """Queue a mutation (or an import, or opening the library) on the writer thread."""
        return self.submit(self.writer, name, fn, on_done, on_error, on_progress)

    def read(
        self,
        name: str,
        fn: Callable[[Job], Any],
        on_done: Callback | None = None,
        on_error: ErrorCallback | None = None,
        key: str | None = None,
    ) -> Job:
        """Queue a read; with `key`, a newer read with that key supersedes this one."""
        return self.submit(self.reader, name, fn, on_done, on_error, None, key)

    def submit(
        self,
        worker: SerialWorker,
        name: str,
        fn: Callable[[Job], Any],
        on_done: Callback | None = None,
        on_error: ErrorCallback | None = None,
        on_progress: ProgressCallback | None = None,
        key: str | None = None,
    ) -> Job:
        """Queue a job on one of the workers (`writer`, `reader` or `pool`)."""
        job = Job(next(self._ids), name, fn, on_done, on_error, on_progress, key)
        self._pending[job.id] = (job, worker)
        worker.submit(job)
        return job

    def is_idle(self) -> bool:
        return not self._pending

    def _take(self, job_id: int) -> Job | None:
        """The finished job, or None when its result is no longer wanted (superseded)."""
        entry = self._pending.pop(job_id, None)
        if entry is None:
            return None
        job, worker = entry
        return None if worker.is_superseded(job) else job

    def _on_finished(self, job_id: int, result: object) -> None:
        job = self._take(job_id)
        if job is not None and job.on_done is not None:
            job.on_done(result)

    def _on_failed(self, job_id: int, error: BaseException | None) -> None:
        job = self._take(job_id)
        if job is None or error is None:
            return
        if job.on_error is not None:
            job.on_error(error)
        else:
            self.unhandled_error.emit(job.name, error)

    def _on_progress(self, job_id: int, done: int, total: int, text: str) -> None:
        entry = self._pending.get(job_id)
        if entry is not None and entry[0].on_progress is not None:
            entry[0].on_progress(done, total, text)

    def shutdown(self) -> None:
        """Drop queued searches, let the writer finish every queued write, stop both."""
        for job, worker in self._pending.values():
            if worker is not self.writer:
                job.cancel()
        self.reader.stop()
        self.pool.stop()
        self.writer.stop()
