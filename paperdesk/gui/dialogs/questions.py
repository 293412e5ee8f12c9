"""Dialogs and questions: names, choices, colours, import reports, the demo offer, errors.

Questions go through `Asker`, so the window's flows are testable: a test swaps in an
object with the same methods that answers from a script instead of opening a dialog.
Dialogs that only inform are opened window-modal with `open()`, never `exec()`, so
nothing (a test, the screenshot command) ever blocks on them.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths, Qt
from PySide6.QtGui import QColor, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QColorDialog,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMenu,
    QMenuBar,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.errors import PaperdeskError
from paperdesk.formats.registry import EXTENSIONS
from paperdesk.services.use_cases.importing import ImportReport

log = logging.getLogger(__name__)

EXPORT_FOLDER_KEY = "export/last-folder"
IMPORT_FOLDER_KEY = "import/last-folder"
CONFIRM_DELETE_KEY = "preferences/confirm-delete"


class Asker:
    """Asks the user; every method returns None (or nothing) when the user cancels.

    `settings` keep what the answers teach: the folder exports went to last, whether
    the user wants to be asked before papers are deleted.
    """

    def __init__(self, parent: QWidget, settings: QSettings) -> None:
        self._parent = parent
        self._settings = settings

    def text(self, title: str, label: str, initial: str = "") -> str | None:
        value, ok = QInputDialog.getText(self._parent, title, label, text=initial)
        return value.strip() if ok and value.strip() else None

    def identifiers(self) -> str | None:
        """DOIs, arXiv or OpenReview ids or paper URLs, typed or pasted, one or many."""
        value, ok = QInputDialog.getMultiLineText(
            self._parent,
            "Add by Identifier",
            "DOIs, arXiv ids, OpenReview ids or paper URLs (PMLR, ACL Anthology, arXiv,\n"
            "OpenReview, doi.org), one per line or separated by spaces:",
        )
        return value.strip() if ok and value.strip() else None

    def choice(self, title: str, label: str, items: Sequence[str], editable: bool) -> str | None:
        value, ok = QInputDialog.getItem(self._parent, title, label, list(items), 0, editable)
        return value.strip() if ok and value.strip() else None

    def colour(self, title: str, initial: str | None) -> str | None:
        chosen = QColorDialog.getColor(QColor(initial or "#3d6fd6"), self._parent, title)
        return chosen.name() if chosen.isValid() else None

    def save_path(self, title: str, suggested: str, file_filter: str) -> Path | None:
        """A file to write, starting in the folder used last (else Documents).

        The dialog asks the usual question when the file exists; saying yes there is
        the user's consent to replace it.
        """
        start = str(self.export_folder() / suggested)
        name, _ = QFileDialog.getSaveFileName(
            self._parent, title, start, f"{file_filter};;All files (*)"
        )
        if not name:
            return None
        self._settings.setValue(EXPORT_FOLDER_KEY, str(Path(name).parent))
        return Path(name)

    def export_folder(self) -> Path:
        return self._last_folder(EXPORT_FOLDER_KEY)

    def import_folder(self) -> Path:
        return self._last_folder(IMPORT_FOLDER_KEY)

    def _last_folder(self, key: str) -> Path:
        """The folder remembered under `key` while it exists, else Documents (else home):
        never the process's working folder, which means nothing to a desktop user."""
        last = str(self._settings.value(key, "", type=str))
        if last and Path(last).is_dir():
            return Path(last)
        documents = QStandardPaths.writableLocation(
            QStandardPaths.StandardLocation.DocumentsLocation
        )
        return Path(documents) if documents and Path(documents).is_dir() else Path.home()

    def confirm_delete(self, count: int) -> bool:
        """Whether to delete `count` papers; asked unless the user turned the question off."""
        if not bool(self._settings.value(CONFIRM_DELETE_KEY, True, type=bool)):
            return True
        noun = "this paper" if count == 1 else f"these {count:,} papers"
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Delete papers",
            f"Delete {noun} from the library?",
            QMessageBox.StandardButton.Cancel,
            self._parent,
        )
        box.setInformativeText(
            "Their tags, notes and places in shortlists go with them. "
            "Edit > Undo brings everything back."
        )
        delete = box.addButton("Delete", QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        dont_ask = QCheckBox("Do not ask again")
        box.setCheckBox(dont_ask)
        box.exec()
        if box.clickedButton() is not delete:
            return False
        if dont_ask.isChecked():
            self._settings.setValue(CONFIRM_DELETE_KEY, False)
        return True

    def confirm_delete_label(self, kind: str, name: str, count: int) -> bool:
        """Whether to delete the tag or shortlist `name` that `count` papers are in."""
        carried = {"tag": "carry it", "shortlist": "are in it"}[kind]
        papers = "No paper" if count == 0 else "1 paper" if count == 1 else f"{count:,} papers"
        box = QMessageBox(
            QMessageBox.Icon.Question,
            f"Delete {kind}",
            f"Delete the {kind} {name}?",
            QMessageBox.StandardButton.Cancel,
            self._parent,
        )
        box.setInformativeText(
            f"{papers} {carried}; the papers stay in the library. Edit > Undo brings it back."
        )
        delete = box.addButton("Delete", QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is delete

    def import_anyway(self, file_name: str, doubt: str) -> bool:
        """Whether to import a file that may not be what it seems (services/importing)."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Import this file?",
            f"{file_name} may not be a list of abstracts: {doubt}.",
            QMessageBox.StandardButton.Cancel,
            self._parent,
        )
        box.setInformativeText("Import it anyway? Edit > Undo takes an import back.")
        anyway = box.addButton("Import Anyway", QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is anyway

    def library_folder(self, start: Path) -> Path | None:
        """A library folder to open; an empty folder starts a new library."""
        folder = QFileDialog.getExistingDirectory(
            self._parent,
            "Open a library folder (an empty folder starts a new library)",
            str(start),
            QFileDialog.Option.ShowDirsOnly,
        )
        return Path(folder) if folder else None

    def open_path(self, title: str, file_filter: str) -> Path | None:
        """One file to read, starting in the folder imports came from last."""
        name, _ = QFileDialog.getOpenFileName(
            self._parent, title, str(self.import_folder()), f"{file_filter};;All files (*)"
        )
        if not name:
            return None
        self._settings.setValue(IMPORT_FOLDER_KEY, str(Path(name).parent))
        return Path(name)

    def import_paths(self) -> list[Path]:
        patterns = " ".join(f"*{extension}" for extension in sorted(EXTENSIONS))
        names, _ = QFileDialog.getOpenFileNames(
            self._parent,
            "Import papers",
            str(self.import_folder()),
            f"Paper lists ({patterns});;All files (*)",
        )
        if names:
            self._settings.setValue(IMPORT_FOLDER_KEY, str(Path(names[0]).parent))
        return [Path(name) for name in names]


class ErrorReporter:
    """User errors get a message box; unexpected ones are logged and shown once each.

    `shown` keeps every message put on screen, newest last, for tests and for the log.
    """

    def __init__(self, parent: QWidget) -> None:
        self._parent = parent
        self._seen_unexpected: set[tuple[str, str]] = set()
        self.shown: list[str] = []

    def report(self, action: str, error: BaseException) -> None:
        if isinstance(error, PaperdeskError):
            self._show(QMessageBox.Icon.Warning, f"{action} failed", str(error))
            return
        log.error("unexpected error during %s", action, exc_info=error)
        key = (type(error).__name__, str(error))
        if key in self._seen_unexpected:
            return
        self._seen_unexpected.add(key)
        self._show(
            QMessageBox.Icon.Critical,
            "Something went wrong",
            f"{action} failed unexpectedly: {type(error).__name__}: {error}\n\n"
            "The details are in the log. Your library is unchanged by the failed action, "
            "and you can keep working.",
        )

    def _show(self, icon: QMessageBox.Icon, title: str, text: str) -> None:
        self.shown.append(text)
        box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, self._parent)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()


class ImportReportDialog(QDialog):
    """What an import did, file by file: added, merged, already present, skipped and why."""

    def __init__(self, report: ImportReport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import finished")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.report = report
        layout = QVBoxLayout(self)
        headline = QLabel(self.headline())
        headline.setObjectName("importHeadline")
        headline.setWordWrap(True)
        layout.addWidget(headline)
        details = QTextBrowser()
        details.setHtml(self.details_html())
        layout.addWidget(details)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)
        self.resize(560, 360)

    def headline(self) -> str:
        files = len(self.report.files)
        noun = "file" if files == 1 else "files"
        added = self.report.added
        return f"{added:,} {'paper' if added == 1 else 'papers'} added from {files} {noun}."

    def details_html(self) -> str:
        parts = []
        for file in self.report.files:
            parts.append(f"<p>{html.escape(file.summary())}</p>")
            # Every entry that was skipped, merged into a paper or imported with a
            # warning, each with its file:line (the first 50 of a file).
            details = file.details()
            if details:
                shown = details[:50]
                items = "".join(f"<li>{html.escape(detail)}</li>" for detail in shown)
                parts.append(f"<ul>{items}</ul>")
                if more := len(details) - len(shown):
                    parts.append(f"<p>…and {more} more.</p>")
        return "".join(parts)


class DemoOfferDialog(QMessageBox):
    """Offered once on an empty library: load the bundled ICML 2025 lists to try things."""

    def __init__(self, seed_count: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Your library is empty")
        self.setIcon(QMessageBox.Icon.Question)
        self.setText("Your library is empty. Load the demo papers?")
        self.setInformativeText(
            f"Paperdesk comes with {seed_count} lists of ICML 2025 abstracts to try it on. "
            "You can import your own lists any time with File > Import or by dropping "
            "files on the window."
        )
        self.load_button = self.addButton("Load demo papers", QMessageBox.ButtonRole.AcceptRole)
        self.addButton("Start empty", QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.load_button)


def menu_shortcuts(menu_bar: QMenuBar) -> list[tuple[str, str, str]]:
    """(menu, action, keys) for every action with a shortcut, walking the menus.

    An action whose text changes (Undo <what>) gives its fixed name as its `data()`.
    """
    native = QKeySequence.SequenceFormat.NativeText
    rows: list[tuple[str, str, str]] = []

    def walk(menu: QMenu, path: list[str]) -> None:
        for action in menu.actions():
            if isinstance(submenu := action.menu(), QMenu):
                walk(submenu, [*path, submenu.title().replace("&", "")])
            elif not action.shortcut().isEmpty():
                keys = ", ".join(keys.toString(native) for keys in action.shortcuts())
                name = action.data() or action.text().replace("&", "")
                rows.append((" › ".join(path), name, keys))

    for action in menu_bar.actions():
        if isinstance(menu := action.menu(), QMenu):
            walk(menu, [action.text().replace("&", "")])
    return rows


class ShortcutsDialog(QDialog):
    """Help > Keyboard shortcuts: read from the menus themselves, so it cannot drift."""

    def __init__(
        self,
        menu_bar: QMenuBar,
        extra: Sequence[tuple[str, str, str]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        rows = [*menu_shortcuts(menu_bar), *extra]
        self.table = QTableWidget(len(rows), 3)
        self.table.setHorizontalHeaderLabels(["Where", "Action", "Keys"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        for row, values in enumerate(rows):
            for column, value in enumerate(values):
                self.table.setItem(row, column, QTableWidgetItem(value))
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(560, 600)

    def rows(self) -> list[tuple[str, str, str]]:
        def text(row: int, column: int) -> str:
            item = self.table.item(row, column)
            return item.text() if item is not None else ""

        return [(text(row, 0), text(row, 1), text(row, 2)) for row in range(self.table.rowCount())]
