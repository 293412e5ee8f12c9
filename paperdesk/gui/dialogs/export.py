"""File > Export…: which papers, which format, its options, and a preview of the start.

The dialog only collects choices. Previews are computed by the window off the GUI
thread (a query's scope may search the whole library): the dialog asks with
`preview_wanted` and shows what comes back with `show_preview`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.citekeys import DEFAULT_PATTERN
from paperdesk.core.scope import Scope
from paperdesk.services.use_cases.exporting import BACKUP_FORMAT, EXTENSIONS, Options

FORMAT_LABELS = {
    "bibtex": "BibTeX (.bib)",
    "csv": "CSV spreadsheet (.csv)",
    "markdown": "Markdown reading list (.md)",
    "ris": "RIS (.ris)",
    "jsonl": "JSON Lines (.jsonl)",
    BACKUP_FORMAT: "JSON backup of the whole library (.json)",
}
PREVIEW_DELAY_MS = 150
ONE_RECORD_PER_LINE = ("csv", "jsonl")


class ExportDialog(QDialog):
    """`choices` are (label, scope) pairs, the first one preselected."""

    preview_wanted = Signal(object, str, object)

    def __init__(self, choices: Sequence[tuple[str, Scope]], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Export papers")
        self.scope_box = QComboBox()
        self.scope_box.setAccessibleName("Papers to export")
        for label, scope in choices:
            self.scope_box.addItem(label, scope)
        self.format_box = QComboBox()
        self.format_box.setAccessibleName("Format")
        for name in EXTENSIONS:
            self.format_box.addItem(FORMAT_LABELS.get(name, name), name)
        self.flavour_box = QComboBox()
        self.flavour_box.setAccessibleName("BibTeX flavour")
        self.flavour_box.addItem("bibtex: ASCII, LaTeX escapes (bibtex, pdflatex)", "bibtex")
        self.flavour_box.addItem("biblatex: UTF-8 (biber)", "biblatex")
        self.excel_bom = QCheckBox("Excel-friendly: start the file with a byte-order mark")
        self.key_pattern = QLineEdit()
        self.key_pattern.setPlaceholderText(DEFAULT_PATTERN)
        self.key_pattern.setToolTip(
            "Citation keys for papers without one, e.g. {auth}{year}{title} -> sun2025learning. "
            "A paper keeps its key once it has one."
        )
        self.preview = QPlainTextEdit()
        self.preview.setReadOnly(True)
        self.preview.setAccessibleName("Preview")
        self.preview.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.preview.setPlaceholderText("Preview of the first entries…")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Export…")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        form = QFormLayout()
        form.addRow("Export:", self.scope_box)
        form.addRow("Format:", self.format_box)
        form.addRow("Citation keys:", self.key_pattern)
        form.addRow("Flavour:", self.flavour_box)
        form.addRow("", self.excel_bom)
        self._form = form
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.preview, 1)
        layout.addWidget(buttons)
        self.resize(640, 520)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PREVIEW_DELAY_MS)
        self._timer.timeout.connect(self._ask_preview)
        for box in (self.scope_box, self.format_box):
            box.currentIndexChanged.connect(self._on_choice_changed)
        self.flavour_box.currentIndexChanged.connect(self._timer.start)
        self.excel_bom.toggled.connect(self._timer.start)
        self.key_pattern.textChanged.connect(self._timer.start)
        self._on_choice_changed()

    def chosen_format(self) -> str:
        return str(self.format_box.currentData())

    def chosen_scope(self) -> Scope:
        if self.chosen_format() == BACKUP_FORMAT:
            return Scope()
        return self.scope_box.currentData()

    def chosen_options(self) -> Options:
        options = Options(
            flavour=str(self.flavour_box.currentData()), excel_bom=self.excel_bom.isChecked()
        )
        pattern = self.key_pattern.text().strip()
        return replace(options, key_pattern=pattern) if pattern else options

    def select_format(self, name: str) -> None:
        self.format_box.setCurrentIndex(self.format_box.findData(name))

    def show_preview(self, text: str) -> None:
        self.preview.setPlainText(text)

    def _on_choice_changed(self) -> None:
        chosen = self.chosen_format()
        # A backup always holds the whole library; the other choices do not apply to it.
        self.scope_box.setEnabled(chosen != BACKUP_FORMAT)
        self._form.setRowVisible(self.flavour_box, chosen == "bibtex")
        self._form.setRowVisible(self.excel_bom, chosen == "csv")
        self._form.setRowVisible(self.key_pattern, chosen in ("bibtex", "csv"))
        # One record per line reads best unwrapped; entries spanning lines read best wrapped.
        self.preview.setLineWrapMode(
            QPlainTextEdit.LineWrapMode.NoWrap
            if chosen in ONE_RECORD_PER_LINE
            else QPlainTextEdit.LineWrapMode.WidgetWidth
        )
        self._timer.start()

    def _ask_preview(self) -> None:
        self.preview_wanted.emit(self.chosen_scope(), self.chosen_format(), self.chosen_options())
