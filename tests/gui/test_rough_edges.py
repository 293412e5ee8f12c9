"""The rough edges a newcomer met in the window (issue 25, "What was seen" 5)."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QStyle,
    QStyleOptionViewItem,
    QToolButton,
    QWidget,
)

from paperdesk.core.models import MAX_RATING
from paperdesk.core.scope import Kind, Scope
from paperdesk.gui.actions import shortlists, tags
from paperdesk.gui.dialogs.questions import Asker
from paperdesk.gui.widgets.tag_chips import TagChip, TagChips
from paperdesk.gui.window.paper_table_model import Column, rating_text
from paperdesk.services.use_cases import searching
from tests.gui.conftest import open_window
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
    qtbot.waitUntil(window.runner.is_idle, timeout=WAIT_MS)  # a deletion queued has run
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
    qtbot.waitUntil(window.runner.is_idle, timeout=WAIT_MS)  # a search queued has answered
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


@pytest.fixture
def large_font(qapp):
    before = QFont(qapp.font())
    font = QFont(before)
    font.setPointSize(16)
    qapp.setFont(font)
    yield font
    qapp.setFont(before)


def text_room(table, column: Column) -> int:
    """The width a cell of `column` leaves its text (the item view's margins off)."""
    margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1
    return table.horizontalHeader().sectionSize(column) - 2 * margin


def test_columns_follow_the_font(qtbot, seeded_library, tmp_path, large_font):
    # Issue 25: at a large font the Year column showed "20…".
    window = open_window(qtbot, seeded_library, tmp_path / "settings.ini")
    table = window.table
    window.resize(1400, 900)
    qtbot.waitUntil(lambda: table.width() > 500)
    metrics = table.fontMetrics()
    assert metrics.height() > QFontMetrics(QFont("DejaVu Sans", 9)).height()
    assert metrics.horizontalAdvance("2025") <= text_room(table, Column.YEAR)
    assert metrics.horizontalAdvance(rating_text(MAX_RATING)) <= text_room(table, Column.RATING)
    assert table.horizontalScrollBar().maximum() == 0
    window.grab().save(str(tmp_path / "large-font-1400x900.png"))


def test_columns_fit_a_small_window_and_follow_a_font_change(qtbot, window, qapp, tmp_path):
    # Issue 25: at 900×600 four columns needed sideways scrolling.
    table, header = window.table, window.table.horizontalHeader()
    window.resize(900, 600)
    qtbot.waitUntil(lambda: window.width() == 900)
    QApplication.processEvents()
    window.grab().save(str(tmp_path / "900x600.png"))
    assert table.horizontalScrollBar().maximum() == 0
    assert header.sectionSize(Column.TITLE) == max(header.sectionSize(c) for c in Column)
    # A font made larger while the window is open (Preferences) widens the year.
    window.resize(1400, 900)
    font = QFont(qapp.font())
    font.setPointSize(18)
    table.setFont(font)
    QApplication.processEvents()
    assert table.fontMetrics().horizontalAdvance("2025") <= text_room(table, Column.YEAR)


def test_the_triage_query_box_shows_the_query_from_its_start(qtbot, window, tmp_path):
    # Issue 25: at 1000×700 it showed "nforcement learning".
    from tests.gui.test_triage_view import enter_triage

    window.resize(1000, 700)
    query = "reinforcement learning"
    with qtbot.waitSignal(window.search_applied, timeout=WAIT_MS):
        window.search_bar.set_text(query)
    view = enter_triage(qtbot, window)
    box = view.header.query
    QApplication.processEvents()
    window.grab().save(str(tmp_path / "triage-1000x700.png"))
    assert box.text() == query
    assert box.cursorPosition() == 0
    # Whole, with room to spare for the clear button and the frame.
    assert box.fontMetrics().horizontalAdvance(query) <= box.width() - 60


def test_tag_chips_replaced_by_a_live_update_are_never_drawn_under_the_new_ones(qtbot):
    # Issue 25: after live updates a chip was drawn over another: the chips replaced
    # stayed on screen until Qt got round to deleting them.
    chips = TagChips()
    qtbot.addWidget(chips)
    chips.resize(400, 80)
    chips.show()
    chips.set_tags(["alpha", "beta"])
    qtbot.waitUntil(lambda: all(chip.isVisible() for chip in chips._chips))
    replaced = list(chips._chips)
    chips.set_tags(["beta", "gamma"])  # as a refresh does
    # Before Qt deletes them (deleteLater) the chips replaced must be off screen already.
    assert not any(chip.isVisible() for chip in replaced)
    qtbot.waitUntil(lambda: all(chip.isVisible() for chip in chips._chips))
    shown = [c for c in chips.findChildren(TagChip) if c.isVisible()]
    assert sorted(c.name for c in shown) == ["beta", "gamma"]
    for i, one in enumerate(shown):
        for other in shown[i + 1 :]:
            assert not one.geometry().intersects(other.geometry())


def test_files_handed_over_by_the_menu_entry_are_imported_once_the_library_is_open(
    qtbot, seeded_library, tmp_path, monkeypatch
):
    # Issue 25: the menu entry's Exec had no %F; `paperdesk --import FILE...` takes them.
    from paperdesk.cli.parser import build_parser
    from paperdesk.gui.app import import_once_open
    from paperdesk.gui.window.main_window import MainWindow
    from paperdesk.services.runtime.desk import Desk

    assert build_parser().parse_args(["--import", "a.bib", "b.csv"]).import_files == [
        "a.bib",
        "b.csv",
    ]
    assert build_parser().parse_args(["--import"]).import_files == []  # %F with no file
    source = tmp_path / "one.bib"
    source.write_text(
        "@inproceedings{k, title={A Handed Over Paper}, author={Doe, Jane}, year={2025}}\\n",
        encoding="utf-8",
    )
    with Desk.open(seeded_library) as desk:
        before = desk._library.papers.count()
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(seeded_library, settings, offer_demo=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.close())
    import_once_open(window, [source])
    window.show()
    qtbot.waitUntil(
        lambda: window.desk is not None and window.desk._library.papers.count() == before + 1,
        timeout=60_000,
    )


def test_the_sidebar_labels_are_not_cut_at_a_large_font(
    qtbot, qapp, seeded_library, tmp_path, large_font
):
    # Issue 25: at font size 16 in 1400×900 the sidebar showed "Skim…" and "Screenin…".
    window = open_window(qtbot, seeded_library, tmp_path / "settings.ini")
    window.resize(1400, 900)
    sidebar = window.sidebar
    qtbot.waitUntil(lambda: sidebar.model_.rowCount() > 0)

    def labels_whole() -> bool:
        option = QStyleOptionViewItem()
        sidebar.initViewItemOption(option)
        return all(
            sidebar.itemDelegate().sizeHint(option, index).width()
            <= sidebar.visualRect(index).width()
            for index, _depth in sidebar.fixed_entries()
        )

    labels = {index.data() for index, _depth in sidebar.fixed_entries()}
    assert {"All papers", "Skimmed", "Discarded", "Screenings", "Saved searches"} <= labels
    qtbot.waitUntil(labels_whole, timeout=2000)  # once the splitter laid the panes out
    window.grab().save(str(tmp_path / "sidebar-font-16-1400x900.png"))
    # Larger still, while the window is open (Preferences' font size).
    font = QFont(large_font)
    font.setPointSize(22)
    qapp.setFont(font)
    qtbot.waitUntil(labels_whole, timeout=2000)


def placeholder_room(field) -> int:
    """The width the field leaves its placeholder: between the icons drawn inside it."""
    buttons = [b.geometry() for b in field.findChildren(QToolButton) if b.isVisibleTo(field)]
    middle = field.width() / 2
    left = max([b.right() + 1 for b in buttons if b.center().x() < middle], default=0)
    right = min([b.left() for b in buttons if b.center().x() > middle], default=field.width())
    return right - left - 4  # QLineEdit's own margin each side


@pytest.mark.parametrize("points", [12, 16, 22])
def test_the_search_field_shows_its_whole_placeholder_at_a_large_font(
    qtbot, qapp, seeded_library, tmp_path, points
):
    # Issue 25: at font size 16 in 1400×900 the search field's placeholder was cut.
    before = QFont(qapp.font())
    font = QFont(before)
    font.setPointSize(points)
    qapp.setFont(font)
    try:
        window = open_window(qtbot, seeded_library, tmp_path / "settings.ini")
        window.resize(1400, 900)
        field, count = window.search_bar.field, window.search_bar.count_label
        qtbot.waitUntil(lambda: count.text() != "" and field.width() > 300)
        qtbot.wait(300)  # the splitter lays the panes out
        window.grab().save(str(tmp_path / f"search-font-{points}-1400x900.png"))
        needed = field.fontMetrics().horizontalAdvance(field.placeholderText())
        assert needed <= placeholder_room(field)
        assert count.fontMetrics().horizontalAdvance(count.text()) <= count.width()
        if points == 12:
            assert field.placeholderText().endswith("year:2024..2025)")
    finally:
        qapp.setFont(before)


def test_more_like_this_lists_similar_papers_at_once_while_the_ranking_reads(
    qtbot, window, monkeypatch, tmp_path
):
    # Issue 25: on a fresh library More Like This showed nothing for 8 s, while the
    # ranking process read every abstract.
    first = window.model.id_at(0)
    window.table.select_ids([first], first)
    ranking_may_answer = threading.Event()
    ranking_more_like = window.desk.promise.more_like

    def held_back(paper_id: int, limit: int) -> list[int]:
        assert ranking_may_answer.wait(60)
        return ranking_more_like(paper_id, limit)

    monkeypatch.setattr(window.desk.promise, "more_like", held_back)
    window.menus.more_like_action.trigger()
    assert window.statusBar().currentMessage() == "Finding similar papers…"
    first_answer = [first, *searching.similar_ids(window.desk, first, 30)]
    assert len(first_answer) > 5
    qtbot.waitUntil(lambda: window.model.ids() == first_answer, timeout=WAIT_MS)
    assert window.statusBar().currentMessage().endswith("finding similar papers…")
    window.grab().save(str(tmp_path / "more-like-this-first-answer.png"))
    ranking_may_answer.set()
    qtbot.waitUntil(
        lambda: window.statusBar().currentMessage().endswith("most alike first"),
        timeout=60_000,
    )
    # The table lists the ranking's order once its listing is read (off the GUI thread).
    refined = [first, *ranking_more_like(first, 30)]
    assert refined != first_answer
    qtbot.waitUntil(lambda: window.model.ids() == refined, timeout=WAIT_MS)
