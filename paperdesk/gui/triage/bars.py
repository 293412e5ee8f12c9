"""The small bars the triage view opens under the abstract: quick tag, note, highlight,
and the reason of a discard.

Each takes the keyboard while it is open, says which keys it answers, and reports the
user's answer with `submitted` (or `cancelled` on Esc); the view then acts and hands the
keyboard back to the paper. The highlight bar is also the detail pane's way to mark a
passage, so both annotate alike.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QCompleter,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.triage import ANNOTATION_COLOURS
from paperdesk.gui.widgets.tag_chips import split_tag_input

QUOTE_PREVIEW_CHARS = 90


class KeyCatcher(QObject):
    """Answers some keys of one input itself, before any shortcut of the window can:
    Esc, Ctrl+Enter, Ctrl+digit mean something else elsewhere (the window rates papers
    with digits), and an ambiguous key would do nothing at all."""

    def __init__(self, target: QWidget, keys: dict[tuple[int, int], Callable[[], None]]) -> None:
        super().__init__(target)
        self._keys = keys
        target.installEventFilter(self)

    def _action(self, event: QEvent) -> Callable[[], None] | None:
        if not isinstance(event, QKeyEvent):
            return None
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        return self._keys.get((event.key(), modifiers.value))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and self._action(event) is not None:
            event.accept()
            return True
        if event.type() == QEvent.Type.KeyPress:
            action = self._action(event)
            if action is not None:
                action()
                return True
        return False


CTRL = Qt.KeyboardModifier.ControlModifier.value
PLAIN = Qt.KeyboardModifier.NoModifier.value


class Bar(QFrame):
    """A bar with a title, its input, and a line naming its keys; Esc cancels it."""

    cancelled = Signal()

    def __init__(self, title: str, keys: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("triageBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel(title)
        self.title.setObjectName("sectionLabel")
        self.keys = QLabel(keys)
        self.keys.setObjectName("detailMeta")
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(10, 8, 10, 8)
        self.column.addWidget(self.title)

    def finish_layout(
        self, target: QWidget, keys: dict[tuple[int, int], Callable[[], None]]
    ) -> None:
        """Add the keys line; `target` answers Esc (cancel) and the bar's own `keys`."""
        self.column.addWidget(self.keys)
        KeyCatcher(target, {(Qt.Key.Key_Escape.value, PLAIN): self.cancelled.emit, **keys})


class TagBar(Bar):
    """`T`: type tags (commas between several), completed from the library's tags."""

    submitted = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "Tag this paper", "Enter adds · commas separate tags · Esc cancels", parent
        )
        self._known = QStringListModel(self)
        self.input = QLineEdit()
        self.input.setAccessibleName("Tags to add")
        self.input.setPlaceholderText("tag, another/tag")
        completer = QCompleter(self._known, self.input)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.input.setCompleter(completer)
        self.input.returnPressed.connect(self._submit)
        self.column.addWidget(self.input)
        self.finish_layout(self.input, {})

    def open(self, known: list[str]) -> None:
        self._known.setStringList(sorted(known, key=str.casefold))
        self.input.clear()
        self.show()
        self.input.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _submit(self) -> None:
        names = split_tag_input(self.input.text())
        if names:
            self.submitted.emit(names)
        else:
            self.cancelled.emit()


class NoteBar(Bar):
    """`N`: the paper's Markdown note, edited in place; Ctrl+Enter saves it."""

    submitted = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Note", "Ctrl+Enter saves · Esc cancels", parent)
        self.editor = QPlainTextEdit()
        self.editor.setAccessibleName("Note")
        self.editor.setPlaceholderText("Your note on this paper (Markdown)")
        self.editor.setTabChangesFocus(True)
        self.editor.setFixedHeight(110)
        self.column.addWidget(self.editor)

        def save() -> None:
            self.submitted.emit(self.editor.toPlainText())

        self.finish_layout(
            self.editor,
            {(Qt.Key.Key_Return.value, CTRL): save, (Qt.Key.Key_Enter.value, CTRL): save},
        )

    def open(self, note: str) -> None:
        self.editor.setPlainText(note)
        self.show()
        self.editor.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.editor.moveCursor(self.editor.textCursor().MoveOperation.End)


class HighlightBar(Bar):
    """`H`: the selected passage, a colour (Ctrl+1–5 or Up/Down) and an optional comment."""

    submitted = Signal(str, str)  # colour, comment

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "Highlight",
            "Enter saves · Ctrl+1–5 or ↑/↓ choose the colour · Esc cancels",
            parent,
        )
        self.quote = QLabel()
        self.quote.setWordWrap(True)
        self.quote.setTextFormat(Qt.TextFormat.PlainText)
        self.column.addWidget(self.quote)
        self.comment = QLineEdit()
        self.comment.setAccessibleName("Comment")
        self.comment.setPlaceholderText("Comment (optional)")
        self.comment.returnPressed.connect(self._submit)
        row = QHBoxLayout()
        self.colours = QButtonGroup(self)
        self.colours.setExclusive(True)
        for number, (name, colour) in enumerate(ANNOTATION_COLOURS.items(), start=1):
            button = QToolButton()
            button.setCheckable(True)
            button.setToolTip(f"{name.capitalize()} (Ctrl+{number})")
            button.setAccessibleName(f"Colour {name}")
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setFixedSize(24, 24)
            border = QColor(colour).darker(140).name()
            button.setStyleSheet(
                f"QToolButton {{ background: {colour}; border: 1px solid {border};"
                " border-radius: 4px; }"
                "QToolButton:checked { border: 3px solid palette(highlight); }"
            )
            self.colours.addButton(button, number - 1)
            button.clicked.connect(self.comment.setFocus)
            row.addWidget(button)
        row.addWidget(self.comment, 1)
        self.column.addLayout(row)
        keys: dict[tuple[int, int], Callable[[], None]] = {
            (Qt.Key.Key_Up.value, PLAIN): lambda: self.choose(self.chosen_index() - 1),
            (Qt.Key.Key_Down.value, PLAIN): lambda: self.choose(self.chosen_index() + 1),
        }
        for index in range(len(ANNOTATION_COLOURS)):
            key = Qt.Key.Key_1.value + index
            keys[(key, CTRL)] = partial(self.choose, index)
        self.finish_layout(self.comment, keys)
        self.choose(0)

    def chosen_index(self) -> int:
        return max(self.colours.checkedId(), 0)

    def colour(self) -> str:
        return list(ANNOTATION_COLOURS.values())[self.chosen_index()]

    def choose(self, index: int) -> None:
        button = self.colours.button(index % len(ANNOTATION_COLOURS))
        if button is not None:
            button.setChecked(True)

    def open(self, quote: str) -> None:
        preview = (
            quote if len(quote) <= QUOTE_PREVIEW_CHARS else quote[: QUOTE_PREVIEW_CHARS - 1] + "…"
        )
        self.quote.setText(f"“{preview}”")
        self.comment.clear()
        self.show()
        self.comment.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _submit(self) -> None:
        self.submitted.emit(self.colour(), self.comment.text().strip())


class ReasonBar(Bar):
    """`X` in a screening with exclusion reasons (`Shift+X` in any): why the paper is
    discarded. A digit picks a listed reason; a new one is typed; Enter alone discards
    without a reason."""

    submitted = Signal(object)  # the reason, or None for none

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "Discard: why?",
            "1-9 picks a reason · type a new one and Enter · Enter alone: no reason · Esc cancels",
            parent,
        )
        self.reasons: list[str] = []
        self.listing = QLabel()
        self.listing.setWordWrap(True)
        self.input = QLineEdit()
        self.input.setAccessibleName("Exclusion reason")
        self.input.setPlaceholderText("a new reason, e.g. wrong population")
        self.input.returnPressed.connect(self._submit)
        self.column.addWidget(self.listing)
        self.column.addWidget(self.input)
        digits: dict[tuple[int, int], Callable[[], None]] = {
            (int(getattr(Qt.Key, f"Key_{n}").value), PLAIN): partial(self._pick, n)
            for n in range(1, 10)
        }
        self.finish_layout(self.input, digits)

    def open(self, reasons: list[str]) -> None:
        self.reasons = list(reasons)
        self.listing.setText(
            "   ".join(f"<b>{n}</b> {html.escape(r)}" for n, r in enumerate(reasons, start=1))
            or "No reasons yet: type one."
        )
        self.input.clear()
        self.show()
        self.input.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _pick(self, number: int) -> None:
        if self.input.text() or number > len(self.reasons):
            self.input.insert(str(number))  # part of a new reason's text
            return
        self.submitted.emit(self.reasons[number - 1])

    def _submit(self) -> None:
        self.submitted.emit(self.input.text().strip() or None)
