"""What the window says about the library itself: read-only, or damaged with a backup.

`ReadOnlyBanner` sits above the table while the library can only be read.
`offer_restore` asks whether to restore the latest backup of a damaged or missing
database (window-modal, never blocking), and calls back when the user says yes;
`restore_backup` then puts that backup in place.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QLabel, QMessageBox, QWidget

from paperdesk.core.errors import DamagedLibraryError
from paperdesk.gui.tasks import Job, TaskRunner
from paperdesk.gui.widgets.job_progress import JobProgress
from paperdesk.gui.window.library_watch import LibraryWatch
from paperdesk.services.use_cases import database_backups

READ_ONLY_TEXT = (
    "This library is read-only (its folder or disk cannot be written): you can read, "
    "search and export, but not change it."
)


class ReadOnlyBanner(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(READ_ONLY_TEXT, parent)
        self.setObjectName("readOnlyBanner")
        self.setWordWrap(True)
        self.setStyleSheet(
            "QLabel#readOnlyBanner { background: #fff4ce; color: #4a3b00; "
            "border: 1px solid #e0c864; border-radius: 4px; padding: 6px; }"
        )
        self.hide()


def offer_restore(
    parent: QWidget, error: DamagedLibraryError, restore: Callable[[Path], None]
) -> QMessageBox | None:
    """Ask to restore `error.latest_backup`; None (nothing asked) when there is none."""
    backup = error.latest_backup
    if backup is None:
        return None
    box = QMessageBox(
        QMessageBox.Icon.Warning,
        "The library cannot be opened",
        f"{error}\n\nRestore the latest backup, {backup.name}? The damaged database is "
        "kept beside it, not deleted.",
        QMessageBox.StandardButton.NoButton,
        parent,
    )
    restore_button = box.addButton("Restore backup", QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)

    def answered() -> None:
        if box.clickedButton() is restore_button:
            restore(backup)

    box.finished.connect(answered)
    box.open()
    return box


class RestoringWindow(Protocol):
    """What a restore needs of the main window (gui/window/main_window.py, which calls it)."""

    @property
    def library_dir(self) -> Path: ...
    @property
    def progress(self) -> JobProgress: ...
    @property
    def watch(self) -> LibraryWatch: ...
    @property
    def runner(self) -> TaskRunner: ...


def restore_backup(
    window: RestoringWindow,
    backup: Path,
    on_done: Callable[[], None],
    on_error: Callable[[BaseException], None],
) -> None:
    """Put `backup` in place of the window's library database (on the writer), with
    progress; `on_done` then opens the library."""
    window.progress.start("Restoring the backup…", cancellable=False)
    folder = window.library_dir

    def restore_it(job: Job) -> database_backups.Restored:
        return database_backups.restore_database(
            folder,
            backup,
            progress=lambda done, total: job.report_progress(done, total, "Indexing papers"),
            on_wait=window.watch.waiting.emit,
        )

    window.runner.write(
        "Restore the library",
        restore_it,
        on_done=lambda _restored: on_done(),
        on_error=on_error,
        on_progress=window.progress.update_progress,
    )
