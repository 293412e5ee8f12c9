"""Noticing what other programs change in the open library, and saying so.

Several windows and command lines may share a library (the write lock keeps their
changes apart). `LibraryWatch` reads the database's generation every second, a single
tiny query, and when it moved asks the window to refresh; a window busy with an edit
(a title being typed) answers False and is asked again on the next tick, so nothing
the user is typing is replaced. `waiting` carries the message of a change that waits
for another program's, from the writer thread to the status bar.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from paperdesk.core.errors import PaperdeskError
from paperdesk.services import reading
from paperdesk.services.desk import Desk

log = logging.getLogger(__name__)

POLL_MS = 1000


class LibraryWatch(QObject):
    waiting = Signal(str)

    def __init__(
        self,
        desk: Callable[[], Desk | None],
        refresh: Callable[[], bool],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._desk = desk
        self._refresh = refresh
        self._seen: int | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)

    def start(self) -> None:
        desk = self._desk()
        if desk is not None:
            self._seen = reading.generation(desk)
            self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def poll(self) -> None:
        desk = self._desk()
        if desk is None:
            return
        try:
            now = reading.generation(desk)
        except PaperdeskError as error:  # busy or damaged: the next action says so
            log.debug("could not read the library's generation: %s", error)
            return
        if now != self._seen and self._refresh():
            self._seen = now
