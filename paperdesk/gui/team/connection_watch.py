"""Watching a team library's server off the GUI thread.

A team library's generation is a query over the network: a slow or vanished server
must never freeze the window, so `TeamProbe` asks it on a thread of its own, one
question at a time (a tick while one is out is skipped). When the generation moved,
the probe first brings this machine's search index up to it
(`Desk.catch_up_with_others`), so a search the window runs next finds what the others
changed. Answers and failures come back to the GUI thread as signals.
"""

from __future__ import annotations

import itertools

from PySide6.QtCore import QObject, Signal

from paperdesk.gui.tasks import Job, SerialWorker
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import reading


class TeamProbe(QObject):
    answered = Signal(int)  # the library's generation, the local index caught up to it
    failed = Signal(object)  # the error (ServerUnreachable while the server is away)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ids = itertools.count(1)
        self._asking: int | None = None
        self._worker = SerialWorker("paperdesk-team-watch", self)
        self._worker.finished_job.connect(self._on_finished)
        self._worker.failed_job.connect(self._on_failed)
        self._worker.start()

    def ask(self, desk: Desk, seen: int | None) -> None:
        """Read the generation (catching the index up when it is not `seen`), unless a
        question is still out."""
        if self._asking is not None:
            return
        job = Job(next(self._ids), "Watching the team library", lambda _job: _read(desk, seen))
        self._asking = job.id
        self._worker.submit(job)

    def stop(self) -> None:
        self._worker.stop()

    def _on_finished(self, job_id: int, generation: object) -> None:
        self._asking = None
        assert isinstance(generation, int)
        self.answered.emit(generation)

    def _on_failed(self, job_id: int, error: BaseException | None) -> None:
        self._asking = None
        if error is not None:
            self.failed.emit(error)


def _read(desk: Desk, seen: int | None) -> int:
    generation = reading.generation(desk)
    if seen is not None and generation != seen:
        desk.catch_up_with_others()
    return generation
