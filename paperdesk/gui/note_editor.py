"""A Markdown note editor that saves itself.

Text is saved ~600 ms after the user stops typing, and at once when the editor loses
focus, when another paper is shown and when the window closes (`flush`). So at most the
last fraction of a second of typing is at risk in a crash, and nothing on a normal close.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QTextDocument
from PySide6.QtWidgets import QPlainTextEdit, QTabWidget, QTextBrowser, QWidget

SAVE_DELAY_MS = 600


class NoteEditor(QTabWidget):
    """`save_requested(paper_id, text)` fires when the note of that paper must be stored."""

    save_requested = Signal(int, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDocumentMode(True)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("noteEditor")
        self.editor.setPlaceholderText("Notes (Markdown) — saved as you type")
        self.editor.setAccessibleName("Note")
        self.editor.setTabChangesFocus(True)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.preview = QTextBrowser()
        self.preview.setOpenExternalLinks(True)
        self.preview.setAccessibleName("Note preview")
        self.addTab(self.editor, "Note")
        self.addTab(self.preview, "Preview")
        self.currentChanged.connect(self._on_tab_changed)

        self._paper_id: int | None = None
        # What the store holds for this paper as far as we know; None after a failed save.
        self._saved_text: str | None = ""
        self._loading = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SAVE_DELAY_MS)
        self._timer.timeout.connect(self.flush)
        self.editor.textChanged.connect(self._on_text_changed)
        self.editor.installEventFilter(self)

    def paper_id(self) -> int | None:
        return self._paper_id

    def text(self) -> str:
        return self.editor.toPlainText()

    def is_dirty(self) -> bool:
        return self._paper_id is not None and self.text() != self._saved_text

    def show_note(self, paper_id: int | None, text: str) -> None:
        """Show another paper's note, saving the current one first if it changed."""
        if paper_id != self._paper_id:
            self.flush()
        elif self.is_dirty():
            # The stored note of this paper changed while the user is typing in it:
            # the user's text wins; it is saved on the next flush.
            return
        self._paper_id = paper_id
        self._saved_text = text
        self._loading = True
        try:
            if self.editor.toPlainText() != text:
                self.editor.setPlainText(text)
        finally:
            self._loading = False
        self.editor.setEnabled(paper_id is not None)
        if self.currentWidget() is self.preview:
            self._render_preview()

    def flush(self) -> None:
        """Save now if the text differs from what was last saved or loaded."""
        self._timer.stop()
        if self.is_dirty():
            assert self._paper_id is not None
            text = self.text()
            self._saved_text = text
            self.save_requested.emit(self._paper_id, text)

    def save_failed(self, paper_id: int) -> None:
        """The store refused a save: keep the text marked unsaved so the next flush retries."""
        if paper_id == self._paper_id:
            self._saved_text = None

    def _on_text_changed(self) -> None:
        if not self._loading and self._paper_id is not None:
            self._timer.start()

    def _on_tab_changed(self) -> None:
        if self.currentWidget() is self.preview:
            self.flush()
            self._render_preview()

    def _render_preview(self) -> None:
        # MarkdownNoHTML: raw HTML in a note is shown as text, never interpreted.
        self.preview.document().setMarkdown(
            self.text(), QTextDocument.MarkdownFeature.MarkdownNoHTML
        )

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.editor and event.type() == QEvent.Type.FocusOut:
            self.flush()
        return super().eventFilter(watched, event)
