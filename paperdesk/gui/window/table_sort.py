"""The order the paper table lists papers in, remembered per library.

Relevance (best match first; import order without a query), or a column: a click on
its heading (again: the other way) or View > Sort By. The table's model turns a
heading click into `sort_requested`; the window hands it to `remember` and searches.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt

from paperdesk.core.fields import RELEVANCE
from paperdesk.gui.window.paper_table import PaperTable
from paperdesk.gui.window.paper_table_model import COLUMN_SORT_KEYS

_COLUMNS = {key: column for column, key in COLUMN_SORT_KEYS.items()}


def _order(descending: bool) -> Qt.SortOrder:
    return Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder


class TableSort:
    def __init__(self, table: PaperTable, settings: QSettings, settings_key: str) -> None:
        self.table = table
        self.settings = settings
        self.settings_key = settings_key
        self.key = RELEVANCE
        self.descending = False

    def restore(self) -> None:
        """The library's last order, shown by the heading's arrow; nothing searched yet."""
        key, _, descending = str(self.settings.value(self.settings_key, "")).partition(" ")
        header = self.table.horizontalHeader()
        header.blockSignals(True)
        try:
            if key in _COLUMNS:
                self.key, self.descending = key, descending == "1"
                header.setSortIndicator(_COLUMNS[key], _order(self.descending))
            else:
                self.key, self.descending = RELEVANCE, False
                header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        finally:
            header.blockSignals(False)

    def remember(self, key: str, descending: bool) -> None:
        self.key, self.descending = key, descending
        self.settings.setValue(self.settings_key, f"{key} {int(descending)}")

    def by(self, key: str, descending: bool | None = None) -> None:
        """Sort by a sort key as if its heading were clicked (relevance has none)."""
        if descending is None:
            descending = self.descending
        if key in _COLUMNS:
            self.table.sortByColumn(_COLUMNS[key], _order(descending))
        else:
            self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            self.table.paper_model().sort_requested.emit(RELEVANCE, False)

    def set_descending(self, descending: bool) -> None:
        if self.key != RELEVANCE:
            self.by(self.key, descending)
