"""The window's layout as the user left it: size, panes, splitters and table columns.

Kept in the app's QSettings (not in a library): the same layout greets every library.
Columns are saved as soon as they change, the rest when the window closes or switches
library, so a crash costs at most the last pane drag.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QSplitter

from paperdesk.gui.window.detail_pane import DetailPane
from paperdesk.gui.window.paper_table import PaperTable
from paperdesk.gui.window.table_sort import TableSort

DEFAULT_SIZE = (1400, 900)


class LaidOutWindow(Protocol):
    """What the layout keeps of the main window (gui/window/main_window.py), which it does
    not import: the window restores its layout while it builds itself."""

    @property
    def settings(self) -> QSettings: ...
    @property
    def splitter(self) -> QSplitter: ...
    @property
    def detail(self) -> DetailPane: ...
    @property
    def table(self) -> PaperTable: ...
    @property
    def sort(self) -> TableSort: ...
    def restoreGeometry(self, geometry: QByteArray | bytes | bytearray | memoryview, /) -> bool: ...
    def saveGeometry(self, /) -> QByteArray: ...
    def restoreState(
        self, state: QByteArray | bytes | bytearray | memoryview, /, version: int | None = ...
    ) -> bool: ...
    def saveState(self, /, version: int | None = ...) -> QByteArray: ...
    def resize(self, w: int, h: int, /) -> None: ...


def restore_layout(window: LaidOutWindow) -> None:
    settings = window.settings
    if geometry := settings.value("window/geometry"):
        window.restoreGeometry(geometry)
    else:
        window.resize(*DEFAULT_SIZE)
    if state := settings.value("window/state"):
        window.restoreState(state)
    if splitter := settings.value("window/splitter"):
        window.splitter.restoreState(splitter)
    if detail := settings.value("window/detail"):
        window.detail.restoreState(detail)
    if header := settings.value("table/header"):
        header_view = window.table.horizontalHeader()
        # Quietly: a restored sort arrow must not sort (the library is not open yet)
        # nor overwrite this library's own remembered order (TableSort.restore).
        header_view.blockSignals(True)
        header_view.restoreState(header)
        header_view.blockSignals(False)
        # Widths remembered at another font size or window size are fitted to this one.
        window.table.adopt_restored_widths()
    window.sort.restore()


def save_columns(window: LaidOutWindow) -> None:
    window.settings.setValue("table/header", window.table.horizontalHeader().saveState())


def save_layout(window: LaidOutWindow) -> None:
    settings = window.settings
    settings.setValue("window/geometry", window.saveGeometry())
    settings.setValue("window/state", window.saveState())
    settings.setValue("window/splitter", window.splitter.saveState())
    settings.setValue("window/detail", window.detail.saveState())
    save_columns(window)
    settings.sync()
