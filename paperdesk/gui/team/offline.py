"""A team library whose server went away: a banner, read-only, nothing typed lost.

`LibraryWatch` says when the server stops and starts answering. Meanwhile the library
is read-only (the same mode as a read-only local library, with its banner saying why),
a note being typed stays in its editor or becomes a draft, and once the server is back
the banner goes, writing resumes and the drafts are saved. A window closed meanwhile
keeps its drafts on this machine (services/use_cases/note_drafts.py); the next window on the
library saves them.
"""

from __future__ import annotations

import logging
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, SignalInstance
from PySide6.QtWidgets import QLabel, QStatusBar, QWidget

from paperdesk.core.errors import ServerUnreachable
from paperdesk.gui.operations import Operations
from paperdesk.gui.window.detail_pane import DetailPane
from paperdesk.gui.window.library_notices import READ_ONLY_TEXT
from paperdesk.gui.window.library_watch import LibraryWatch
from paperdesk.gui.window.paper_table_model import PaperTableModel
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import note_drafts, pending_changes

log = logging.getLogger(__name__)

OFFLINE_TEXT = "Team library unreachable — retrying."
KEPT = "Kept on this machine ({count} waiting): applied once the team library is back."
BACK = "The team library is back: changes are saved again."
AWAY_AGAIN = "The team library went away again before every change kept was applied."


class OfflineWindow(Protocol):
    """What the offline mode needs of the main window (gui/window/main_window.py, which makes
    it through gui/team/library.py)."""

    @property
    def watch(self) -> LibraryWatch: ...
    @property
    def desk_opened(self) -> SignalInstance: ...
    @property
    def desk(self) -> Desk | None: ...
    @property
    def operations(self) -> Operations: ...
    @property
    def detail(self) -> DetailPane: ...
    @property
    def read_only_banner(self) -> QLabel: ...
    @property
    def model(self) -> PaperTableModel: ...
    def run_search(self, *_args: object) -> None: ...
    def statusBar(self, /) -> QStatusBar: ...
    def installEventFilter(self, filterObj: QObject, /) -> None: ...
    def window(self, /) -> QWidget: ...


class OfflineMode(QObject):
    def __init__(self, window: OfflineWindow) -> None:
        super().__init__(window.window())
        self.window = window
        window.watch.unreachable.connect(self.go_offline)
        window.watch.reachable.connect(self.come_back)
        window.desk_opened.connect(self._save_kept_drafts)
        window.desk_opened.connect(self._show_pending)
        window.operations.keep_offline = self.keep_change
        window.operations.server_lost = window.watch.lost
        window.installEventFilter(self)  # sees the window's Close before closeEvent

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.Close:
            self._keep_drafts()
        return False

    def _keep_drafts(self) -> None:
        desk, editor = self.window.desk, self.window.detail.notes
        if desk is None or desk.address is None or not self.window.watch.offline:
            return
        drafts = editor.drafts()
        if drafts:
            note_drafts.keep(desk, drafts)
            log.info("%d note drafts kept until the team library is back", len(drafts))

    def _save_kept_drafts(self) -> None:
        desk = self.window.desk
        if desk is not None and desk.address is not None:
            if drafts := note_drafts.take(desk):
                self.window.detail.notes.add_drafts(drafts)
                self.window.detail.notes.retry()

    def keep_change(self, change: pending_changes.PendingChange) -> None:
        """A rating or status the server could not take: kept, and applied on its return."""
        desk = self.window.desk
        if desk is None:
            return
        count = pending_changes.keep(desk, change)
        self.window.read_only_banner.setText(self._offline_text(desk))
        self.window.statusBar().showMessage(KEPT.format(count=count))
        self._show_pending()

    def _show_pending(self) -> None:
        """The ratings waiting for the server, hollow on the stars until it takes them."""
        desk = self.window.desk
        if desk is not None and desk.address is not None:
            waiting = pending_changes.pending_ratings(desk)
            self.window.model.set_pending_ratings(waiting)
            self.window.detail.set_pending_ratings(waiting)

    def _after_applying(self) -> None:
        """Show what still waits; if the server went away again midway (the rest stays
        kept), go offline again, so that its return applies the rest."""
        self._show_pending()
        desk = self.window.desk
        if desk is not None and pending_changes.pending(desk):
            self.window.watch.lost(ServerUnreachable(AWAY_AGAIN))

    @staticmethod
    def _offline_text(desk: Desk) -> str:
        waiting = len(pending_changes.pending(desk))
        if not waiting:
            return OFFLINE_TEXT
        changes = "1 change" if waiting == 1 else f"{waiting} changes"
        return f"{OFFLINE_TEXT} {changes} kept on this machine, applied once it is back."

    def go_offline(self, reason: str) -> None:
        desk = self.window.desk
        if desk is None:
            return
        desk.offline = True  # writes are refused at once, not after a network timeout
        banner = self.window.read_only_banner
        banner.setText(self._offline_text(desk))
        banner.setToolTip(reason)
        banner.show()
        self.window.statusBar().showMessage(OFFLINE_TEXT)

    def come_back(self) -> None:
        desk = self.window.desk
        if desk is None:
            return
        desk.offline = False
        banner = self.window.read_only_banner
        banner.hide()
        banner.setText(READ_ONLY_TEXT)
        banner.setToolTip("")
        self.window.statusBar().showMessage(BACK, 5000)
        if pending_changes.pending(desk):
            self.window.operations.perform(
                "Applying the changes made offline",
                pending_changes.apply_pending,
                before_apply=self._after_applying,
            )
        self.window.detail.notes.retry()
        model = self.window.model
        model.refresh_papers(model.ids())  # rows that could not be read meanwhile
        self.window.run_search()  # a search that could not run meanwhile
