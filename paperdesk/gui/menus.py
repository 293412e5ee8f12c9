"""The main window's actions, each with its shortcut, and the menu bar that lists them.

The window keeps their texts and states current: what Undo and Redo would do, which
actions a shortlist's view offers, which coloured tags the digit keys toggle.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenuBar

from paperdesk.core.models import MAX_RATING, Status, UndoLabels
from paperdesk.core.scope import Kind, Scope
from paperdesk.gui.resources import icon
from paperdesk.gui.sidebar import STATUS_LABELS

if TYPE_CHECKING:  # the window builds its menus; only the type is needed here
    from paperdesk.gui.main_window import MainWindow

STATUS_KEYS = {
    Status.NEW: "N",
    Status.SKIMMED: "S",
    Status.TO_READ: "T",
    Status.READ: "R",
    Status.DISCARDED: "X",
}


class WindowMenus:
    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.tag_toggle_actions: list[QAction] = []
        self._build_actions()
        self._build_menus(window.menuBar())

    def _action(
        self,
        text: str,
        slot: Callable[[], object],
        shortcut: QKeySequence | str | None = None,
        icon_name: str | None = None,
    ) -> QAction:
        action = QAction(text, self.window)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        if icon_name:
            action.setIcon(icon(icon_name))
        action.triggered.connect(lambda _checked=False: slot())
        # Added to the window, so its shortcut works wherever the focus is.
        self.window.addAction(action)
        return action

    def _build_actions(self) -> None:
        std = QKeySequence.StandardKey
        window = self.window
        commands, transfers = window.commands, window.transfers
        self.import_action = self._action("&Import…", transfers.choose_import, "Ctrl+I", "import")
        self.export_action = self._action(
            "&Export…", transfers.open_export_dialog, "Ctrl+Shift+E", "export"
        )
        self.demo_action = self._action("Load &Demo Papers", window.load_demo)
        self.quit_action = self._action("&Quit", window.close, QKeySequence(std.Quit))
        self.undo_action = self._action("&Undo", commands.undo, QKeySequence(std.Undo), "undo")
        self.redo_action = self._action("&Redo", commands.redo, "Ctrl+Shift+Z", "redo")
        # Their text names the action to undo; Help lists them by these fixed names.
        self.undo_action.setData("Undo")
        self.redo_action.setData("Redo")
        self.find_action = self._action("&Find", window.search_bar.focus, "Ctrl+F", "search")
        self.select_all_action = self._action("Select &All", commands.select_all, "Ctrl+A")
        self.delete_action = self._action(
            "&Delete Papers", commands.delete_selected, "Delete", "delete"
        )
        self.remove_from_shortlist_action = self._action(
            "Remove from &Shortlist", commands.remove_selected_from_shortlist
        )
        self.relevance_action = self._action("Sort by &Relevance", window.sort_by_relevance)
        self.rating_actions = [
            self._action(
                f"{n} Star{'s' if n != 1 else ''}" if n else "No Stars",
                partial(commands.set_rating, n),
                f"Ctrl+{n}",
            )
            for n in range(MAX_RATING + 1)
        ]
        self.status_actions = [
            self._action(
                STATUS_LABELS[status],
                partial(commands.set_status, status),
                STATUS_KEYS[status],
                f"status-{status.value}",
            )
            for status in Status
        ]
        self.add_tag_action = self._action("Add &Tag…", window.detail.focus_tags, "Ctrl+T", "tag")
        self.edit_title_action = self._action("Edit T&itle", window.detail.edit_title, "F2", "edit")
        self.edit_note_action = self._action("Edit &Note", window.detail.focus_note, "Ctrl+E")
        self.add_to_shortlist_action = self._action(
            "Add to &Shortlist…", commands.choose_shortlist_for_selection, "Ctrl+L", "shortlist"
        )
        self.new_shortlist_action = self._action("&New Shortlist…", commands.ask_new_shortlist)
        self.move_up_action = self._action(
            "Move &Up in Shortlist", partial(commands.move_selected_in_shortlist, -1), "Alt+Up"
        )
        self.move_down_action = self._action(
            "Move Do&wn in Shortlist", partial(commands.move_selected_in_shortlist, 1), "Alt+Down"
        )
        self.save_search_action = self._action(
            "Save &Search…", commands.ask_save_search, "Ctrl+Shift+S", "saved-search"
        )
        self.focus_sidebar_action = self._action("Go to Sidebar", window.sidebar.setFocus, "Alt+1")
        self.focus_table_action = self._action("Go to Papers", window.table.setFocus, "Alt+2")
        self.focus_detail_action = self._action(
            "Go to Details", window.detail.single.stars.setFocus, "Alt+3"
        )
        self.shortcuts_action = self._action(
            "&Keyboard Shortcuts", window.show_shortcuts, "F1", "keyboard"
        )
        self.syntax_action = self._action(
            "Search &Syntax", window.search_bar.show_cheat_sheet, None, "cheat-sheet"
        )
        self._build_triage_actions()

    def _build_triage_actions(self) -> None:
        """Triage (issue 10): the mode, its statistics, the learnt order, marked passages."""
        window, commands = self.window, self.window.commands
        self.triage_action = self._action("&Triage Mode", window.triage.toggle, "Ctrl+Shift+T")
        self.statistics_action = self._action(
            "Triage &Statistics", commands.show_statistics, "Ctrl+Shift+G"
        )
        self.promise_action = self._action("Sort by &Promise", window.sort_by_promise)
        self.more_like_action = self._action("&More Like This", commands.more_like_this, "Ctrl+M")
        self.highlight_action = self._action(
            "&Highlight Selected Passage…", commands.highlight_passage, "H"
        )
        self.highlight_words_action = self._action(
            "&Always Highlight Words…", commands.edit_highlight_words
        )

    def _build_menus(self, bar: QMenuBar) -> None:
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.import_action, self.export_action, self.demo_action])
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = bar.addMenu("&Edit")
        edit_menu.addActions([self.undo_action, self.redo_action])
        edit_menu.addSeparator()
        edit_menu.addActions([self.find_action, self.select_all_action])
        edit_menu.addSeparator()
        edit_menu.addActions([self.remove_from_shortlist_action, self.delete_action])
        view_menu = bar.addMenu("&View")
        view_menu.addAction(self.relevance_action)
        view_menu.addSeparator()
        view_menu.addActions(
            [self.focus_sidebar_action, self.focus_table_action, self.focus_detail_action]
        )
        paper_menu = bar.addMenu("&Paper")
        rating_menu = paper_menu.addMenu("&Rating")
        rating_menu.addActions(self.rating_actions)
        status_menu = paper_menu.addMenu("S&tatus")
        status_menu.addActions(self.status_actions)
        self.tag_menu = paper_menu.addMenu("Toggle &Coloured Tag")
        paper_menu.addActions([self.add_tag_action, self.edit_title_action, self.edit_note_action])
        paper_menu.addSeparator()
        paper_menu.addActions([self.add_to_shortlist_action, self.new_shortlist_action])
        paper_menu.addActions([self.move_up_action, self.move_down_action])
        paper_menu.addAction(self.save_search_action)
        triage_menu = bar.addMenu("T&riage")
        triage_menu.addActions([self.triage_action, self.statistics_action])
        triage_menu.addSeparator()
        triage_menu.addActions([self.promise_action, self.more_like_action])
        triage_menu.addSeparator()
        triage_menu.addActions([self.highlight_action, self.highlight_words_action])
        help_menu = bar.addMenu("&Help")
        help_menu.addActions([self.shortcuts_action, self.syntax_action])
        self.show_coloured_tags({})

    def show_scope(self, scope: Scope) -> None:
        # In a shortlist, Delete takes papers off the list (a playlist habit), not the library.
        in_shortlist = scope.kind == Kind.SHORTLIST
        self.remove_from_shortlist_action.setShortcut(
            QKeySequence("Delete" if in_shortlist else "")
        )
        self.delete_action.setShortcut(QKeySequence("Shift+Delete" if in_shortlist else "Delete"))
        for action in (
            self.remove_from_shortlist_action,
            self.move_up_action,
            self.move_down_action,
        ):
            action.setEnabled(in_shortlist)

    def show_coloured_tags(self, keys: dict[str, int]) -> None:
        """One toggle action per coloured tag, on its digit key."""
        commands = self.window.commands
        for action in self.tag_toggle_actions:
            self.window.removeAction(action)
            action.deleteLater()
        self.tag_menu.clear()
        self.tag_toggle_actions = []
        for name, number in sorted(keys.items(), key=lambda item: item[1]):
            action = self._action(
                f"Toggle tag {name}", partial(commands.toggle_tag, name), str(number)
            )
            self.tag_toggle_actions.append(action)
            self.tag_menu.addAction(action)
        if not self.tag_toggle_actions:
            placeholder = self.tag_menu.addAction("Give tags a colour to toggle them with 1–9")
            placeholder.setEnabled(False)

    def show_undo_labels(self, labels: UndoLabels) -> None:
        self.undo_action.setText(f"&Undo {labels.undo}" if labels.undo else "&Undo")
        self.redo_action.setText(f"&Redo {labels.redo}" if labels.redo else "&Redo")
        self.undo_action.setEnabled(labels.undo is not None)
        self.redo_action.setEnabled(labels.redo is not None)
