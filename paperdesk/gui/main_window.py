"""The main window: sidebar | search bar + paper table | detail pane.

The window owns no data. It asks services for ids and rows, sends every user action to
the writer thread as one small function (`perform`), and routes the `Changes` each
action returns to the panes that show what changed (DESIGN §5, §6).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.changes import Changes
from paperdesk.core.errors import PaperdeskError, QueryError
from paperdesk.core.models import MAX_RATING, Paper, Status
from paperdesk.gui.detail_pane import DetailPane
from paperdesk.gui.dialogs import (
    Asker,
    DemoOfferDialog,
    ErrorReporter,
    ImportReportDialog,
    ShortcutsDialog,
)
from paperdesk.gui.listing import Listing, list_papers
from paperdesk.gui.paper_table import PaperTable
from paperdesk.gui.paper_table_model import PaperTableModel, moved_order
from paperdesk.gui.resources import app_icon, icon, style_sheet
from paperdesk.gui.search_bar import SearchBar
from paperdesk.gui.sidebar import (
    STATUS_LABELS,
    Kind,
    Scope,
    Sidebar,
    SidebarData,
    coloured_tag_keys,
)
from paperdesk.gui.tasks import Job, TaskRunner
from paperdesk.services import (
    demo,
    editing,
    history,
    importing,
    notes,
    saved,
    shortlists,
    tagging,
)
from paperdesk.services.desk import Desk

log = logging.getLogger(__name__)

STATUS_KEYS = {
    Status.NEW: "N",
    Status.SKIMMED: "S",
    Status.TO_READ: "T",
    Status.READ: "R",
    Status.DISCARDED: "X",
}
EMPTY_LIBRARY = "No papers yet. Import a list with File > Import, or drop files here."
NO_MATCH = "No papers match."
# Keys that act inside a widget rather than through a menu action; listed in Help.
WIDGET_KEYS = [
    ("Stars (focused)", "Rate the paper", "0 – 5, ←, →"),
    ("Tag field", "Add the typed tags", "Enter"),
    ("Title being edited", "Save / cancel", "Enter / Esc"),
    ("Search field", "Search now", "Enter"),
    ("Anywhere", "Move between panes", "Tab, Shift+Tab"),
]


class JobProgress(QWidget):
    """Status-bar progress for long jobs (opening, importing), with Cancel when they can stop."""

    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(220)
        self.bar.setTextVisible(False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel_requested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel_button)
        self.hide()

    def start(self, text: str, cancellable: bool) -> None:
        self.label.setText(text)
        self.bar.setRange(0, 0)
        self.cancel_button.setEnabled(True)
        self.cancel_button.setVisible(cancellable)
        self.show()

    def update_progress(self, done: int, total: int, text: str) -> None:
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)
        if text:
            self.label.setText(text)

    def cancelling(self) -> None:
        self.label.setText("Cancelling…")
        self.cancel_button.setEnabled(False)


class MainWindow(QMainWindow):
    """`offer_demo=False` keeps the first-run demo offer away (screenshots, some tests)."""

    desk_opened = Signal()
    search_applied = Signal()
    changes_applied = Signal(object)
    import_finished = Signal(object)
    # The library could not be opened, or the search could not run: the message says why.
    failed = Signal(str)

    def __init__(
        self,
        library_dir: Path,
        settings: QSettings,
        offer_demo: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.library_dir = Path(library_dir)
        self.settings = settings
        self.offer_demo = offer_demo
        self.desk: Desk | None = None
        self.runner = TaskRunner(self)
        self.errors = ErrorReporter(self)
        self.ask = Asker(self)
        self.demo_offer: DemoOfferDialog | None = None
        self.import_report: ImportReportDialog | None = None
        self.pending_select: int | None = None
        self._import_job: Job | None = None
        self._sort: tuple[str, bool] = ("relevance", False)
        self._tag_colours: dict[str, str | None] = {}
        self._tag_names: list[str] = []
        self._shortlist_names: list[str] = []
        self._last_shortlist: str | None = None
        self._select_first = True
        self._closed = False

        # Qt adds the application's display name ("— Paperdesk") to the title itself.
        self.setWindowTitle(self.library_dir.name)
        self.setWindowIcon(app_icon())
        self.model = PaperTableModel(self._fetch_papers, self)
        self.table = PaperTable(self.model)
        self.sidebar = Sidebar()
        self.search_bar = SearchBar()
        self.detail = DetailPane()
        self.progress = JobProgress()
        # Only these panes use the style sheet: on the table, Qt's style-sheet style
        # doubles the cost of painting rows.
        for pane in (self.detail, self.search_bar):
            pane.setStyleSheet(style_sheet())
        self.statusBar().addPermanentWidget(self.progress)
        self._build_layout()
        self._build_actions()
        self._build_menus()
        self._connect()
        self._restore_state()
        self.setAcceptDrops(True)
        self._set_library_enabled(False)
        self._open_library()

    # --- construction ----------------------------------------------------------------
    def _build_layout(self) -> None:
        middle = QWidget()
        column = QVBoxLayout(middle)
        column.setContentsMargins(6, 6, 6, 0)
        column.addWidget(self.search_bar)
        column.addWidget(self.table, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(middle)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setStretchFactor(2, 2)
        self.splitter.setSizes([210, 800, 390])
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        self.setTabOrder(self.sidebar, self.search_bar.field)
        self.setTabOrder(self.search_bar.field, self.table)
        self.setTabOrder(self.table, self.detail.single.stars)

    def _action(
        self,
        text: str,
        slot: Callable[[], object],
        shortcut: QKeySequence | str | None = None,
        icon_name: str | None = None,
    ) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        if icon_name:
            action.setIcon(icon(icon_name))
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        std = QKeySequence.StandardKey
        self.import_action = self._action("&Import…", self.choose_import, "Ctrl+I", "import")
        self.demo_action = self._action("Load &Demo Papers", self.load_demo)
        self.quit_action = self._action("&Quit", self.close, QKeySequence(std.Quit))
        self.undo_action = self._action("&Undo", self.undo, QKeySequence(std.Undo), "undo")
        self.redo_action = self._action("&Redo", self.redo, "Ctrl+Shift+Z", "redo")
        # Their text names the action to undo; Help lists them by these fixed names.
        self.undo_action.setData("Undo")
        self.redo_action.setData("Redo")
        self.find_action = self._action("&Find", self.search_bar.focus, "Ctrl+F", "search")
        self.select_all_action = self._action("Select &All", self.select_all, "Ctrl+A")
        self.delete_action = self._action(
            "&Delete Papers", self.delete_selected, "Delete", "delete"
        )
        self.remove_from_shortlist_action = self._action(
            "Remove from &Shortlist", self.remove_selected_from_shortlist
        )
        self.relevance_action = self._action("Sort by &Relevance", self.sort_by_relevance)
        self.rating_actions = [
            self._action(
                f"{n} Star{'s' if n != 1 else ''}" if n else "No Stars",
                partial(self.set_rating, n),
                f"Ctrl+{n}",
            )
            for n in range(MAX_RATING + 1)
        ]
        self.status_actions = [
            self._action(
                STATUS_LABELS[status],
                partial(self.set_status, status),
                STATUS_KEYS[status],
                f"status-{status.value}",
            )
            for status in Status
        ]
        self.add_tag_action = self._action("Add &Tag…", self.detail.focus_tags, "Ctrl+T", "tag")
        self.edit_title_action = self._action("Edit T&itle", self.detail.edit_title, "F2", "edit")
        self.edit_note_action = self._action("Edit &Note", self.detail.focus_note, "Ctrl+E")
        self.add_to_shortlist_action = self._action(
            "Add to &Shortlist…", self.choose_shortlist_for_selection, "Ctrl+L", "shortlist"
        )
        self.new_shortlist_action = self._action("&New Shortlist…", self.ask_new_shortlist)
        self.move_up_action = self._action(
            "Move &Up in Shortlist", partial(self.move_selected_in_shortlist, -1), "Alt+Up"
        )
        self.move_down_action = self._action(
            "Move Do&wn in Shortlist", partial(self.move_selected_in_shortlist, 1), "Alt+Down"
        )
        self.save_search_action = self._action(
            "Save &Search…", self.ask_save_search, "Ctrl+Shift+S", "saved-search"
        )
        self.focus_sidebar_action = self._action("Go to Sidebar", self.sidebar.setFocus, "Alt+1")
        self.focus_table_action = self._action("Go to Papers", self.table.setFocus, "Alt+2")
        self.focus_detail_action = self._action(
            "Go to Details", self.detail.single.stars.setFocus, "Alt+3"
        )
        self.shortcuts_action = self._action(
            "&Keyboard Shortcuts", self.show_shortcuts, "F1", "keyboard"
        )
        self.syntax_action = self._action(
            "Search &Syntax", self.search_bar.show_cheat_sheet, None, "cheat-sheet"
        )
        self.tag_toggle_actions: list[QAction] = []
        self.shortcuts_dialog: ShortcutsDialog | None = None

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.import_action, self.demo_action])
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
        help_menu = bar.addMenu("&Help")
        help_menu.addActions([self.shortcuts_action, self.syntax_action])
        self._rebuild_tag_menu()

    def _connect(self) -> None:
        self.runner.unhandled_error.connect(self.errors.report)
        self.search_bar.query_changed.connect(self.run_search)
        self.search_bar.save_requested.connect(lambda _text: self.ask_save_search())
        self.model.sort_requested.connect(self._on_sort_requested)
        self.model.reorder_requested.connect(self._on_reorder_requested)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.sidebar.scope_changed.connect(self._on_scope_changed)
        self.sidebar.saved_search_chosen.connect(self._on_saved_search_chosen)
        self.sidebar.papers_dropped.connect(self._on_papers_dropped)
        self.sidebar.command.connect(self.run_sidebar_command)
        self.detail.title_edited.connect(self.set_title)
        self.detail.rating_chosen.connect(self.set_rating)
        self.detail.status_chosen.connect(self.set_status)
        self.detail.tag_added.connect(lambda name: self.add_tags([name]))
        self.detail.tag_removed.connect(lambda name: self.remove_tags([name]))
        self.detail.notes.save_requested.connect(self.save_note)
        self.progress.cancel_requested.connect(self.cancel_import)

    # --- opening ---------------------------------------------------------------------
    def _open_library(self) -> None:
        self.statusBar().showMessage(f"Opening {self.library_dir}…")
        self.progress.start("Opening the library…", cancellable=False)
        folder = self.library_dir

        def open_desk(job: Job) -> Desk:
            return Desk.open(
                folder,
                progress=lambda done, total: job.report_progress(
                    done, total, f"Indexing papers: {done:,} of {total:,}"
                ),
            )

        self.runner.write(
            "Open the library",
            open_desk,
            on_done=self._on_desk_opened,
            on_error=self._on_open_failed,
            on_progress=self.progress.update_progress,
        )

    def _on_desk_opened(self, desk: Desk) -> None:
        self.progress.hide()
        if self._closed:
            desk.close()
            return
        self.desk = desk
        self._set_library_enabled(True)
        self._update_scope_actions(self.sidebar.scope())
        self.statusBar().showMessage(f"Library: {self.library_dir}", 5000)
        self.refresh_sidebar()
        self.refresh_undo_actions()
        self.run_search()
        self.desk_opened.emit()
        if self.offer_demo and desk.library.count() == 0 and not self._demo_declined():
            self._offer_demo()

    def _on_open_failed(self, error: BaseException) -> None:
        self.progress.hide()
        self.statusBar().showMessage("The library could not be opened.")
        self.table.placeholder = f"The library at {self.library_dir} could not be opened."
        self.table.viewport().update()
        self.errors.report("Opening the library", error)
        self.failed.emit(str(error))

    def _set_library_enabled(self, enabled: bool) -> None:
        for widget in (self.sidebar, self.search_bar, self.table, self.detail):
            widget.setEnabled(enabled)
        for action in self.actions():
            if action not in (self.quit_action, self.shortcuts_action, self.syntax_action):
                action.setEnabled(enabled)

    # --- first run -------------------------------------------------------------------
    def _demo_key(self) -> str:
        return f"demo-declined/{self.library_dir.resolve().as_posix().strip('/')}"

    def _demo_declined(self) -> bool:
        return self.settings.value(self._demo_key(), False, type=bool)

    def _offer_demo(self) -> None:
        seeds = demo.seed_files()
        if not seeds:
            return
        dialog = DemoOfferDialog(len(seeds), self)
        self.demo_offer = dialog

        def answered() -> None:
            self.demo_offer = None
            if dialog.clickedButton() is dialog.load_button:
                self.load_demo()
            else:
                self.settings.setValue(self._demo_key(), True)
                self.statusBar().showMessage(
                    "Import your own lists with File > Import, or drop files on the window."
                )

        dialog.finished.connect(answered)
        dialog.open()

    def load_demo(self) -> None:
        self.import_files(demo.seed_files(), report=False)

    # --- reading ---------------------------------------------------------------------
    def _fetch_papers(self, ids: Sequence[int]) -> list[Paper]:
        # One page of rows: a short bounded read, fine on the GUI thread (DESIGN §5).
        return self.desk.library.papers(ids) if self.desk is not None else []

    def run_search(self, *_args: object) -> None:
        desk = self.desk
        if desk is None:
            return
        scope, text = self.sidebar.scope(), self.search_bar.text()
        sort, descending = self._sort
        self.runner.read(
            "Search",
            lambda job: list_papers(desk, scope, text, sort, descending),
            on_done=self._apply_listing,
            on_error=self._on_search_failed,
            key="search",
        )

    def _apply_listing(self, listing: Listing) -> None:
        if self.desk is None:
            return
        selected, current = self.table.selected_ids(), self.table.current_id()
        if self.pending_select is not None:
            if self.pending_select in listing.ids:
                selected, current = [self.pending_select], self.pending_select
            else:
                log.warning("paper %d is not among the papers listed", self.pending_select)
            self.pending_select = None
        self.model.set_ids(listing.ids)
        self.table.set_reorderable(listing.reorderable)
        self.search_bar.show_result(len(listing.ids), listing.total_in_library, listing.suggestion)
        self.detail.set_highlight(listing.terms)
        self.table.placeholder = NO_MATCH if listing.total_in_library else EMPTY_LIBRARY
        if not selected and self._select_first and listing.ids:
            # A freshly opened or freshly filled library shows its first paper, not a blank.
            selected, current = [listing.ids[0]], listing.ids[0]
        if listing.ids:
            self._select_first = False
        self.table.select_ids(selected, current)
        self._on_selection_changed()
        self.search_applied.emit()

    def _on_search_failed(self, error: BaseException) -> None:
        if isinstance(error, QueryError):
            self.search_bar.show_error(str(error))
        else:
            self.errors.report("Searching", error)
        self.failed.emit(str(error))

    def _on_sort_requested(self, key: str, descending: bool) -> None:
        self._sort = (key, descending)
        self.run_search()

    def sort_by_relevance(self) -> None:
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self._sort = ("relevance", False)
        self.run_search()

    def _on_scope_changed(self, scope: Scope) -> None:
        self._update_scope_actions(scope)
        if scope.kind != Kind.SAVED:
            self.run_search()

    def _update_scope_actions(self, scope: Scope) -> None:
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

    def _on_saved_search_chosen(self, name: str) -> None:
        if self.desk is None:
            return
        for search in self.desk.library.saved_searches():
            if search.name == name:
                self.search_bar.set_text(search.query)
                return

    def _on_selection_changed(self, *_args: object) -> None:
        desk = self.desk
        ids = self.table.selected_ids()
        if desk is None or not ids:
            self.detail.show_nothing()
            return
        if len(ids) == 1:
            try:
                # Read afresh: the table's cached page may predate the last change.
                paper = desk.library.paper(ids[0])
            except PaperdeskError:
                self.detail.show_nothing()
            else:
                self.detail.show_paper(paper, self._tag_colours)
            return
        papers = desk.library.papers(ids) if len(ids) <= DetailPane.MAX_SUMMARISED else None
        self.detail.show_many(len(ids), papers, self._tag_colours)

    def refresh_sidebar(self) -> None:
        desk = self.desk
        if desk is None:
            return
        library = desk.library
        tags = library.tags()
        data = SidebarData(
            total=library.count(),
            status_counts=library.status_counts(),
            shortlists=library.shortlists(),
            tags=tags,
            saved_searches=library.saved_searches(),
            imports=library.import_batches(),
        )
        scope_before = self.sidebar.scope()
        self.sidebar.populate(data)
        self._shortlist_names = [s.name for s in data.shortlists]
        self._tag_colours = {t.name: t.colour for t in tags}
        self._tag_names = [t.name for t in tags]
        self.model.set_tag_colours(self._tag_colours)
        self.detail.set_known_tags(self._tag_names)
        self._rebuild_tag_menu(coloured_tag_keys(tags))
        if self.sidebar.scope() != scope_before:
            # The shortlist or tag being shown was renamed or deleted.
            self._on_scope_changed(self.sidebar.scope())

    def _rebuild_tag_menu(self, keys: dict[str, int] | None = None) -> None:
        for action in self.tag_toggle_actions:
            self.removeAction(action)
            action.deleteLater()
        self.tag_menu.clear()
        self.tag_toggle_actions = []
        for name, number in sorted((keys or {}).items(), key=lambda item: item[1]):
            action = self._action(f"Toggle tag {name}", partial(self.toggle_tag, name), str(number))
            self.tag_toggle_actions.append(action)
            self.tag_menu.addAction(action)
        if not self.tag_toggle_actions:
            placeholder = self.tag_menu.addAction("Give tags a colour to toggle them with 1–9")
            placeholder.setEnabled(False)

    def refresh_undo_actions(self) -> None:
        desk = self.desk
        undo_label = history.undo_label(desk) if desk else None
        redo_label = history.redo_label(desk) if desk else None
        self.undo_action.setText(f"&Undo {undo_label}" if undo_label else "&Undo")
        self.redo_action.setText(f"&Redo {redo_label}" if redo_label else "&Redo")
        self.undo_action.setEnabled(undo_label is not None)
        self.redo_action.setEnabled(redo_label is not None)

    # --- changing --------------------------------------------------------------------
    def perform(
        self,
        name: str,
        action: Callable[[Desk], Changes | None],
        on_error: Callable[[BaseException], None] | None = None,
        before_apply: Callable[[], None] | None = None,
    ) -> Job | None:
        """Run one user action on the writer thread; its Changes come back to `apply_changes`.

        `before_apply` runs on the GUI thread once the action succeeded, before the panes
        are refreshed (e.g. to follow a rename of the shortlist being shown).
        """
        desk = self.desk
        if desk is None:
            return None

        def done(changes: Changes | None) -> None:
            if before_apply is not None:
                before_apply()
            self.apply_changes(changes)

        return self.runner.write(
            name,
            lambda job: action(desk),
            on_done=done,
            on_error=on_error or partial(self.errors.report, name),
        )

    def apply_changes(self, changes: Changes | None) -> None:
        if self.desk is None:
            return
        if changes is None or changes.is_empty:
            self.refresh_undo_actions()
            self.statusBar().showMessage("Nothing changed.", 3000)
            self.changes_applied.emit(changes)
            return
        self.model.refresh_papers(changes.paper_ids)
        self.refresh_sidebar()
        if set(self.table.selected_ids()) & changes.paper_ids or changes.tags:
            self._on_selection_changed()
        if changes.papers_added_or_removed or (
            changes.shortlists and self.sidebar.scope().kind == Kind.SHORTLIST
        ):
            self.run_search()
        self.refresh_undo_actions()
        if changes.description:
            self.statusBar().showMessage(changes.description, 4000)
        self.changes_applied.emit(changes)

    def _selection_or_warn(self) -> list[int]:
        ids = self.table.selected_ids()
        if not ids:
            self.statusBar().showMessage("Select one or more papers first.", 3000)
        return ids

    def set_rating(self, rating: int) -> None:
        if ids := self._selection_or_warn():
            self.perform("Rating", lambda desk: editing.set_rating(desk, ids, rating))

    def set_status(self, status: Status) -> None:
        if ids := self._selection_or_warn():
            self.perform("Status", lambda desk: editing.set_status(desk, ids, status))

    def set_title(self, paper_id: int, title: str) -> None:
        self.perform("Editing the title", lambda desk: editing.set_title(desk, paper_id, title))

    def add_tags(self, names: Sequence[str], ids: Sequence[int] | None = None) -> None:
        ids = list(ids) if ids is not None else self._selection_or_warn()
        if ids and names:
            self.perform("Adding tags", lambda desk: tagging.add_tags(desk, ids, list(names)))

    def remove_tags(self, names: Sequence[str]) -> None:
        if ids := self._selection_or_warn():
            self.perform("Removing tags", lambda desk: tagging.remove_tags(desk, ids, list(names)))

    def toggle_tag(self, name: str) -> None:
        """Keys 1-9: add the tag to every selected paper, or remove it if all have it."""
        ids = self._selection_or_warn()
        if not ids:
            return
        wanted = name.casefold()

        def toggle(desk: Desk) -> Changes:
            papers = desk.library.papers(ids)
            if all(wanted in {t.casefold() for t in p.tags} for p in papers):
                return tagging.remove_tags(desk, ids, [name])
            return tagging.add_tags(desk, ids, [name])

        self.perform(f"Toggling tag {name}", toggle)

    def save_note(self, paper_id: int, text: str) -> None:
        def failed(error: BaseException) -> None:
            self.detail.notes.save_failed(paper_id)
            self.errors.report("Saving the note", error)

        self.perform("Saving the note", lambda desk: notes.set_note(desk, paper_id, text), failed)

    def delete_selected(self) -> None:
        if ids := self._selection_or_warn():
            self.perform("Deleting papers", lambda desk: editing.delete_papers(desk, ids))

    def undo(self) -> None:
        self.detail.notes.flush()
        self.perform("Undo", history.undo)

    def redo(self) -> None:
        self.detail.notes.flush()
        self.perform("Redo", history.redo)

    def select_all(self) -> None:
        self.table.setFocus()
        self.table.selectAll()

    # --- shortlists ------------------------------------------------------------------
    def create_shortlist(self, name: str, ids: Sequence[int] = ()) -> None:
        ids = list(ids)

        def create(desk: Desk) -> Changes:
            changes = shortlists.create(desk, name)
            if ids:
                changes = changes.merged_with(shortlists.add(desk, name, ids))
            return changes

        self._last_shortlist = name
        self.perform(f"Creating shortlist {name}", create)

    def add_to_shortlist(self, name: str, ids: Sequence[int]) -> None:
        ids = list(ids)
        if not ids:
            return
        self._last_shortlist = name
        if name.casefold() not in {s.casefold() for s in self._shortlist_names}:
            self.create_shortlist(name, ids)
            return
        self.perform(f"Adding to {name}", lambda desk: shortlists.add(desk, name, ids))

    def remove_selected_from_shortlist(self) -> None:
        scope = self.sidebar.scope()
        if scope.kind != Kind.SHORTLIST:
            return
        if ids := self._selection_or_warn():
            self.perform(
                f"Removing from {scope.value}",
                lambda desk: shortlists.remove(desk, scope.value, ids),
            )

    def move_selected_in_shortlist(self, step: int) -> None:
        """Alt+Up / Alt+Down: the keyboard's way to reorder a shortlist (besides dragging)."""
        if not self.model.is_reorderable():
            self.statusBar().showMessage("Open a shortlist to reorder it.", 3000)
            return
        ids = self.model.ids()
        selected = self.table.selected_ids()
        if not selected:
            return
        rows = [self.model.row_of(paper_id) or 0 for paper_id in selected]
        target = min(rows) - 1 if step < 0 else max(rows) + 2
        if 0 <= target <= len(ids):
            self._on_reorder_requested(moved_order(ids, selected, target))

    def _on_reorder_requested(self, ids: list[int]) -> None:
        scope = self.sidebar.scope()
        if scope.kind == Kind.SHORTLIST:
            self.perform(
                f"Reordering {scope.value}",
                lambda desk: shortlists.reorder(desk, scope.value, ids),
            )

    def _on_papers_dropped(self, kind: str, name: str, ids: list[int]) -> None:
        if kind == Kind.SHORTLIST.value:
            self.add_to_shortlist(name, ids)
        elif kind == Kind.TAG.value:
            self.add_tags([name], ids)

    def choose_shortlist_for_selection(self) -> None:
        ids = self._selection_or_warn()
        if not ids:
            return
        names = sorted(self._shortlist_names, key=str.casefold)
        if self._last_shortlist in names:
            names.remove(self._last_shortlist)
            names.insert(0, self._last_shortlist)
        name = self.ask.choice(
            "Add to shortlist", "Shortlist (type a new name to create one):", names, True
        )
        if name:
            self.add_to_shortlist(name, ids)

    def ask_new_shortlist(self) -> None:
        if name := self.ask.text("New shortlist", "Name of the new shortlist:"):
            self.create_shortlist(name)

    # --- sidebar commands ------------------------------------------------------------
    def run_sidebar_command(self, command: str, name: str) -> None:
        ask = self.ask
        match command:
            case "new-shortlist":
                self.ask_new_shortlist()
            case "add-to-shortlist":
                self.add_to_shortlist(name, self._selection_or_warn())
            case "rename-shortlist":
                if new := ask.text("Rename shortlist", "New name:", name):
                    self.perform(
                        "Renaming a shortlist",
                        lambda desk: shortlists.rename(desk, name, new),
                        before_apply=partial(self.sidebar.follow_rename, Kind.SHORTLIST, name, new),
                    )
            case "delete-shortlist":
                self.perform(f"Deleting {name}", lambda desk: shortlists.delete(desk, name))
            case "new-tag":
                if new := ask.text("New tag", "Tag name (a/b makes b a sub-tag of a):"):
                    self.perform("Creating a tag", lambda desk: tagging.create_tag(desk, new))
            case "add-tag":
                self.add_tags([name])
            case "remove-tag":
                self.remove_tags([name])
            case "rename-tag":
                if new := ask.text("Rename tag", "New name:", name):
                    self.perform(
                        "Renaming a tag",
                        lambda desk: tagging.rename_tag(desk, name, new),
                        before_apply=partial(self.sidebar.follow_rename, Kind.TAG, name, new),
                    )
            case "merge-tag":
                others = [t for t in self._tag_names if t.casefold() != name.casefold()]
                if target := ask.choice("Merge tag", f"Merge {name} into:", others, True):
                    self.perform(
                        "Merging tags", lambda desk: tagging.merge_tags(desk, [name], target)
                    )
            case "colour-tag":
                if colour := ask.colour(f"Colour of {name}", self._tag_colours.get(name)):
                    self.perform(
                        "Colouring a tag", lambda desk: tagging.set_tag_colour(desk, name, colour)
                    )
            case "uncolour-tag":
                self.perform(
                    "Removing a colour", lambda desk: tagging.set_tag_colour(desk, name, None)
                )
            case "delete-tag":
                self.perform(f"Deleting tag {name}", lambda desk: tagging.delete_tag(desk, name))
            case "delete-saved-search":
                self.perform("Deleting a search", lambda desk: saved.delete_search(desk, name))
            case _:
                log.warning("unknown sidebar command %s", command)

    def ask_save_search(self) -> None:
        query = self.search_bar.text()
        if not query:
            self.statusBar().showMessage("Type a search first, then save it.", 3000)
            return
        if name := self.ask.text("Save search", "Name in the sidebar:", query):
            self.perform("Saving the search", lambda desk: saved.save_search(desk, name, query))

    # --- importing -------------------------------------------------------------------
    def choose_import(self) -> None:
        self.import_files(self.ask.import_paths())

    def import_files(self, paths: Sequence[Path], report: bool = True) -> None:
        desk = self.desk
        paths = [Path(p) for p in paths]
        if desk is None or not paths:
            return
        if self._import_job is not None:
            self.statusBar().showMessage("An import is already running.", 3000)
            return
        self.detail.notes.flush()
        noun = "file" if len(paths) == 1 else "files"
        self.progress.start(f"Importing {len(paths)} {noun}…", cancellable=True)
        self._select_first = desk.library.count() == 0

        def run(job: Job) -> importing.ImportReport:
            return importing.import_files(
                desk, paths, progress=job.report_progress, cancelled=job.is_cancelled
            )

        self._import_job = self.runner.write(
            "Importing",
            run,
            on_done=partial(self._on_import_done, show_report=report),
            on_error=self._on_import_failed,
            on_progress=self.progress.update_progress,
        )

    def cancel_import(self) -> None:
        if self._import_job is not None:
            self._import_job.cancel()
            self.progress.cancelling()

    def _on_import_done(self, report: importing.ImportReport, show_report: bool) -> None:
        self._import_job = None
        self.progress.hide()
        self.apply_changes(report.changes)
        if show_report or report.failed:
            self.import_report = ImportReportDialog(report, self)
            self.import_report.open()
        else:
            self.statusBar().showMessage(f"Loaded {report.added:,} demo papers.", 6000)
        self.import_finished.emit(report)

    def _on_import_failed(self, error: BaseException) -> None:
        self._import_job = None
        self.progress.hide()
        self.errors.report("Importing", error)

    def dragEnterEvent(self, event) -> None:
        if dropped_files(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        paths = dropped_files(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.import_files(paths)

    # --- help ------------------------------------------------------------------------
    def show_shortcuts(self) -> None:
        self.shortcuts_dialog = ShortcutsDialog(self.menuBar(), WIDGET_KEYS, self)
        self.shortcuts_dialog.open()

    # --- window state ----------------------------------------------------------------
    def _restore_state(self) -> None:
        settings = self.settings
        if geometry := settings.value("window/geometry"):
            self.restoreGeometry(geometry)
        else:
            self.resize(1400, 900)
        if state := settings.value("window/state"):
            self.restoreState(state)
        if splitter := settings.value("window/splitter"):
            self.splitter.restoreState(splitter)
        if detail := settings.value("window/detail"):
            self.detail.restoreState(detail)
        if header := settings.value("table/header"):
            self.table.horizontalHeader().restoreState(header)

    def save_state(self) -> None:
        settings = self.settings
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState())
        settings.setValue("window/splitter", self.splitter.saveState())
        settings.setValue("window/detail", self.detail.saveState())
        settings.setValue("table/header", self.table.horizontalHeader().saveState())
        settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._closed:
            self._closed = True
            self.detail.notes.flush()
            self.save_state()
            if self._import_job is not None:
                self._import_job.cancel()
            # Finishes every queued write (the note just flushed) before returning.
            self.runner.shutdown()
            if self.desk is not None:
                self.desk.close()
                self.desk = None
        super().closeEvent(event)


def dropped_files(mime) -> list[Path]:
    """Local files dropped from a file manager (not papers dragged inside the app)."""
    if not mime.hasUrls():
        return []
    paths = [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]
    return [path for path in paths if path.is_file()]
