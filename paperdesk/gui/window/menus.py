"""The main window's actions, each with its shortcut, the menu bar that lists them and
the papers' right-click menu, made of the same actions.

The window keeps their texts and states current: what Undo and Redo would do, which
actions a shortlist's view offers, which coloured tags Alt+digit toggles, the sort.

Keys follow what reference managers and photo organisers taught users: a digit rates
(0 clears), a letter sets the status, Alt+digit toggles a coloured tag, Ctrl+Z / Ctrl+Y
(or Ctrl+Shift+Z) undo and redo, Enter opens the paper's web page.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Protocol

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar

from paperdesk.core.fields import RELEVANCE
from paperdesk.core.models import MAX_RATING, Status, UndoLabels
from paperdesk.core.scope import Kind, Scope
from paperdesk.core.team_url import TeamAddress
from paperdesk.gui.resources import icon
from paperdesk.gui.team.library import TeamLibrary
from paperdesk.gui.triage.mode import TriageMode
from paperdesk.gui.window.commands import Commands
from paperdesk.gui.window.demo_offer import DemoWindow, load_demo
from paperdesk.gui.window.detail_pane import DetailPane
from paperdesk.gui.window.paper_table import PaperTable
from paperdesk.gui.window.paper_table_model import COLUMN_SORT_KEYS, COLUMN_TITLES
from paperdesk.gui.window.search_bar import SearchBar
from paperdesk.gui.window.sidebar import STATUS_LABELS, Sidebar
from paperdesk.gui.window.table_sort import TableSort

STATUS_KEYS = {
    Status.NEW: "N",
    Status.SKIMMED: "S",
    Status.TO_READ: "T",
    Status.READ: "R",
    Status.DISCARDED: "X",
}


def redo_keys() -> list[QKeySequence]:
    """The platform's Redo keys, its own first (the one a menu shows), then Ctrl+Y and
    Ctrl+Shift+Z wherever it lacks them: people bring both habits from other programs."""
    keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
    for habit in ("Ctrl+Y", "Ctrl+Shift+Z"):
        if QKeySequence(habit) not in keys:
            keys.append(QKeySequence(habit))
    return keys


class MenuWindow(DemoWindow, Protocol):
    """What the menus act on: the main window (gui/window/main_window.py), which builds them."""

    @property
    def commands(self) -> Commands: ...
    @property
    def team(self) -> TeamLibrary: ...
    @property
    def triage(self) -> TriageMode: ...
    @property
    def search_bar(self) -> SearchBar: ...
    @property
    def detail(self) -> DetailPane: ...
    @property
    def sidebar(self) -> Sidebar: ...
    @property
    def table(self) -> PaperTable: ...
    @property
    def sort(self) -> TableSort: ...
    def choose_library(self) -> None: ...
    def switch_library(self, library: Path | TeamAddress) -> None: ...
    def show_preferences(self) -> None: ...
    def show_shortcuts(self) -> None: ...
    def sort_by_promise(self) -> None: ...
    def close(self, /) -> bool: ...
    def menuBar(self, /) -> QMenuBar: ...
    def addAction(self, action: QAction, /) -> None: ...
    def removeAction(self, action: QAction, /) -> None: ...


class WindowMenus:
    def __init__(self, window: MenuWindow) -> None:
        self.window = window
        self.tag_toggle_actions: list[QAction] = []
        self.sort_actions: dict[str, QAction] = {}
        self._build_actions()
        self._build_sort_actions()
        self._build_menus(window.menuBar())

    def _action(
        self,
        text: str,
        slot: Callable[[], object],
        shortcut: QKeySequence | str | None = None,
        icon_name: str | None = None,
    ) -> QAction:
        action = QAction(text, self.window.window())
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
        self.open_library_action = self._action(
            "&Open Library…", window.choose_library, QKeySequence(std.Open), "library"
        )
        self.connect_team_action = self._action(
            "Connect to &Team Library…", window.team.choose_team_library, None, "library"
        )
        self.import_action = self._action("&Import…", transfers.choose_import, "Ctrl+I", "import")
        self.add_by_identifier_action = self._action(
            "&Add by Identifier…", transfers.choose_identifiers, "Ctrl+Shift+I", "import"
        )
        self.export_action = self._action(
            "&Export…", transfers.open_export_dialog, "Ctrl+Shift+E", "export"
        )
        self.export_selection_action = self._action(
            "Export &Selection…", transfers.export_selection, None, "export"
        )
        self.demo_action = self._action("Load &Demo Papers", partial(load_demo, window))
        self.preferences_action = self._action(
            "&Preferences…", window.show_preferences, QKeySequence(std.Preferences)
        )
        self.quit_action = self._action("&Quit", window.close, QKeySequence(std.Quit))
        self.undo_action = self._action("&Undo", commands.undo, QKeySequence(std.Undo), "undo")
        self.redo_action = self._action("&Redo", commands.redo, None, "redo")
        self.redo_action.setShortcuts(redo_keys())
        # Their text names the action to undo; Help lists them by these fixed names.
        self.undo_action.setData("Undo")
        self.redo_action.setData("Redo")
        self.find_action = self._action("&Find", window.search_bar.focus, "Ctrl+F", "search")
        self.select_all_action = self._action("Select &All", commands.select_all, "Ctrl+A")
        self.duplicates_action = self._action("Find D&uplicates…", commands.find_duplicates)
        self.delete_action = self._action(
            "&Delete Papers…", commands.delete_selected, "Delete", "delete"
        )
        self.remove_from_shortlist_action = self._action(
            "Remove from &Shortlist", commands.remove_selected_from_shortlist
        )
        self.open_action = self._action("&Open Web Page", commands.open_selected, None, "link")
        self.open_pdf_action = self._action("Open &PDF", commands.open_pdf, "Ctrl+Shift+P", "link")
        self.copy_bibtex_action = self._action(
            "Copy as &BibTeX", commands.copy_as_bibtex, "Ctrl+Shift+C"
        )
        self.copy_key_action = self._action(
            "Copy Citation &Key", commands.copy_citation_keys, "Ctrl+Shift+K"
        )
        self.copy_title_action = self._action("Copy &Title", commands.copy_titles)
        self.copy_citation_action = self._action(
            "Copy &Citation", commands.copy_citation, "Ctrl+Alt+C"
        )
        self.rating_actions = [
            self._action(
                f"{n} Star{'s' if n != 1 else ''}" if n else "No Stars",
                partial(commands.set_rating, n),
                str(n),
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
        self.focus_sidebar_action = self._action("Go to Sidebar", window.sidebar.setFocus, "Ctrl+1")
        self.focus_table_action = self._action("Go to Papers", window.table.setFocus, "Ctrl+2")
        self.focus_detail_action = self._action(
            "Go to Details", window.detail.single.stars.setFocus, "Ctrl+3"
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
        self.conflicts_action = self._action("Screening &Conflicts…", commands.conflicts.show)
        self.promise_action = self._action("Sort by &Promise", window.sort_by_promise)
        self.more_like_action = self._action("&More Like This", commands.more_like_this, "Ctrl+M")
        self.highlight_action = self._action(
            "&Highlight Selected Passage…", commands.highlight_passage, "H"
        )
        self.highlight_words_action = self._action(
            "&Always Highlight Words…", commands.edit_highlight_words
        )

    def _build_sort_actions(self) -> None:
        """View > Sort By: relevance or any column, and the direction."""
        group = QActionGroup(self.window.window())
        names = {RELEVANCE: "Relevance"} | {
            key: COLUMN_TITLES[column] for column, key in COLUMN_SORT_KEYS.items()
        }
        for key, name in names.items():
            action = QAction(name, self.window.window())
            action.setCheckable(True)
            action.triggered.connect(lambda _checked=False, k=key: self.window.sort.by(k))
            group.addAction(action)
            self.sort_actions[key] = action
        self.descending_action = QAction("&Descending", self.window.window())
        self.descending_action.setCheckable(True)
        self.descending_action.triggered.connect(self.window.sort.set_descending)

    def _build_menus(self, bar: QMenuBar) -> None:
        file_menu = bar.addMenu("&File")
        file_menu.addAction(self.open_library_action)
        file_menu.addAction(self.connect_team_action)
        self.recent_menu = file_menu.addMenu("Open &Recent Library")
        file_menu.addSeparator()
        file_menu.addActions(
            [
                self.import_action,
                self.add_by_identifier_action,
                self.export_action,
                self.demo_action,
            ]
        )
        file_menu.addSeparator()
        file_menu.addActions([self.preferences_action, self.quit_action])
        edit_menu = bar.addMenu("&Edit")
        edit_menu.addActions([self.undo_action, self.redo_action])
        edit_menu.addSeparator()
        edit_menu.addActions([self.find_action, self.select_all_action])
        edit_menu.addSeparator()
        edit_menu.addActions(
            [
                self.copy_citation_action,
                self.copy_bibtex_action,
                self.copy_key_action,
                self.copy_title_action,
            ]
        )
        edit_menu.addSeparator()
        edit_menu.addActions([self.remove_from_shortlist_action, self.delete_action])
        edit_menu.addSeparator()
        edit_menu.addAction(self.duplicates_action)
        view_menu = bar.addMenu("&View")
        sort_menu = view_menu.addMenu("&Sort By")
        sort_menu.addActions(list(self.sort_actions.values()))
        sort_menu.addSeparator()
        sort_menu.addAction(self.descending_action)
        view_menu.addSeparator()
        view_menu.addActions(
            [self.focus_sidebar_action, self.focus_table_action, self.focus_detail_action]
        )
        paper_menu = bar.addMenu("&Paper")
        paper_menu.addActions([self.open_action, self.open_pdf_action])
        self.rating_menu = paper_menu.addMenu("&Rating")
        self.rating_menu.addActions(self.rating_actions)
        self.status_menu = paper_menu.addMenu("S&tatus")
        self.status_menu.addActions(self.status_actions)
        self.tag_menu = paper_menu.addMenu("Toggle &Coloured Tag")
        paper_menu.addActions([self.add_tag_action, self.edit_title_action, self.edit_note_action])
        paper_menu.addSeparator()
        paper_menu.addActions([self.add_to_shortlist_action, self.new_shortlist_action])
        paper_menu.addActions([self.move_up_action, self.move_down_action])
        paper_menu.addAction(self.save_search_action)
        triage_menu = bar.addMenu("T&riage")
        triage_menu.addActions([self.triage_action, self.statistics_action, self.conflicts_action])
        triage_menu.addSeparator()
        triage_menu.addActions([self.promise_action, self.more_like_action])
        triage_menu.addSeparator()
        triage_menu.addActions([self.highlight_action, self.highlight_words_action])
        help_menu = bar.addMenu("&Help")
        help_menu.addActions([self.shortcuts_action, self.syntax_action])
        self.show_coloured_tags({})
        self.show_recent_libraries([])

    def paper_menu(self, shortlists: list[str]) -> QMenu:
        """The right-click menu on papers: the menu bar's actions on the selection."""
        menu = QMenu(self.window.window())
        menu.addActions([self.open_action, self.open_pdf_action])
        menu.addSeparator()
        menu.addMenu(self.status_menu)
        menu.addMenu(self.rating_menu)
        tags = menu.addMenu(icon("tag"), "Tags")
        tags.addAction(self.add_tag_action)
        if self.tag_toggle_actions:
            tags.addSeparator()
            tags.addActions(self.tag_toggle_actions)
        lists = menu.addMenu(icon("shortlist"), "Add to Shortlist")
        for name in shortlists:
            lists.addAction(name, partial(self.window.commands.add_selection_to_shortlist, name))
        if shortlists:
            lists.addSeparator()
        lists.addAction("New Shortlist…", self.window.commands.ask_new_shortlist_from_selection)
        if self.remove_from_shortlist_action.isEnabled():
            menu.addAction(self.remove_from_shortlist_action)
        menu.addSeparator()
        menu.addActions(
            [
                self.copy_citation_action,
                self.copy_bibtex_action,
                self.copy_key_action,
                self.copy_title_action,
            ]
        )
        menu.addAction(self.export_selection_action)
        menu.addSeparator()
        menu.addAction(self.delete_action)
        return menu

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

    def show_sort(self, key: str, descending: bool) -> None:
        if key in self.sort_actions:
            self.sort_actions[key].setChecked(True)
        self.descending_action.setChecked(descending)
        self.descending_action.setEnabled(key != RELEVANCE)

    def show_recent_libraries(self, libraries: list[Path | TeamAddress]) -> None:
        self.recent_menu.clear()
        for library in libraries:
            name = library.masked if isinstance(library, TeamAddress) else str(library)
            self.recent_menu.addAction(name, partial(self.window.switch_library, library))
        self.recent_menu.setEnabled(bool(libraries))

    def show_coloured_tags(self, keys: dict[str, int]) -> None:
        """One toggle action per coloured tag, on Alt and its digit."""
        commands = self.window.commands
        for action in self.tag_toggle_actions:
            self.window.removeAction(action)
            action.deleteLater()
        self.tag_menu.clear()
        self.tag_toggle_actions = []
        for name, number in sorted(keys.items(), key=lambda item: item[1]):
            action = self._action(
                f"Toggle tag {name}", partial(commands.toggle_tag, name), f"Alt+{number}"
            )
            self.tag_toggle_actions.append(action)
            self.tag_menu.addAction(action)
        if not self.tag_toggle_actions:
            placeholder = self.tag_menu.addAction("Give tags a colour to toggle them with Alt+1–9")
            placeholder.setEnabled(False)

    def show_undo_labels(self, labels: UndoLabels) -> None:
        self.undo_action.setText(f"&Undo {labels.undo}" if labels.undo else "&Undo")
        self.redo_action.setText(f"&Redo {labels.redo}" if labels.redo else "&Redo")
        self.undo_action.setEnabled(labels.undo is not None)
        self.redo_action.setEnabled(labels.redo is not None)
