"""A team library whose server went away: a banner, read-only, nothing typed lost.

`LibraryWatch` says when the server stops and starts answering. Meanwhile the library
is read-only (the same mode as a read-only local library, with its banner saying why),
a note being typed stays in its editor or becomes a draft, and once the server is back
the banner goes, writing resumes and the drafts are saved.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from paperdesk.core.errors import ReadOnlyLibraryError, ServerUnreachable
from paperdesk.gui.library_notices import READ_ONLY_TEXT
from paperdesk.services.desk import Desk

if TYPE_CHECKING:
    from paperdesk.gui.main_window import MainWindow

log = logging.getLogger(__name__)

OFFLINE_TEXT = "Team library unreachable — read-only until it is back; retrying."
DRAFT_KEPT = "The note is kept as a draft and saved once the team library is back."
BACK = "The team library is back: changes are saved again."


def is_offline_refusal(desk: Desk | None, error: BaseException) -> bool:
    """Whether a team library refused a change only because its server is away."""
    return (
        desk is not None
        and desk.address is not None
        and isinstance(error, ServerUnreachable | ReadOnlyLibraryError)
    )


class OfflineMode:
    def __init__(self, window: MainWindow) -> None:
        self.window = window
        window.watch.unreachable.connect(self.go_offline)
        window.watch.reachable.connect(self.come_back)

    def go_offline(self, reason: str) -> None:
        desk = self.window.desk
        if desk is None:
            return
        desk.read_only = True  # writes are refused at once, not after a network timeout
        banner = self.window.read_only_banner
        banner.setText(OFFLINE_TEXT)
        banner.setToolTip(reason)
        banner.show()
        self.window.statusBar().showMessage(OFFLINE_TEXT)

    def come_back(self) -> None:
        desk = self.window.desk
        if desk is None:
            return
        desk.read_only = False
        banner = self.window.read_only_banner
        banner.hide()
        banner.setText(READ_ONLY_TEXT)
        banner.setToolTip("")
        self.window.statusBar().showMessage(BACK, 5000)
        self.window.detail.notes.retry()
        model = self.window.model
        model.refresh_papers(model.ids())  # rows that could not be read meanwhile
        self.window.run_search()  # a search that could not run meanwhile
