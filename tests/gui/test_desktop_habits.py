"""The window behaves as Zotero and JabRef users expect (issue 12), driven as a user would.

Each test names the numbered item of the issue it covers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from paperdesk import config
from paperdesk.core.models import Status
from paperdesk.gui.actions import shortlists
from paperdesk.gui.window.paper_table_model import Column
from paperdesk.gui.window.transfers import file_stem
from paperdesk.services.use_cases import searching
from tests.gui.conftest import open_window
from tests.gui.test_main_window import WAIT_MS, ScriptedAsker, changes, searched, undo


def header_click(qtbot, window, column: Column) -> None:
    header = window.table.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    with searched(qtbot, window):
        QTest.mouseClick(
            header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2)
        )


def titles(window) -> list[str]:
    return [window.model.paper_at(row).title.casefold() for row in range(window.model.rowCount())]


# --- 1. columns ---------------------------------------------------------------------------
def test_1_clicking_a_heading_sorts_by_it_with_an_arrow_and_again_reverses(qtbot, window):
    header = window.table.horizontalHeader()
    plain = header.grab().toImage()
    header_click(qtbot, window, Column.TITLE)
    assert titles(window) == sorted(titles(window))
    assert titles(window) != sorted(titles(window), reverse=True)
    assert header.sortIndicatorSection() == Column.TITLE
    assert header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
    # The arrow is drawn: the heading looks different from before the click.
    assert header.grab().toImage() != plain
    header_click(qtbot, window, Column.TITLE)
    assert titles(window) == sorted(titles(window), reverse=True)
    assert header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder


def test_1_every_column_sorts_by_its_own_key(qtbot, window):
    for column in (Column.RATING, Column.STATUS, Column.AUTHOR, Column.YEAR, Column.VENUE):
        header_click(qtbot, window, column)
        key = window.sort.key
        expected = searching.find_ids(window.desk, None, key, window.sort.descending).ids
        assert window.model.ids() == expected, column


def test_1_the_sort_is_remembered_per_library(qtbot, seeded_library, tmp_path):
    settings = tmp_path / "s.ini"
    window = open_window(qtbot, seeded_library, settings)
    header_click(qtbot, window, Column.TITLE)
    header_click(qtbot, window, Column.TITLE)
    window.close()
    again = open_window(qtbot, seeded_library, settings)
    assert (again.sort.key, again.sort.descending) == ("title", True)
    assert titles(again) == sorted(titles(again), reverse=True)
    assert again.table.horizontalHeader().sortIndicatorSection() == Column.TITLE
    assert again.menus.sort_actions["title"].isChecked()
    again.close()
    other = open_window(qtbot, tmp_path / "other-library", settings)
    assert other.sort.key == "relevance"
    assert other.table.horizontalHeader().sortIndicatorSection() == -1


def test_1_columns_are_shown_hidden_and_moved_from_the_header_menu_and_remembered(
    qtbot, seeded_library, tmp_path
):
    settings = tmp_path / "s.ini"
    window = open_window(qtbot, seeded_library, settings)
    menu = window.table.column_menu(Column.YEAR)
    texts = [a.text() for a in menu.actions()]
    assert "Added" in texts and "Move “Year” Left" in texts and "Reset Columns" in texts
    next(a for a in menu.actions() if a.text() == "Added").trigger()
    next(a for a in menu.actions() if a.text() == "Venue").trigger()
    next(a for a in menu.actions() if a.text() == "Move “Year” Left").trigger()
    shown = window.table.visible_columns()
    assert Column.ADDED in shown and Column.VENUE not in shown
    assert shown.index(Column.YEAR) < shown.index(Column.AUTHOR)
    # Remembered at once, not only when the window closes (a crash keeps them too).
    again_settings = QSettings(str(settings), QSettings.Format.IniFormat)
    assert again_settings.value("table/header") is not None
    window.close()
    again = open_window(qtbot, seeded_library, settings)
    assert again.table.visible_columns() == shown
    again.table.reset_columns()
    assert Column.ADDED not in again.table.visible_columns()


# --- 3. search as you type: Enter and Down move into the results -----------------------------
def test_3_a_half_typed_word_already_finds_the_papers_it_starts(qtbot, window):
    window.search_bar.field.setFocus()
    with searched(qtbot, window):
        qtbot.keyClicks(window.search_bar.field, "contrastiv")  # stem: "contrast"
    half_typed = set(window.model.ids())
    with searched(qtbot, window):
        qtbot.keyClicks(window.search_bar.field, "e ")  # the finished word
    assert half_typed and half_typed == set(window.model.ids())


@pytest.mark.parametrize("key", [Qt.Key.Key_Return, Qt.Key.Key_Down])
def test_3_enter_or_down_in_the_search_field_selects_the_first_result(qtbot, window, key):
    window.table.select_ids([window.model.ids()[5]], window.model.ids()[5])
    window.search_bar.field.setFocus()
    qtbot.keyClicks(window.search_bar.field, "graph")
    with searched(qtbot, window):
        qtbot.keyClick(window.search_bar.field, key)
    first = window.model.ids()[0]
    assert window.table.selected_ids() == [first]
    assert window.table.current_id() == first
    assert QApplication.focusWidget() is window.table
    assert window.detail.paper().id == first


def test_3_down_after_the_results_came_moves_into_them_at_once(qtbot, window):
    with searched(qtbot, window):
        window.search_bar.set_text("graph")
    window.search_bar.field.setFocus()
    qtbot.keyClick(window.search_bar.field, Qt.Key.Key_Down)
    assert window.table.selected_ids() == window.model.ids()[:1]
    assert QApplication.focusWidget() is window.table


# --- 4. something is always selected ------------------------------------------------------
def test_4_a_search_that_drops_the_selection_selects_its_first_result(qtbot, window):
    outside = [
        i for i in window.model.ids() if i not in searching.find_ids(window.desk, "graph").ids
    ]
    window.table.select_ids(outside[:1], outside[0])
    with searched(qtbot, window):
        window.search_bar.set_text("graph")
    assert window.table.selected_ids() == window.model.ids()[:1]
    assert window.detail.paper() is not None


def test_4_after_a_delete_and_its_undo_a_paper_is_selected(qtbot, window):
    ids = window.model.ids()
    window.table.select_ids([ids[3]], ids[3])
    window.panes.ask = ScriptedAsker(confirm=True)
    with changes(qtbot, window):
        window.commands.delete_selected()
    # The paper now in its row is shown: the next one, as after a decision.
    assert window.table.selected_ids() == [ids[4]]
    assert window.detail.paper().id == ids[4]
    undo(qtbot, window)
    assert window.table.selected_ids() and window.detail.paper() is not None


def test_4_after_an_import_a_paper_is_selected(qtbot, tmp_path):
    from paperdesk.services.use_cases import demo

    window = open_window(qtbot, tmp_path / "empty", tmp_path / "s.ini")
    assert window.model.rowCount() == 0 and window.detail.paper() is None
    with qtbot.waitSignal(window.transfers.import_finished, timeout=60_000):
        window.transfers.import_files(demo.seed_files()[:1], report=False)
    qtbot.waitUntil(lambda: window.model.rowCount() > 0, timeout=WAIT_MS)
    assert window.table.selected_ids() == window.model.ids()[:1]
    assert window.detail.paper() is not None


# --- 5. context menus, Enter and double-click -----------------------------------------------
@pytest.fixture
def linked_library(tmp_path) -> Path:
    """Three papers: a web page, a DOI only, and a URL that must never be opened."""
    from paperdesk.services.runtime.desk import Desk
    from paperdesk.services.use_cases import importing

    source = tmp_path / "linked.jsonl"
    records = [
        {"title": "Web Paper", "authors": ["Ada Lovelace"], "year": 2024,
         "url": "https://example.org/web", "abstract": "Graphs."},
        {"title": "Doi Paper", "authors": ["Alan Turing"], "year": 2023,
         "doi": "10.1145/3292500.3330701", "abstract": "Machines."},
        {"title": "Hostile Paper", "authors": ["Eve"], "year": 2022,
         "url": "javascript:alert(1)", "abstract": "Nothing to see; costs $O(n^2)$."},
    ]  # fmt: skip
    source.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    folder = tmp_path / "linked"
    with Desk.open(folder) as desk:
        assert importing.import_files(desk, [source]).added == 3
    return folder


@pytest.fixture
def opened_urls(monkeypatch) -> list[str]:
    urls: list[str] = []
    monkeypatch.setattr(
        QDesktopServices, "openUrl", lambda url: urls.append(url.toString()) or True
    )
    return urls


def select_titled(window, title: str) -> int:
    paper_id = next(
        window.model.id_at(row)
        for row in range(window.model.rowCount())
        if window.model.paper_at(row).title == title
    )
    window.table.select_ids([paper_id], paper_id)
    return paper_id


def test_5_enter_and_double_click_open_the_papers_web_page(
    qtbot, linked_library, tmp_path, opened_urls
):
    window = open_window(qtbot, linked_library, tmp_path / "s.ini")
    select_titled(window, "Web Paper")
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Return)
    assert opened_urls == ["https://example.org/web"]
    # Issue 25: it read "Opened the paper's Web page page."
    assert window.statusBar().currentMessage() == "Opened https://example.org/web in the browser."
    select_titled(window, "Doi Paper")
    rect = window.table.visualRect(window.table.currentIndex())
    # A real double-click: a press and release first, then the double-click.
    qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert opened_urls[-1] == "https://doi.org/10.1145/3292500.3330701"
    # A javascript: address is data, not a link: nothing is opened.
    select_titled(window, "Hostile Paper")
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Return)
    assert len(opened_urls) == 2
    assert "no web page" in window.statusBar().currentMessage()


def test_5_the_papers_right_click_menu_offers_what_zotero_does(qtbot, window):
    with changes(qtbot, window):
        shortlists.create(window.operations, "Reading group")
    window.table.select_ids(window.model.ids()[:2], window.model.ids()[0])
    menu = window.menus.paper_menu(window.commands.shortlist_names())
    texts = [a.text().replace("&", "") for a in menu.actions()]
    for wanted in ("Open Web Page", "Status", "Rating", "Tags", "Add to Shortlist",
                   "Copy as BibTeX", "Copy Citation Key", "Copy Title", "Export Selection…",
                   "Delete Papers…"):  # fmt: skip
        assert wanted in texts, wanted
    lists = next(a.menu() for a in menu.actions() if a.text() == "Add to Shortlist")
    with changes(qtbot, window):
        next(a for a in lists.actions() if a.text() == "Reading group").trigger()
    assert searching.shortlist_ids(window.desk, "Reading group") == window.model.ids()[:2]


def test_5_copy_as_bibtex_key_and_title_reach_the_clipboard(qtbot, linked_library, tmp_path):
    window = open_window(qtbot, linked_library, tmp_path / "s.ini")
    select_titled(window, "Web Paper")
    clipboard = QGuiApplication.clipboard()
    window.menus.copy_title_action.trigger()
    qtbot.waitUntil(lambda: clipboard.text() == "Web Paper", timeout=WAIT_MS)
    window.menus.copy_key_action.trigger()
    qtbot.waitUntil(lambda: clipboard.text() == "lovelace2024web", timeout=WAIT_MS)
    window.menus.copy_bibtex_action.trigger()
    qtbot.waitUntil(lambda: clipboard.text().startswith("@"), timeout=WAIT_MS)
    assert "lovelace2024web" in clipboard.text() and "Web Paper" in clipboard.text()
    assert "Copied 1 BibTeX entry" in window.statusBar().currentMessage()


def test_5_export_selection_preselects_the_selection(qtbot, window):
    window.table.select_ids(window.model.ids()[:2], window.model.ids()[0])
    window.menus.export_selection_action.trigger()
    assert window.transfers.export_dialog.scope_box.currentText() == "The 2 selected papers"


# --- 6 and issue 13.6: notes and links ---------------------------------------------------------
def test_6_the_note_preview_renders_math_as_abstracts_do(qtbot, window):
    from paperdesk.gui.window.note_editor import markdown_with_math

    assert markdown_with_math("costs $O(n^2)$, not $5 or $10") == "costs O(n²), not $5 or $10"
    assert markdown_with_math("`$x$` stays code") == "`$x$` stays code"
    window.table.select_ids(window.model.ids()[:1], window.model.ids()[0])
    notes = window.detail.notes
    notes.editor.setPlainText("**Mamba** costs $O(n^2)$")
    notes.setCurrentWidget(notes.preview)
    assert notes.preview.toPlainText() == "Mamba costs O(n²)"


@pytest.mark.logs_warnings
def test_13_6_note_links_open_only_on_a_click_and_only_http(qtbot, window, opened_urls):
    preview = window.detail.notes.preview
    preview.show_markdown("[site](https://example.org) [x](file:///etc/passwd) ![i](file:///x.png)")
    # Nothing is loaded for the image; nothing opened by showing the note.
    assert preview.loadResource(2, QUrl("file:///x.png")) is None
    assert opened_urls == []
    preview.anchorClicked.emit(QUrl("file:///etc/passwd"))
    preview.anchorClicked.emit(QUrl("javascript:alert(1)"))
    assert opened_urls == []
    preview.anchorClicked.emit(QUrl("https://example.org"))
    assert opened_urls == ["https://example.org"]


@pytest.mark.logs_errors
def test_13_6_only_http_links_are_shown_in_the_detail_pane(
    qtbot, linked_library, tmp_path, opened_urls
):
    window = open_window(qtbot, linked_library, tmp_path / "s.ini")
    select_titled(window, "Hostile Paper")
    meta = window.detail.single.meta
    assert "javascript" not in meta.text() and "href" not in meta.text()
    select_titled(window, "Web Paper")
    assert "href='https://example.org/web'" in meta.text()
    meta.linkActivated.emit("javascript:alert(1)")  # as if the label had offered it
    assert opened_urls == []
    meta.linkActivated.emit("https://example.org/web")
    assert opened_urls == ["https://example.org/web"]


# --- 7. Preferences, Open Library, Recent Libraries -------------------------------------------
def test_7_preferences_change_theme_and_font_size_and_the_default_library(qtbot, window, tmp_path):
    from paperdesk.gui.dialogs.preferences import Preferences, apply_preferences

    app = QApplication.instance()
    size_before = app.font().pointSize()
    window.show_preferences()
    dialog = window.preferences_dialog
    dialog.theme_box.setCurrentIndex(dialog.theme_box.findData("dark"))
    dialog.font_size.setValue(size_before + 3)
    dialog.library_field.setText(str(tmp_path / "chosen"))
    try:
        dialog.accept()
        assert app.palette().color(QPalette.ColorRole.Window).lightness() < 80
        assert app.font().pointSize() == size_before + 3
        assert Preferences.load(window.settings).theme == "dark"
        # The command line opens the same library as the window.
        assert config.resolve_library_dir(None) == tmp_path / "chosen"
    finally:
        apply_preferences(app, Preferences())
        config.choose_default_library_dir(None)
    assert app.font().pointSize() == size_before


def test_7_open_library_switches_the_window_and_remembers_recent_ones(
    qtbot, seeded_library, tmp_path
):
    from paperdesk.gui.app import LibraryWindows

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    windows = LibraryWindows(settings)
    try:
        first = windows.open(seeded_library)
        qtbot.waitUntil(lambda: first.model.rowCount() > 0, timeout=60_000)
        other = tmp_path / "second"
        first.panes.ask = ScriptedAsker(folder=other)
        first.menus.open_library_action.trigger()
        assert not first.isVisible()  # closed (and deleted once events run)
        (second,) = windows.windows
        qtbot.waitUntil(lambda: second.desk is not None, timeout=60_000)
        assert second.library_dir == other
        recent = [a.text() for a in second.menus.recent_menu.actions()]
        assert recent == [str(seeded_library.resolve())]
        second.menus.recent_menu.actions()[0].trigger()
        (third,) = windows.windows
        qtbot.waitUntil(lambda: third.model.rowCount() > 0, timeout=60_000)
        assert third.library_dir == seeded_library.resolve()
    finally:
        for window in windows.windows:
            window.close()


# --- 8. delete asks first -------------------------------------------------------------------
def test_8_delete_asks_and_cancel_keeps_the_papers(qtbot, window):
    total = window.desk._library.papers.count()
    window.table.selectAll()
    asker = window.panes.ask = ScriptedAsker(confirm=False)
    window.menus.delete_action.trigger()
    assert asker.asked_to_delete == [total]
    qtbot.waitUntil(window.runner.is_idle)  # a deletion, had one been queued, is done
    assert window.desk._library.papers.count() == total


def test_8_the_question_names_the_count_and_can_be_turned_off(qtbot, window, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from paperdesk.gui.dialogs.questions import Asker

    seen = []

    def answer(box):
        seen.append(box.text())
        box.checkBox().setChecked(True)
        next(b for b in box.buttons() if b.text() == "Delete").click()

    monkeypatch.setattr(QMessageBox, "exec", answer)
    asker = Asker(window, window.settings)
    assert asker.confirm_delete(12) and seen == ["Delete these 12 papers from the library?"]
    assert asker.confirm_delete(3) and len(seen) == 1  # not asked again


# --- 9. keyboard ---------------------------------------------------------------------------
def test_9_digits_rate_ctrl_y_redoes_and_end_goes_to_the_last_paper(qtbot, window):
    paper_id = window.model.ids()[0]
    window.table.select_ids([paper_id], paper_id)
    window.table.setFocus()
    with changes(qtbot, window):
        qtbot.keyClick(window.table, Qt.Key.Key_4)
    assert window.desk._library.papers.get(paper_id).rating == 4
    undo(qtbot, window)
    with changes(qtbot, window):
        qtbot.keyClick(window.table, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert window.desk._library.papers.get(paper_id).rating == 4
    qtbot.keyClick(window.table, Qt.Key.Key_End)
    assert window.table.current_id() == window.model.ids()[-1]
    qtbot.keyClick(window.table, Qt.Key.Key_Home)
    assert window.table.current_id() == window.model.ids()[0]


def test_9_after_adding_a_tag_the_focus_goes_back_to_the_papers(qtbot, window):
    window.table.select_ids(window.model.ids()[:1], window.model.ids()[0])
    window.menus.add_tag_action.trigger()
    chips = window.detail.single.tags
    with changes(qtbot, window):
        qtbot.keyClicks(chips.input, "to-cite")
        qtbot.keyClick(chips.input, Qt.Key.Key_Return)
    assert QApplication.focusWidget() is window.table


# --- 10. layout and lasting counts ---------------------------------------------------------------
def test_10_titles_get_the_room_at_1400_and_nothing_clips_at_900(qtbot, window):
    chars = window.table.fontMetrics().averageCharWidth()
    window.resize(1400, 900)
    qtbot.waitUntil(lambda: window.table.columnWidth(Column.TITLE) >= 50 * chars)
    area = window.detail.scroll_area
    wide = area.viewport().width()
    window.resize(900, 600)
    qtbot.waitUntil(lambda: area.viewport().width() < wide)  # laid out at 900
    assert area.widget().width() <= area.viewport().width()


def test_10_the_status_bar_keeps_the_counts(qtbot, window):
    total = window.desk._library.papers.count()
    window.table.select_ids(window.model.ids()[:3], window.model.ids()[0])
    assert window.counts.text() == f"3 selected  ·  {total} listed  ·  {total} in library"
    with searched(qtbot, window):
        window.search_bar.set_text("graph")
    listed = window.model.rowCount()
    assert f"{listed} listed  ·  {total} in library" in window.counts.text()


# --- 11. export: a sensible folder and file name -------------------------------------------------
def test_11_export_starts_in_documents_then_the_last_folder_with_a_name_without_spaces(
    qtbot, window, tmp_path, monkeypatch
):
    from PySide6.QtWidgets import QFileDialog

    from paperdesk.gui.dialogs.questions import Asker

    assert file_stem("Reading group (ICML 2025)") == "reading-group-icml-2025"
    asked = []

    def save_dialog(parent, title, start, filters):
        asked.append(start)
        return str(tmp_path / "out" / "list.bib"), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_dialog)
    (tmp_path / "out").mkdir()
    asker = Asker(window, window.settings)
    assert (
        asker.save_path("Export", "reading-group.bib", "BibTeX (*.bib)")
        == tmp_path / "out" / "list.bib"
    )
    assert Path(asked[0]).name == "reading-group.bib"
    assert Path(asked[0]).parent != Path.cwd() or Path.cwd() == Path.home()
    asker.save_path("Export", "library.bib", "BibTeX (*.bib)")
    assert asked[1] == str(tmp_path / "out" / "library.bib")


def test_11_the_suggested_file_is_named_after_the_shortlist_without_spaces(qtbot, window):
    from paperdesk.core.scope import Scope
    from paperdesk.services.use_cases import exporting

    suggested = []

    class Recording(ScriptedAsker):
        def save_path(self, title, name, file_filter):
            suggested.append(name)

    window.panes.ask = Recording()
    window.transfers.ask_export_path(
        Scope.of_shortlist("Reading group"), "bibtex", exporting.Options()
    )
    assert suggested == ["reading-group.bib"]


# --- issue 11 (GUI): bulk edits, reads off the GUI thread -----------------------------------------
def test_a_bulk_status_is_shown_at_once_and_the_index_catches_up(qtbot, window, monkeypatch):
    import paperdesk.services.runtime.index_follower as follower

    monkeypatch.setattr(follower, "BULK_PAPERS", 5)  # the seeds stand in for 100,000 papers
    total = window.desk._library.papers.count()
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    with qtbot.waitSignal(window.catch_up.caught_up, timeout=60_000), changes(qtbot, window):
        qtbot.keyClick(window.table, Qt.Key.Key_S)
    statuses = {p.status for p in window.desk._library.papers.get_many(window.model.ids())}
    assert statuses == {Status.SKIMMED}
    assert len(searching.find_ids(window.desk, "status:skimmed").ids) == total
    assert window.desk._index.why_stale(window.desk._library.generation()) is None
    with qtbot.waitSignal(window.catch_up.caught_up, timeout=60_000):
        undo(qtbot, window)
    assert searching.find_ids(window.desk, "status:skimmed").ids == []
    assert window.desk._index.why_stale(window.desk._library.generation()) is None


def test_the_sidebar_counts_and_undo_labels_are_read_off_the_gui_thread(qtbot, window, monkeypatch):
    import threading

    from paperdesk.services.use_cases import history, stats

    threads = []
    overview, labels = stats.overview, history.labels
    monkeypatch.setattr(
        stats, "overview", lambda desk: threads.append(threading.current_thread()) or overview(desk)
    )
    monkeypatch.setattr(
        history, "labels", lambda desk: threads.append(threading.current_thread()) or labels(desk)
    )
    window.table.select_ids(window.model.ids()[:1], window.model.ids()[0])
    with changes(qtbot, window):
        window.commands.set_status(Status.READ)
    assert len(threads) == 2
    assert threading.main_thread() not in threads


def test_copy_citation_writes_the_style_chosen_in_preferences(qtbot, linked_library, tmp_path):
    from paperdesk.gui.dialogs.preferences import Preferences

    window = open_window(qtbot, linked_library, tmp_path / "s.ini")
    select_titled(window, "Web Paper")
    clipboard = QGuiApplication.clipboard()
    clipboard.clear()
    window.menus.copy_citation_action.trigger()  # APA until the user picks another
    qtbot.waitUntil(lambda: clipboard.text().startswith("Lovelace, A."), timeout=WAIT_MS)
    assert "Web Paper" in clipboard.text()
    window.show_preferences()
    dialog = window.preferences_dialog
    dialog.citation_style.setCurrentIndex(dialog.citation_style.findData("ieee"))
    dialog.accept()
    assert Preferences.load(window.settings).citation_style == "ieee"
    window.menus.copy_citation_action.trigger()
    qtbot.waitUntil(lambda: clipboard.text().startswith("[1] A. Lovelace"), timeout=WAIT_MS)
    assert "Copied 1 citation" in window.statusBar().currentMessage()


def test_open_pdf_opens_the_address_the_identifiers_give(
    qtbot, linked_library, tmp_path, opened_urls
):
    from paperdesk.services.use_cases import editing

    window = open_window(qtbot, linked_library, tmp_path / "s.ini")
    paper_id = select_titled(window, "Doi Paper")
    window.menus.open_pdf_action.trigger()  # a DOI alone names no PDF
    assert opened_urls == [] and "No PDF address" in window.statusBar().currentMessage()
    editing.edit_field(window.desk, paper_id, "arxiv", "1706.03762")
    window.menus.open_pdf_action.trigger()
    assert opened_urls == ["https://arxiv.org/pdf/1706.03762"]
