"""Noticing what other programs change in the open library, and saying so.

Several windows and command lines may share a library (the write lock keeps their
changes apart). `LibraryWatch` reads the database's generation every second, a single
tiny query, and when it moved asks the window to refresh; a window busy with an edit
(a title being typed) answers False and is asked again on the next tick, so nothing
the user is typing is replaced. `waiting` carries the message of a change that waits
for another program's, from the writer thread to the status bar.

On a team library the question goes over the network, so `TeamProbe` asks it off the
GUI thread (gui/team/connection_watch.py); a server that stops answering is `unreachable`
(once, with the reason) and `reachable` again when it answers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from paperdesk.core.errors import PaperdeskError, ServerUnreachable
from paperdesk.gui.team.connection_watch import TeamProbe
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import reading

log = logging.getLogger(__name__)

POLL_MS = 1000


class LibraryWatch(QObject):
    waiting = Signal(str)
    unreachable = Signal(str)
    reachable = Signal()

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
        self._probe: TeamProbe | None = None
        self.offline = False
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)

    def start(self) -> None:
        desk = self._desk()
        if desk is None:
            return
        if desk.address is not None:
            self._probe = TeamProbe(self)
            self._probe.answered.connect(self._on_generation)
            self._probe.failed.connect(self._on_probe_failed)
            self._seen = None  # the probe's first answer
            self.poll()
        else:
            self._seen = reading.generation(desk)
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        if self._probe is not None:
            self._probe.stop()

    def poll(self) -> None:
        desk = self._desk()
        if desk is None:
            return
        if self._probe is not None:
            self._probe.ask(desk, self._seen)
            return
        try:
            now = reading.generation(desk)
        except PaperdeskError as error:  # busy or damaged: the next action says so
            log.debug("could not read the library's generation: %s", error)
            return
        if now != self._seen and self._refresh():
            self._seen = now

    def _on_generation(self, now: int) -> None:
        if self.offline:
            self.offline = False
            log.info("the team library answers again")
            self.reachable.emit()
        if self._seen is None or (now != self._seen and self._refresh()):
            self._seen = now

    def lost(self, error: ServerUnreachable) -> None:
        """The server stopped answering: said once, and `reachable` when it answers.

        Also told by a write that found the server away while the probe had not (a
        write just after the server came back may still fail): that write's change is
        kept, and only going offline again brings the retry once the server answers."""
        if not self.offline:
            self.offline = True
            log.info("%s", error)  # expected while the server is away: no error
            self.unreachable.emit(str(error))

    def _on_probe_failed(self, error: BaseException) -> None:
        if isinstance(error, ServerUnreachable):
            self.lost(error)
        elif isinstance(error, PaperdeskError):
            log.debug("could not read the team library's generation: %s", error)
        else:
            log.warning("watching the team library failed: %r", error)
