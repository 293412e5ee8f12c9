"""The paper's fields as a form, edited in place in the detail pane (issue 24).

The rows come from the field table (core/fields.py EDITABLE_FIELDS): each shows the
field as `format` gives it, and a changed row is handed on as typed, to be read and
checked by the same table in the service, so the pane and `paperdesk edit` agree.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import QFormLayout, QLineEdit, QPlainTextEdit, QWidget

from paperdesk.core.fields import EDITABLE_FIELDS, EditableField
from paperdesk.core.models import Paper

#: The title has its own editor at the top of the pane.
FORM_FIELDS = tuple(field for field in EDITABLE_FIELDS if field.name != "title")


class FieldForm(QWidget):
    """`edited(field name, text)` fires when a row is left changed (Enter, Tab, a click
    elsewhere). A list (the authors) shows one item per line."""

    edited = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fieldForm")
        layout = QFormLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.editors: dict[str, QLineEdit | QPlainTextEdit] = {}
        self._shown: dict[str, str] = {}
        for field in FORM_FIELDS:
            editor = self._editor_for(field)
            editor.setAccessibleName(field.label)
            editor.installEventFilter(self)
            self.editors[field.name] = editor
            layout.addRow(field.label, editor)

    def _editor_for(self, field: EditableField) -> QLineEdit | QPlainTextEdit:
        if field.multiline:
            box = QPlainTextEdit()
            box.setPlaceholderText("One per line, or Last, First; Last, First")
            box.setTabChangesFocus(True)
            box.setFixedHeight(box.fontMetrics().lineSpacing() * 4 + 12)
            return box
        line = QLineEdit()
        line.editingFinished.connect(lambda: self._commit(field.name))
        return line

    def show_paper(self, paper: Paper) -> None:
        for field in FORM_FIELDS:
            text = field.format(paper)
            if field.multiline:
                text = text.replace("; ", "\n")
            self._shown[field.name] = text
            editor = self.editors[field.name]
            if isinstance(editor, QLineEdit):
                editor.setText(text)
            else:
                editor.setPlainText(text)

    def text_of(self, name: str) -> str:
        editor = self.editors[name]
        return editor.text() if isinstance(editor, QLineEdit) else editor.toPlainText()

    def _commit(self, name: str) -> None:
        text = self.text_of(name)
        if text.strip() != self._shown.get(name, "").strip():
            self._shown[name] = text
            self.edited.emit(name, text)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # A line commits on editingFinished; a box of lines when it loses the focus.
        if event.type() == QEvent.Type.FocusOut and isinstance(watched, QPlainTextEdit):
            name = next(n for n, editor in self.editors.items() if editor is watched)
            self._commit(name)
        return super().eventFilter(watched, event)
