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

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor, QKeySequence
from PySide6.QtWidgets import (
    QColorDialog,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.errors import PaperdeskError
from paperdesk.services.importing import ImportReport

log = logging.getLogger(__name__)


class Asker:
    """Asks the user; every method returns None (or False) when the user cancels."""

    def __init__(self, parent: QWidget) -> None:
        self._parent = parent

    def text(self, title: str, label: str, initial: str = "") -> str | None:
        value, ok = QInputDialog.getText(self._parent, title, label, text=initial)
        return value.strip() if ok and value.strip() else None

    def choice(self, title: str, label: str, items: Sequence[str], editable: bool) -> str | None:
        value, ok = QInputDialog.getItem(self._parent, title, label, list(items), 0, editable)
        return value.strip() if ok and value.strip() else None

    def colour(self, title: str, initial: str | None) -> str | None:
        chosen = QColorDialog.getColor(QColor(initial or "#3d6fd6"), self._parent, title)
        return chosen.name() if chosen.isValid() else None

    def confirm(self, title: str, text: str) -> bool:
        answer = QMessageBox.question(self._parent, title, text)
        return answer == QMessageBox.StandardButton.Yes

    def import_paths(self) -> list[Path]:
        names, _ = QFileDialog.getOpenFileNames(
            self._parent,
            "Import papers",
            "",
            "Paper lists (*.txt *.bib *.bibtex *.ris *.csv *.json *.jsonl *.md);;All files (*)",
        )
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
            parts.append(f"<p><b>{html.escape(Path(file.file).name)}</b><br>")
            parts.append(html.escape(file.summary()))
            if file.problems:
                shown = file.problems[:50]
                items = "".join(f"<li>{html.escape(problem)}</li>" for problem in shown)
                more = len(file.problems) - len(shown)
                parts.append(f"<ul>{items}</ul>")
                if more:
                    parts.append(f"…and {more} more skipped entries.")
            parts.append("</p>")
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


class ShortcutsDialog(QDialog):
    """Help > Keyboard shortcuts: read from the actions themselves, so it cannot drift."""

    def __init__(
        self,
        actions: Sequence[QAction],
        extra: Sequence[tuple[str, str]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        rows = [
            (
                action.text().replace("&", ""),
                action.shortcut().toString(QKeySequence.SequenceFormat.NativeText),
            )
            for action in actions
            if not action.shortcut().isEmpty()
        ]
        rows.extend(extra)
        self.table = QTableWidget(len(rows), 2)
        self.table.setHorizontalHeaderLabels(["Action", "Keys"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (name, keys) in enumerate(rows):
            self.table.setItem(row, 0, QTableWidgetItem(name))
            self.table.setItem(row, 1, QTableWidgetItem(keys))
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(520, 560)

    def rows(self) -> list[tuple[str, str]]:
        return [
            (self.table.item(row, 0).text(), self.table.item(row, 1).text())
            for row in range(self.table.rowCount())
        ]
