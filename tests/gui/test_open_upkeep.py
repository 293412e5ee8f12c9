"""Opening a library in the window: the table first, then the day's backup and the
index's check (gui/window/open_upkeep.py), without a search ever reading an unchecked index."""

from __future__ import annotations

import shutil

from PySide6.QtCore import QSettings

from paperdesk.gui.window.main_window import MainWindow
from paperdesk.store.sqlite_copies import backup_reason, backups_in


def _window(qtbot, folder, tmp_path) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(folder, settings, offer_demo=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.close())
    return window


def _daily_backups(folder) -> list[str]:
    return [p.name for p in backups_in(folder / "backups") if backup_reason(p) == "daily"]


def test_the_table_is_listed_before_the_days_backup_which_still_comes(
    qtbot, seeded_library, tmp_path
):
    shutil.rmtree(seeded_library / "backups")  # the seeds' import backup counts for today
    window = _window(qtbot, seeded_library, tmp_path)
    with qtbot.waitSignal(window.search_applied, timeout=60_000):
        window.show()
    # Listed from the database: the backup (seconds at 100,000 papers) has not begun.
    assert window.model.rowCount() > 20
    assert not window.upkeep.is_ready()
    assert _daily_backups(seeded_library) == []
    qtbot.waitUntil(window.upkeep.is_ready, timeout=60_000)
    assert len(_daily_backups(seeded_library)) == 1
    assert not window.index_progress.isVisible()
    assert window.errors.shown == []


def test_a_search_typed_while_the_index_is_rebuilt_waits_for_it(qtbot, seeded_library, tmp_path):
    shutil.rmtree(seeded_library / "index")
    window = _window(qtbot, seeded_library, tmp_path)
    with qtbot.waitSignal(window.search_applied, timeout=60_000):
        window.show()
    everything = window.model.rowCount()
    assert not window.upkeep.is_ready()
    with qtbot.waitSignal(window.search_applied, timeout=60_000):
        window.search_bar.set_text("neural")
    assert window.upkeep.is_ready()
    assert 0 < window.model.rowCount() < everything
    assert window.errors.shown == []


def test_a_new_empty_library_is_checked_too(qtbot, tmp_path):
    # An empty table was painted before its (empty) listing arrived, and no paint came
    # after it: the check never began, and the window's index updates never left its
    # process (a benchmark waiting for the check hung for 10 minutes).
    window = _window(qtbot, tmp_path / "new library", tmp_path)
    with qtbot.waitSignal(window.search_applied, timeout=60_000):
        window.show()
    assert window.model.rowCount() == 0
    qtbot.waitUntil(window.upkeep.is_ready, timeout=60_000)
    assert window.errors.shown == []
