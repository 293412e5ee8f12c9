"""The parts of the main window that the user's actions read from and report to."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QStatusBar, QWidget

from paperdesk.gui.dialogs.questions import Asker
from paperdesk.gui.widgets.job_progress import JobProgress
from paperdesk.gui.window.detail_pane import DetailPane
from paperdesk.gui.window.paper_table import PaperTable
from paperdesk.gui.window.search_bar import SearchBar
from paperdesk.gui.window.sidebar import Sidebar


@dataclass
class Panes:
    """What an action is about (the table's selection, the sidebar's scope, the search
    text, the note being typed), where it asks the user (`ask`) and where it answers
    (the status bar, the progress bar). The window builds one; `Commands` and
    `Transfers` share it."""

    window: QWidget
    status_bar: QStatusBar
    progress: JobProgress
    table: PaperTable
    sidebar: Sidebar
    search_bar: SearchBar
    detail: DetailPane
    ask: Asker

    def tell(self, message: str, milliseconds: int) -> None:
        self.status_bar.showMessage(message, milliseconds)

    def selection_or_warn(self) -> list[int]:
        ids = self.table.selected_ids()
        if not ids:
            self.tell("Select one or more papers first.", 3000)
        return ids
