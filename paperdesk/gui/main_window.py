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
    QMainWindow,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.changes import Changes
from paperdesk.core.errors import PaperdeskError, QueryError
from paperdesk.core.models import MAX_RATING, Paper, Status
from paperdesk.gui.commands import UserCommands
from paperdesk.gui.detail_pane import DetailPane
from paperdesk.gui.dialogs import (
    Asker,
    DemoOfferDialog,
    ErrorReporter,
    ImportReportDialog,
    ShortcutsDialog,
)
from paperdesk.gui.export_dialog import ExportDialog
from paperdesk.gui.job_progress import JobProgress
from paperdesk.gui.listing import Listing, list_papers
from paperdesk.gui.paper_table import PaperTable
from paperdesk.gui.paper_table_model import PaperTableModel
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
    history,
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


class MainWindow(UserCommands, QMainWindow):
    """`offer_demo=False` keeps the first-run demo offer away (screenshots, some tests)."""

    desk_opened = Signal()
    search_applied = Signal()
    changes_applied = Signal(object)
    import_finished = Signal(object)
    export_finished = Signal(object)
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
        self.export_dialog: ExportDialog | None = None
        self.import_report: ImportReportDialog | None = None
        self.pending_select: int | None = None
        self._long_job: Job | None = None
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
        self.splitter.setSizes([240, 770, 390])
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
        self.export_action = self._action(
            "&Export…", self.open_export_dialog, "Ctrl+Shift+E", "export"
        )
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
        self.progress.cancel_requested.connect(self.cancel_long_job)

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
            if self._long_job is not None:
                self._long_job.cancel()
            # Finishes every queued write (the note just flushed) before returning.
            self.runner.shutdown()
            if self.desk is not None:
                self.desk.close()
                self.desk = None
        super().closeEvent(event)
