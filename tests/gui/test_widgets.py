"""The small widgets of the detail pane and the search bar, driven as a user would."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLineEdit, QWidget

from paperdesk.gui.widgets.help_overlay import HelpOverlay
from paperdesk.gui.widgets.star_rating import STAR_GOLD, StarRating
from paperdesk.gui.widgets.tag_chips import TagChips, readable_text_colour, split_tag_input
from paperdesk.gui.window.note_editor import SAVE_DELAY_MS, NoteEditor
from paperdesk.gui.window.search_bar import SearchBar


# --- stars ----------------------------------------------------------------------------
def star_centre(widget: StarRating, star: int) -> QPoint:
    return widget._star_rect(star - 1).center().toPoint()


def test_clicking_the_fourth_star_rates_four_and_clicking_it_again_clears(qtbot):
    stars = StarRating()
    qtbot.addWidget(stars)
    with qtbot.waitSignal(stars.rating_changed) as changed:
        qtbot.mouseClick(stars, Qt.MouseButton.LeftButton, pos=star_centre(stars, 4))
    assert changed.args == [4] and stars.rating() == 4
    with qtbot.waitSignal(stars.rating_changed) as changed:
        qtbot.mouseClick(stars, Qt.MouseButton.LeftButton, pos=star_centre(stars, 4))
    assert changed.args == [0]


def test_keys_rate_without_the_mouse(qtbot):
    stars = StarRating()
    qtbot.addWidget(stars)
    seen = []
    stars.rating_changed.connect(seen.append)
    qtbot.keyClick(stars, Qt.Key.Key_3)
    qtbot.keyClick(stars, Qt.Key.Key_Right)
    qtbot.keyClick(stars, Qt.Key.Key_Right)
    qtbot.keyClick(stars, Qt.Key.Key_Right)  # already 5: no change reported
    qtbot.keyClick(stars, Qt.Key.Key_Left)
    qtbot.keyClick(stars, Qt.Key.Key_0)
    assert seen == [3, 4, 5, 4, 0]


def test_setting_the_rating_from_code_is_not_reported_as_a_user_change(qtbot):
    stars = StarRating()
    qtbot.addWidget(stars)
    with qtbot.assertNotEmitted(stars.rating_changed):
        stars.set_rating(2)
    assert stars.rating() == 2
    assert "2 of 5" in stars.toolTip()


def test_a_rating_waiting_for_the_server_shows_hollow_with_its_reason(qtbot):
    stars = StarRating()
    qtbot.addWidget(stars)
    stars.set_rating(2)
    stored = stars.grab().toImage()
    stars.set_pending(4)
    assert stars.rating() == 4
    assert "4 of 5" in stars.toolTip() and "waiting for the server" in stars.toolTip()
    pending = stars.grab().toImage()
    stars.set_rating(4)  # what the server took: solid gold again, no reason
    solid = stars.grab().toImage()
    assert "waiting" not in stars.toolTip()
    # The third star: empty when stored at 2, faint while 4 waits, gold once stored.
    centre = star_centre(stars, 3)
    shades = [image.pixelColor(centre) for image in (stored, pending, solid)]
    assert shades[0] != shades[1] != shades[2] and shades[2] == STAR_GOLD
    # Keys and clicks start from the rating shown.
    with qtbot.waitSignal(stars.rating_changed) as changed:
        stars.set_pending(3)
        qtbot.keyClick(stars, Qt.Key.Key_Right)
    assert changed.args == [4]


# --- tag chips ------------------------------------------------------------------------
def test_tag_input_splits_on_commas():
    assert split_tag_input(" a, b/c ,, d ") == ["a", "b/c", "d"]


def test_chip_text_stays_readable_on_dark_and_light_tag_colours():
    from PySide6.QtGui import QColor

    assert readable_text_colour(QColor("#111111")).name() == "#ffffff"
    assert readable_text_colour(QColor("#ffee88")).name() == "#000000"


def test_typing_a_tag_and_enter_adds_it_once(qtbot):
    chips = TagChips()
    qtbot.addWidget(chips)
    chips.set_tags(["rnn"])
    added = []
    chips.tag_added.connect(added.append)
    qtbot.keyClicks(chips.input, "RNN, speech, speech")
    qtbot.keyClick(chips.input, Qt.Key.Key_Return)
    assert added == ["speech"]
    assert chips.input.text() == ""


def test_a_tag_some_selected_papers_lack_can_still_be_added(qtbot):
    chips = TagChips()
    qtbot.addWidget(chips)
    chips.set_tags(["rnn", "ml"], counts={"rnn": 1, "ml": 3}, of_total=3)
    assert [chip.label.text() for chip in chips._chips] == ["ml", "rnn  1/3"]
    added = []
    chips.tag_added.connect(added.append)
    qtbot.keyClicks(chips.input, "rnn, ml")
    qtbot.keyClick(chips.input, Qt.Key.Key_Return)
    assert added == ["rnn"]


def test_the_remove_button_on_a_chip_removes_that_tag(qtbot):
    chips = TagChips()
    qtbot.addWidget(chips)
    chips.set_tags(["vision", "rnn"], colours={"rnn": "#aa0000"})
    assert chips.tags() == ["rnn", "vision"]
    with qtbot.waitSignal(chips.tag_removed) as removed:
        qtbot.mouseClick(chips._chips[1].remove_button, Qt.MouseButton.LeftButton)
    assert removed.args == ["vision"]


def test_the_completer_offers_existing_tags_containing_the_typed_text(qtbot):
    chips = TagChips()
    qtbot.addWidget(chips)
    chips.set_known_tags(["ml/vision", "ml/rnn", "speech"])
    completer = chips.completer()
    completer.setCompletionPrefix("ml/")
    completions = completer.completionModel()
    offered = [completions.index(i, 0).data() for i in range(completer.completionCount())]
    assert offered == ["ml/rnn", "ml/vision"]
    completer.setCompletionPrefix("ision")
    assert completer.currentCompletion() == "ml/vision"


# --- note editor ----------------------------------------------------------------------
def test_note_saves_after_typing_pauses(qtbot):
    editor = NoteEditor()
    qtbot.addWidget(editor)
    editor.show_note(1, "old")
    saves = []
    editor.save_requested.connect(lambda pid, text, _base: saves.append((pid, text)))
    editor.editor.setFocus()
    editor.editor.moveCursor(editor.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(editor.editor, " and new")
    assert saves == []
    qtbot.waitUntil(lambda: saves == [(1, "old and new")], timeout=SAVE_DELAY_MS * 5)


def test_switching_papers_saves_the_previous_note_at_once(qtbot):
    editor = NoteEditor()
    qtbot.addWidget(editor)
    editor.show_note(1, "")
    saves = []
    editor.save_requested.connect(lambda pid, text, _base: saves.append((pid, text)))
    qtbot.keyClicks(editor.editor, "read section 3")
    editor.show_note(2, "second paper's note")
    assert saves == [(1, "read section 3")]
    assert editor.text() == "second paper's note"


def test_focus_out_and_flush_save_without_waiting(qtbot):
    editor = NoteEditor()
    other = QLineEdit()
    holder = QWidget()
    qtbot.addWidget(holder)
    editor.setParent(holder)
    other.setParent(holder)
    holder.show()
    holder.activateWindow()
    qtbot.waitUntil(holder.isActiveWindow)
    editor.show_note(4, "")
    saves = []
    editor.save_requested.connect(lambda pid, text, _base: saves.append((pid, text)))
    editor.editor.setFocus()
    qtbot.waitUntil(editor.editor.hasFocus)
    qtbot.keyClicks(editor.editor, "x")
    other.setFocus()
    qtbot.waitUntil(lambda: saves == [(4, "x")], timeout=SAVE_DELAY_MS // 2)
    editor.flush()  # nothing new to save
    assert saves == [(4, "x")]


def test_a_store_refresh_never_overwrites_text_being_typed(qtbot):
    editor = NoteEditor()
    qtbot.addWidget(editor)
    editor.show_note(1, "")
    qtbot.keyClicks(editor.editor, "typing")
    editor.show_note(1, "stale text from the store")
    assert editor.text() == "typing"
    saves = []
    editor.save_requested.connect(lambda pid, text, _base: saves.append((pid, text)))
    editor.flush()
    assert saves == [(1, "typing")]
    editor.show_note(1, "typing and an undo elsewhere")
    assert editor.text() == "typing and an undo elsewhere"


def test_a_failed_save_is_retried_on_the_next_flush(qtbot):
    editor = NoteEditor()
    qtbot.addWidget(editor)
    editor.show_note(1, "")
    saves = []
    editor.save_requested.connect(lambda pid, text, _base: saves.append((pid, text)))
    qtbot.keyClicks(editor.editor, "keep me")
    editor.flush()
    editor.note_drafts.keep(1, "keep me", "")  # what the save action does when it fails
    editor.flush()
    assert saves == [(1, "keep me"), (1, "keep me")]


def test_preview_renders_markdown_without_interpreting_html(qtbot):
    editor = NoteEditor()
    qtbot.addWidget(editor)
    editor.show_note(1, "**bold** <b>raw</b>")
    editor.setCurrentWidget(editor.preview)
    shown = editor.preview.toPlainText()
    assert "bold" in shown and "**" not in shown
    assert "<b>raw</b>" in shown


# --- search bar -----------------------------------------------------------------------
def test_typing_emits_one_query_after_the_pause(qtbot):
    bar = SearchBar()
    qtbot.addWidget(bar)
    queries = []
    bar.query_changed.connect(queries.append)
    qtbot.keyClicks(bar.field, "graph")
    assert queries == []
    qtbot.waitUntil(lambda: queries == ["graph"], timeout=2000)


def test_result_count_error_and_suggestion_are_shown(qtbot):
    bar = SearchBar()
    qtbot.addWidget(bar)
    bar.show()
    bar.show_result(12, 3006)
    assert bar.count_label.text() == "12 of 3,006 papers"
    assert bar.message.isHidden()
    bar.show_error("Unbalanced parenthesis after 'graph ('")
    assert bar.message.isVisible() and "Unbalanced" in bar.message.text()
    assert bar.field.property("invalid") is True
    bar.show_result(0, 3006, suggestion="graph")
    assert "Did you mean" in bar.message.text()
    queries = []
    bar.query_changed.connect(queries.append)
    bar.message.linkActivated.emit("suggest")
    assert bar.field.text() == "graph" and queries == ["graph"]


def test_the_cheat_sheet_is_one_click_away(qtbot):
    bar = SearchBar()
    qtbot.addWidget(bar)
    bar.show()
    qtbot.mouseClick(bar.help_button, Qt.MouseButton.LeftButton)
    assert bar.cheat_sheet is not None and bar.cheat_sheet.isVisible()


def test_the_help_overlay_lays_its_keys_out_only_when_shown(qtbot):
    # Issue 21 item 6: every resize of the triage view laid the hidden keys' table out,
    # 80 ms of the GUI thread when triage was first shown.
    parent = QWidget()
    qtbot.addWidget(parent)
    overlay = HelpOverlay("Keys", [("Navigation", ""), ("J", "next paper")], parent)
    laid_out: list[bool] = []
    adjust = overlay.panel.adjustSize
    overlay.panel.adjustSize = lambda: (laid_out.append(True), adjust())[1]
    parent.resize(600, 400)
    parent.show()
    qtbot.waitExposed(parent)
    assert laid_out == []
    overlay.open()
    assert laid_out == [True] and overlay.geometry() == parent.rect()
    parent.resize(800, 500)
    qtbot.waitUntil(lambda: overlay.geometry() == parent.rect())
    panel = overlay.panel.geometry()
    assert abs(panel.center().x() - 400) <= 1 and abs(panel.center().y() - 250) <= 1
