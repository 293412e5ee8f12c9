"""The window's layout as the user left it: size, panes, splitters and table columns.

Kept in the app's QSettings (not in a library): the same layout greets every library.
Columns are saved as soon as they change, the rest when the window closes or switches
library, so a crash costs at most the last pane drag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paperdesk.gui.main_window import MainWindow

DEFAULT_SIZE = (1400, 900)


def restore_layout(window: MainWindow) -> None:
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
    window.sort.restore()
    window.menus.show_sort(window.sort.key, window.sort.descending)


def save_columns(window: MainWindow) -> None:
    window.settings.setValue("table/header", window.table.horizontalHeader().saveState())


def save_layout(window: MainWindow) -> None:
    settings = window.settings
    settings.setValue("window/geometry", window.saveGeometry())
    settings.setValue("window/state", window.saveState())
    settings.setValue("window/splitter", window.splitter.saveState())
    settings.setValue("window/detail", window.detail.saveState())
    save_columns(window)
    settings.sync()
