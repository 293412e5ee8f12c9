"""The search field: debounced queries, "N of M papers", inline errors, "did you mean"."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QStyle,
    QStyleOptionFrame,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from paperdesk.gui.resources import icon
from paperdesk.services.use_cases.searching import SYNTAX_HELP

TYPING_DELAY_MS = 250
#: The field's placeholder, longest first: the longest the field shows whole is used
#: (at font size 16 in a 1400×900 window the first is cut).
PLACEHOLDERS = (
    "Search  (e.g.  transformer tag:rnn year:2024..2025)",
    "Search  (e.g.  transformer tag:rnn)",
    "Search",
)
#: The room QLineEdit keeps between its text and its contents' edges, each side.
_LINE_EDIT_MARGIN = 2
_COLUMNS = re.compile(r"^(.*\S)\s{3,}(\S.*)$")


def cheat_sheet_html() -> str:
    """The search layer's own cheat sheet (it owns the grammar) as a two-column table."""
    rows = []
    for line in SYNTAX_HELP.splitlines():
        # Columns are aligned with 3+ spaces; examples themselves may hold two.
        match = _COLUMNS.match(line)
        example, meaning = match.groups() if match else (line, "")
        rows.append(
            f"<tr><td><code>{html.escape(example).replace('  ', '&nbsp; ')}</code></td>"
            f"<td>{html.escape(meaning)}</td></tr>"
        )
    return (
        "<b>Search syntax</b>"
        f"<table cellspacing='0' cellpadding='3'>{''.join(rows)}</table>"
        "<p>Results update as you type.</p>"
    )


class CheatSheetPopup(QFrame):
    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("cheatSheet")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        label = QLabel(cheat_sheet_html())
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(label)


class SearchBar(QWidget):
    """Emits `query_changed` once typing pauses (or at once on Enter).

    The window runs the search off the GUI thread and reports back with `show_result`
    or `show_error`; the bar never searches by itself. Enter or Down asks to move into
    the results (`results_wanted`), the first one selected: `waiting` says whether a
    search for the text typed is still to come.
    """

    query_changed = Signal(str)
    save_requested = Signal(str)
    results_wanted = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.field = QLineEdit()
        self.field.setObjectName("searchField")
        self.field.setPlaceholderText(PLACEHOLDERS[0])
        self.field.setAccessibleName("Search")
        self.field.setClearButtonEnabled(True)
        self.field.addAction(icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        self.count_label = QLabel()
        self.count_label.setObjectName("searchCount")
        self.help_button = QToolButton()
        self.help_button.setIcon(icon("cheat-sheet"))
        self.help_button.setToolTip("Search syntax")
        self.help_button.setAccessibleName("Search syntax")
        self.help_button.clicked.connect(self.show_cheat_sheet)
        self.save_button = QToolButton()
        self.save_button.setIcon(icon("saved-search"))
        self.save_button.setToolTip("Save this search to the sidebar")
        self.save_button.setAccessibleName("Save search")
        self.save_button.setEnabled(False)
        self.save_button.clicked.connect(lambda: self.save_requested.emit(self.text()))

        self.message = QLabel()
        self.message.setObjectName("searchMessage")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.RichText)
        self.message.linkActivated.connect(self._accept_suggestion)
        self.message.hide()

        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.field, 1)
        row.addWidget(self.count_label)
        row.addWidget(self.help_button)
        row.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.message)

        self.cheat_sheet: CheatSheetPopup | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(TYPING_DELAY_MS)
        self._timer.timeout.connect(self._emit_query)
        self.field.textEdited.connect(self._on_edited)
        self.field.textChanged.connect(self._on_text_changed)
        self.field.returnPressed.connect(self._on_return)
        self.field.installEventFilter(self)

    def text(self) -> str:
        return self.field.text().strip()

    def set_text(self, text: str) -> None:
        """Set the query from code (a saved search, a suggestion) and search at once."""
        self.field.setText(text)
        self._emit_query()

    def focus(self) -> None:
        self.field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.field.selectAll()

    def _on_edited(self) -> None:
        self._timer.start()

    def _on_text_changed(self, text: str) -> None:
        self.save_button.setEnabled(bool(text.strip()))
        if not text:
            # The clear button: show everything again without waiting.
            self._emit_query()

    def _emit_query(self) -> None:
        self._timer.stop()
        self.query_changed.emit(self.text())

    def _on_return(self) -> None:
        self._emit_query()
        self.results_wanted.emit(True)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.field and event.type() in (QEvent.Type.Resize, QEvent.Type.FontChange):
            self._fit_placeholder()
        if (
            watched is self.field
            and isinstance(event, QKeyEvent)
            and event.type() == QEvent.Type.KeyPress
            and event.key() == Qt.Key.Key_Down
        ):
            waiting = self._timer.isActive()
            if waiting:
                self._emit_query()
            self.results_wanted.emit(waiting)
            return True
        return super().eventFilter(watched, event)

    def _fit_placeholder(self) -> None:
        """Show the longest placeholder the field has room for, never a cut one."""
        field = self.field
        option = QStyleOptionFrame()
        field.initStyleOption(option)
        contents = field.style().subElementRect(
            QStyle.SubElement.SE_LineEditContents, option, field
        )
        margins = field.textMargins()
        # The search icon and the clear button are drawn inside the field.
        buttons = sum(
            button.width()
            for button in field.findChildren(QToolButton)
            if button.isVisibleTo(field)
        )
        room = contents.width() - margins.left() - margins.right() - buttons - 2 * _LINE_EDIT_MARGIN
        metrics = field.fontMetrics()
        fitting = (text for text in PLACEHOLDERS if metrics.horizontalAdvance(text) <= room)
        field.setPlaceholderText(next(fitting, PLACEHOLDERS[-1]))

    def show_result(
        self, shown: int, total: int, suggestion: str | None = None, index_behind: int = 0
    ) -> None:
        """`index_behind`: papers a bulk change left to re-index (the search may miss them)."""
        noun = "paper" if total == 1 else "papers"
        self.count_label.setText(f"{shown:,} of {total:,} {noun}")
        self.field.setProperty("invalid", False)
        self.message.setProperty("suggestion", None)
        if index_behind and self.text():
            self.message.setText(
                f"The search index is catching up with {index_behind:,} changed papers: "
                "this search may miss some of them for a moment."
            )
            self.message.setProperty("kind", "hint")
            self.message.show()
        elif shown == 0 and suggestion:
            self.message.setText(
                f"No papers match. Did you mean <a href='suggest'>{html.escape(suggestion)}</a>?"
            )
            self.message.setProperty("suggestion", suggestion)
            self.message.setProperty("kind", "hint")
            self.message.show()
        else:
            self.message.hide()
        self._restyle()

    def show_error(self, message: str) -> None:
        """A query the parser rejects: say why, keep the table as it was."""
        self.field.setProperty("invalid", True)
        self.message.setText(html.escape(message))
        self.message.setProperty("kind", "error")
        self.message.show()
        self._restyle()

    def _restyle(self) -> None:
        # Dynamic properties drive the style sheet; Qt re-reads them only on polish.
        for widget in (self.field, self.message):
            widget.style().unpolish(widget)
            widget.style().polish(widget)

    def _accept_suggestion(self) -> None:
        suggestion = self.message.property("suggestion")
        if suggestion:
            self.set_text(str(suggestion))

    def show_cheat_sheet(self) -> None:
        if self.cheat_sheet is None:
            self.cheat_sheet = CheatSheetPopup(self)
        popup = self.cheat_sheet
        popup.adjustSize()
        below = self.help_button.mapToGlobal(QPoint(0, self.help_button.height()))
        popup.move(below - QPoint(popup.width() - self.help_button.width(), 0))
        popup.show()
