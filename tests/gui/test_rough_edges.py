"""The rough edges a newcomer met in the window (issue 25, "What was seen" 5)."""

from __future__ import annotations

from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtWidgets import QFileDialog, QWidget

from paperdesk.core.scope import Kind, Scope
from paperdesk.gui.actions import shortlists, tags
from paperdesk.gui.dialogs import Asker
from tests.gui.test_main_window import WAIT_MS, ScriptedAsker, changes


def shown_scope(qtbot, window, scope: Scope) -> None:
    with qtbot.waitSignal(window.search_applied, timeout=WAIT_MS):
        window.sidebar.select_scope(scope)
    assert window.sidebar.scope() == scope


def test_deleting_a_tag_asks_first_saying_how_many_papers_carry_it(qtbot, window):
    ids = [window.model.id_at(row) for row in range(3)]
    with changes(qtbot, window):
        tags.add_tags(window.operations, ids, ["keep"])
    window.panes.ask = asker = ScriptedAsker(confirm=False)
    window.commands.run_sidebar_command("delete-tag", "keep")
    assert asker.asked_to_delete_label == [("tag", "keep", 3)]
    qtbot.wait(200)
    assert window.desk._library.papers.get(ids[0]).tags == ("keep",)
    asker._confirm = True
    with changes(qtbot, window):
        window.commands.run_sidebar_command("delete-tag", "keep")
    assert window.desk._library.papers.get(ids[0]).tags == ()


def test_deleting_the_shortlist_being_viewed_asks_then_shows_the_library(qtbot, window):
    ids = [window.model.id_at(row) for row in range(2)]
    total = window.model.rowCount()
    with changes(qtbot, window):
        shortlists.create(window.operations, "Reading group", ids)
    qtbot.waitUntil(
        lambda: window.sidebar.index_of(Scope(Kind.SHORTLIST, "Reading group")) is not None
    )
    shown_scope(qtbot, window, Scope(Kind.SHORTLIST, "Reading group"))
    assert window.model.rowCount() == 2
    window.panes.ask = asker = ScriptedAsker(confirm=False)
    window.commands.run_sidebar_command("delete-shortlist", "Reading group")
    assert asker.asked_to_delete_label == [("shortlist", "Reading group", 2)]
    asker._confirm = True
    with changes(qtbot, window):
        window.commands.run_sidebar_command("delete-shortlist", "Reading group")
    qtbot.waitUntil(lambda: window.sidebar.scope() == Scope(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.model.rowCount() == total, timeout=WAIT_MS)
    qtbot.wait(300)
    assert window.errors.shown == []
    assert "Searching failed" not in window.statusBar().currentMessage()


def test_file_import_opens_in_the_folder_used_last_else_documents(qtbot, tmp_path, monkeypatch):
    # Issue 25: it opened in the process's working folder.
    monkeypatch.chdir(tmp_path)
    documents = tmp_path / "Documents"
    documents.mkdir()
    monkeypatch.setattr(QStandardPaths, "writableLocation", lambda _where: str(documents))
    started_in: list[str] = []
    chosen = tmp_path / "downloads" / "icml.bib"
    chosen.parent.mkdir()

    def open_file_names(_parent, _title, folder, _filter):
        started_in.append(folder)
        return [str(chosen)], ""

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", open_file_names)
    parent = QWidget()
    qtbot.addWidget(parent)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    assert Asker(parent, settings).import_paths() == [chosen]
    # A new window (a new session) remembers it through the settings.
    assert Asker(parent, settings).import_paths() == [chosen]
    assert started_in == [str(documents), str(chosen.parent)]
