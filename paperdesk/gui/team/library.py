"""The window's part in team libraries: connecting, the password, going offline.

A window on a team library (`MainWindow(TeamAddress(...))`) opens it like a folder,
through `Desk.open_team` on the writer thread. When the server wants a password the
address, PGPASSWORD and ~/.pgpass did not give, the window asks for it and opens again.
File > Connect to Team Library… builds an address and opens a window on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QDialog, QInputDialog

from paperdesk.config import team_state_dir
from paperdesk.core.errors import PasswordNeeded
from paperdesk.core.team_url import TeamAddress
from paperdesk.gui.tasks import Job
from paperdesk.gui.team.connect import ask_password, connect_to_team
from paperdesk.gui.team.offline import OfflineMode, OfflineWindow
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.runtime.write_lock import Notice


def window_title(library: Path | TeamAddress) -> str:
    if isinstance(library, TeamAddress):
        return f"{library.database} (team library on {library.host})"
    return Path(library).name


def location_text(library: Path | TeamAddress) -> str:
    """The library as messages name it: its folder, or the address without a password."""
    return library.masked if isinstance(library, TeamAddress) else str(library)


def open_desk(library: Path | TeamAddress, _job: Job, on_wait: Notice) -> Desk:
    """Open a library folder or a team library (on the writer). The table is listed
    first; the rest of opening (backup, the index brought up to date, with progress)
    is gui/window/open_upkeep.py's `Desk.maintain`, once the table is painted."""
    if isinstance(library, TeamAddress):
        return Desk.open_team(library, ensure_index=False, on_wait=on_wait)
    # The index's updates leave this process: the GUI thread keeps the GIL.
    return Desk.open(library, on_wait=on_wait, maintain=False, index_apart=True)


def library_folder(library: Path | TeamAddress) -> Path:
    """The library's folder; a team library's holds this machine's state (its index)."""
    return team_state_dir(library) if isinstance(library, TeamAddress) else Path(library)


class TeamWindow(OfflineWindow, Protocol):
    """What a team library needs of the main window (gui/window/main_window.py, which makes
    it): the offline mode's, and opening the library again with a password."""

    address: TeamAddress | None

    def open_library(self) -> None: ...
    def on_open_failed(self, error: BaseException) -> None: ...
    def switch_library(self, library: Path | TeamAddress) -> None: ...


class TeamLibrary:
    def __init__(self, window: TeamWindow) -> None:
        self.window = window
        self.offline = OfflineMode(window)
        self.connect_dialog: QDialog | None = None
        self.password_prompt: QInputDialog | None = None
        self._declined = False

    def can_read(self) -> bool:
        """Whether the window may read the library on the GUI thread: it is open, and
        (a team library) its server answers; connecting to one that went away can
        take seconds to fail."""
        return self.window.desk is not None and not self.window.watch.offline

    def choose_team_library(self) -> None:
        """File > Connect to Team Library…: the app opens a window on the address given."""
        self.connect_dialog = connect_to_team(self.window.window(), self.window.switch_library)

    def ask_password(self, error: BaseException) -> bool:
        """After a failed open: ask for the password the server wants (again, when it
        refused the one given) and open again; False when that is not why the open
        failed, or the user declined to give one (the window then says it failed)."""
        window = self.window
        address = window.address
        if not isinstance(error, PasswordNeeded) or address is None or self._declined:
            return False

        def open_with(password: str) -> None:
            window.address = address.with_password(password)
            window.open_library()

        def declined() -> None:
            self._declined = True
            window.on_open_failed(error)

        window.statusBar().showMessage(str(error))
        refused = address.password is not None
        self.password_prompt = ask_password(window.window(), address, open_with, refused)
        self.password_prompt.rejected.connect(declined)
        return True
