"""A help overlay: every key of a view on a panel over it (`?` opens it, any key closes it)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QColor, QKeyEvent, QPainter, QPalette
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

# (keys, what they do), or a heading as (heading, "").
KeyRows = Sequence[tuple[str, str]]


def keys_html(rows: KeyRows) -> str:
    """The rows as a two-column table: keys on the left, what they do on the right."""
    lines = []
    for keys, meaning in rows:
        if not meaning:
            lines.append(
                f"<tr><td colspan='2' style='padding-top:10px'><b>{html.escape(keys)}</b></td></tr>"
            )
        else:
            lines.append(
                f"<tr><td style='padding-right:18px'><code>{html.escape(keys)}</code></td>"
                f"<td>{html.escape(meaning)}</td></tr>"
            )
    return "<table cellspacing='3'>" + "".join(lines) + "</table>"


class HelpOverlay(QWidget):
    """Covers its parent, dims it, and lists the keys on a panel in the middle."""

    def __init__(self, title: str, rows: KeyRows, parent: QWidget) -> None:
        super().__init__(parent)
        self._covered = parent
        self.setObjectName("helpOverlay")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName("Keys")
        self.panel = QFrame(self)
        self.panel.setObjectName("helpPanel")
        self.panel.setAutoFillBackground(True)
        self.panel.setFrameShape(QFrame.Shape.StyledPanel)
        heading = QLabel(f"<h3>{html.escape(title)}</h3>")
        table = QLabel(keys_html(rows))
        table.setTextFormat(Qt.TextFormat.RichText)
        closing = QLabel("Press any key to close")
        closing.setObjectName("detailMeta")
        column = QVBoxLayout(self.panel)
        column.setContentsMargins(24, 16, 24, 16)
        for widget in (heading, table, closing):
            column.addWidget(widget)
        parent.installEventFilter(self)
        self.hide()

    def open(self) -> None:
        self.setGeometry(self._covered.rect())
        self._place_panel()
        self.show()
        self.raise_()
        self.setFocus(Qt.FocusReason.PopupFocusReason)

    def _place_panel(self) -> None:
        self.panel.adjustSize()
        size = self.panel.sizeHint().boundedTo(self.size())
        self.panel.resize(size)
        self.panel.move((self.width() - size.width()) // 2, (self.height() - size.height()) // 2)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Hidden, it waits for `open`: laying the keys' table out took 80 ms of the GUI
        # thread each time triage was first shown (issue 21 item 6).
        if watched is self._covered and event.type() == QEvent.Type.Resize and self.isVisible():
            self.setGeometry(self._covered.rect())
            self._place_panel()
        return False

    def event(self, event: QEvent) -> bool:
        # Every key closes the overlay and does nothing else, whatever the window binds.
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self.close_overlay()

    def mousePressEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        self.close_overlay()

    def close_overlay(self) -> None:
        self.hide()
        parent = self.parentWidget()
        if parent is not None:
            parent.setFocus(Qt.FocusReason.OtherFocusReason)

    def paintEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        painter = QPainter(self)
        shade = QColor(self.palette().color(QPalette.ColorRole.Shadow))
        shade.setAlpha(110)
        painter.fillRect(self.rect(), shade)
