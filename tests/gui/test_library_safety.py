"""The window beside other programs, on a read-only library, and on a damaged one."""

from __future__ import annotations

import subprocess
import threading

from PySide6.QtCore import QSettings

from paperdesk.core.scope import Scope
from paperdesk.gui.window.main_window import MainWindow
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import maintenance, reading, searching
from tests.cli.test_cli import run
from tests.gui.conftest import open_window

SHOWN_WITHIN_MS = 2000


def test_changes_made_elsewhere_show_up_and_nothing_is_lost(qtbot, seeded_library, tmp_path):
    window = open_window(qtbot, seeded_library, tmp_path / "settings.ini")
    window.table.selectRow(0)
    selected = window.table.selected_ids()
    first = selected[0]
    ids = window.model.ids()
    other, noted = ids[1], ids[2]
    # A note is being typed in the window while the command line works.
    window.detail.notes.editor.setPlainText("typing, not saved yet")
    commands = [
        ("tag", str(other), "--add", "from-the-cli"),
        ("note", str(noted), "--set", "noted elsewhere"),
        ("rate", str(other), "4"),
        ("tag", str(first), "--add", "also-outside"),
    ]
    results: list[subprocess.CompletedProcess[str]] = []
    worker = threading.Thread(
        target=lambda: results.extend(run(seeded_library, *c, check=False) for c in commands)
    )
    worker.start()
    # Meanwhile the window rates papers itself, through its own writer thread.
    # A rating, then the next once another command has finished: the two interleave.
    ratings = 0
    while worker.is_alive():
        finished = len(results)
        with qtbot.waitSignal(window.changes_applied, timeout=60_000):
            window.commands.set_rating(1 + ratings % 5)
        ratings += 1
        qtbot.waitUntil(
            lambda finished=finished: len(results) > finished or not worker.is_alive(),
            timeout=60_000,
        )
    worker.join()
    assert [r.returncode for r in results] == [0] * len(commands), [r.stderr for r in results]

    def shows_the_outside_changes() -> None:
        assert "from-the-cli" in [t.name for t in window.commands.overview.tags]
        row = window.model.row_of(other)
        assert window.model.paper_at(row).rating == 4
        assert "also-outside" in window.detail.paper().tags

    qtbot.waitUntil(shows_the_outside_changes, timeout=SHOWN_WITHIN_MS)
    assert window.table.selected_ids() == selected
    assert window.detail.notes.editor.toPlainText() == "typing, not saved yet"
    assert window.errors.shown == [] and ratings > 0
    window.close()
    with Desk.open(seeded_library) as desk:
        assert reading.paper(desk, noted).note == "noted elsewhere"
        assert reading.paper(desk, first).note == "typing, not saved yet"
        assert maintenance.check(desk) == []
        assert searching.listing(desk, Scope(), "tag:from-the-cli").ids == [other]


def test_a_read_only_library_opens_with_a_banner_and_refuses_changes(
    qtbot, seeded_library, tmp_path, monkeypatch
):
    monkeypatch.setattr("paperdesk.services.runtime.desk.can_write", lambda _path: False)
    before = (seeded_library / "library.sqlite3").read_bytes()
    window = open_window(qtbot, seeded_library, tmp_path / "settings.ini")
    assert window.read_only_banner.isVisible()
    assert window.model.rowCount() > 20  # the papers are there to read
    window.table.selectRow(0)
    with qtbot.waitSignal(window.runner.writer.failed_job, timeout=10_000):
        window.commands.set_rating(5)
    qtbot.waitUntil(lambda: bool(window.errors.shown), timeout=5000)
    assert "read-only" in window.errors.shown[-1]
    window.close()
    assert (seeded_library / "library.sqlite3").read_bytes() == before


def test_a_lost_database_is_offered_its_latest_backup(qtbot, seeded_library, tmp_path):
    with Desk.open(seeded_library) as desk:
        papers = reading.count(desk)
        maintenance.backup(desk)
    (seeded_library / "library.sqlite3").unlink()
    window = MainWindow(
        seeded_library, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    )
    qtbot.addWidget(window, before_close_func=lambda w: w.close())
    with qtbot.waitSignal(window.failed, timeout=30_000):
        window.show()
    offer = window.restore_offer
    assert offer is not None and "Restore the latest backup" in offer.text()
    assert window.errors.shown == []  # the offer, not an error box
    restore_button = offer.buttons()[0]
    with qtbot.waitSignal(window.search_applied, timeout=60_000):
        restore_button.click()
    assert window.model.rowCount() == papers
    assert list(seeded_library.glob("library.sqlite3.*")) == []  # nothing was there to keep
