"""The status bar's lasting counts: papers selected, listed and in the library."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget


class StatusCounts(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusCounts")
        self.setAccessibleName("Paper counts")
        self._selected = self._listed = self._total = 0

    def show_listing(self, listed: int, total: int) -> None:
        self._listed, self._total = listed, total
        self._show()

    def show_selected(self, selected: int) -> None:
        self._selected = selected
        self._show()

    def _show(self) -> None:
        parts = [f"{self._listed:,} listed", f"{self._total:,} in library"]
        if self._selected:
            parts.insert(0, f"{self._selected:,} selected")
        self.setText("  ·  ".join(parts))
