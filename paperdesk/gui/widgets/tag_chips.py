"""Tags as removable chips, plus a field that adds tags with completion over known ones."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCompleter,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QToolButton,
    QWidget,
)

from paperdesk.gui.resources import icon
from paperdesk.gui.widgets.flow_layout import FlowLayout

CHIP_RADIUS = 9


def readable_text_colour(background: QColor) -> QColor:
    """Black or white, whichever reads better on `background` (WCAG relative luminance)."""

    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    luminance = (
        0.2126 * channel(background.redF())
        + 0.7152 * channel(background.greenF())
        + 0.0722 * channel(background.blueF())
    )
    return QColor("#000000") if luminance > 0.179 else QColor("#ffffff")


def split_tag_input(text: str) -> list[str]:
    """`a, b/c ,, d` -> ['a', 'b/c', 'd']: commas separate tags, blanks are dropped."""
    return [part.strip() for part in text.split(",") if part.strip()]


class TagChip(QFrame):
    remove_clicked = Signal(str)

    def __init__(self, name: str, label: str, colour: str | None, parent: QWidget | None = None):
        super().__init__(parent)
        self.name = name
        self.setObjectName("tagChip")
        if colour:
            background = QColor(colour).name()
            foreground = readable_text_colour(QColor(colour)).name()
            # Per-chip colours cannot come from the palette: they are the tag's own.
            # A widget's own sheet replaces the app's rule for it, so repeat the shape.
            self.setStyleSheet(
                f"#tagChip {{ background: {background}; border: 1px solid {background};"
                f" border-radius: {CHIP_RADIUS}px; }}"
                f"#tagChip QLabel {{ color: {foreground}; }}"
            )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 1, 2, 1)
        layout.setSpacing(2)
        self.label = QLabel(label)
        layout.addWidget(self.label)
        self.remove_button = QToolButton()
        self.remove_button.setObjectName("tagChipRemove")
        self.remove_button.setIcon(icon("close"))
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip(f"Remove tag {name}")
        self.remove_button.setAccessibleName(f"Remove tag {name}")
        self.remove_button.clicked.connect(lambda: self.remove_clicked.emit(self.name))
        layout.addWidget(self.remove_button)


class TagChips(QWidget):
    """Shows a paper's tags; `tag_added` / `tag_removed` report a user's edits.

    For a multi-selection, `counts` and `of_total` mark tags only some papers carry
    (shown as `name 2/5`); adding or removing then applies to every selected paper.
    """

    tag_added = Signal(str)
    tag_removed = Signal(str)
    # Enter in the tag field: the typed tags were added and typing there is done.
    committed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = FlowLayout(self)
        self._chips: list[TagChip] = []
        self._on_every_paper: set[str] = set()
        self._known = QStringListModel(self)
        self.input = QLineEdit()
        self.input.setObjectName("tagInput")
        self.input.setPlaceholderText("Add tag…")
        self.input.setAccessibleName("Add tag")
        self.input.setToolTip("Type a tag and press Enter; separate several with commas")
        self.input.setMinimumWidth(120)
        completer = QCompleter(self._known, self.input)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.input.setCompleter(completer)
        self.input.returnPressed.connect(self._commit_input)
        self._layout.addWidget(self.input)

    def completer(self) -> QCompleter:
        return self.input.completer()

    def set_known_tags(self, names: Iterable[str]) -> None:
        self._known.setStringList(sorted(names, key=str.casefold))

    def tags(self) -> list[str]:
        return [chip.name for chip in self._chips]

    def set_tags(
        self,
        names: Sequence[str],
        colours: Mapping[str, str | None] | None = None,
        counts: Mapping[str, int] | None = None,
        of_total: int | None = None,
    ) -> None:
        colours = colours or {}
        for chip in self._chips:
            self._layout.removeWidget(chip)
            # Hidden now: deleteLater leaves it painted, under the new chips, until the
            # event loop gets round to it (chips drawn over each other after live updates).
            chip.hide()
            chip.deleteLater()
        self._chips = []
        self._on_every_paper = set()
        self._layout.removeWidget(self.input)
        for name in sorted(names, key=str.casefold):
            label = name
            if counts is not None and of_total is not None and counts.get(name, 0) < of_total:
                label = f"{name}  {counts.get(name, 0)}/{of_total}"
            else:
                self._on_every_paper.add(name.casefold())
            chip = TagChip(name, label, colours.get(name), self)
            chip.remove_clicked.connect(self.tag_removed)
            self._layout.addWidget(chip)
            self._chips.append(chip)
        self._layout.addWidget(self.input)
        self.updateGeometry()

    def _commit_input(self) -> None:
        # A tag only some selected papers carry may still be added to the rest.
        present = set(self._on_every_paper)
        for name in split_tag_input(self.input.text()):
            if name.casefold() not in present:
                present.add(name.casefold())
                self.tag_added.emit(name)
        self.input.clear()
        self.committed.emit()
