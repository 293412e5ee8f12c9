"""The main window: sidebar | search bar + paper table | detail pane.

The window owns no data and acts on none itself. It lays out the panes, asks services
for ids and rows, and routes the `Changes` each user action returns to the panes that
show what changed (DESIGN §5, §6). The actions are `commands` (gui/window/commands.py) and
`transfers` (imports and exports); `menus` holds the menu actions and their keys.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from PySide6.QtCore import QPoint, QSettings, Qt, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
)
from PySide6.QtWidgets import (
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.changes import Changes
from paperdesk.core.errors import DamagedLibraryError, PaperdeskError, QueryError, ServerUnreachable
from paperdesk.core.fields import PROMISE
from paperdesk.core.models import Overview, Paper, UndoLabels
from paperdesk.core.scope import Kind, Scope
from paperdesk.core.team_url import TeamAddress
from paperdesk.gui.actions import highlights, notes, papers
from paperdesk.gui.dialogs.preferences import (
    PreferencesDialog,
    library_identity,
    open_preferences,
    recent_libraries,
    remember_library,
)
from paperdesk.gui.dialogs.questions import Asker, DemoOfferDialog, ErrorReporter, ShortcutsDialog
from paperdesk.gui.operations import Operations
from paperdesk.gui.resources import app_icon, style_sheet
from paperdesk.gui.tasks import TaskRunner
from paperdesk.gui.team.library import (
    TeamLibrary,
    library_folder,
    location_text,
    open_desk,
    window_title,
)
from paperdesk.gui.triage.mode import TriageMode
from paperdesk.gui.widgets.job_progress import JobProgress
from paperdesk.gui.window.commands import Commands
from paperdesk.gui.window.demo_offer import offer_demo_if_empty
from paperdesk.gui.window.detail_pane import DetailPane
from paperdesk.gui.window.index_catch_up import IndexCatchUp
from paperdesk.gui.window.library_notices import ReadOnlyBanner, offer_restore, restore_backup
from paperdesk.gui.window.library_watch import LibraryWatch
from paperdesk.gui.window.menus import WindowMenus
from paperdesk.gui.window.open_upkeep import OpenUpkeep
from paperdesk.gui.window.panes import Panes
from paperdesk.gui.window.paper_table import PaperTable
from paperdesk.gui.window.paper_table_model import PaperTableModel
from paperdesk.gui.window.search_bar import SearchBar
from paperdesk.gui.window.sidebar import Sidebar, coloured_tag_keys
from paperdesk.gui.window.status_counts import StatusCounts
from paperdesk.gui.window.table_sort import TableSort
from paperdesk.gui.window.transfers import Transfers, dropped_files
from paperdesk.gui.window.window_layout import restore_layout, save_columns, save_layout
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import history, reading, searching, stats
from paperdesk.services.use_cases import triage as triage_service
from paperdesk.services.use_cases.searching import Listing

log = logging.getLogger(__name__)

EMPTY_LIBRARY = "No papers yet. Import a list with File > Import, or drop files here."
NO_MATCH = "No papers match."
# Keys that act inside a widget rather than through a menu action; listed in Help.
WIDGET_KEYS = [
    ("Papers", "Open the paper's web page", "Enter, double-click"),
    ("Papers", "First / last paper", "Home / End"),
    ("Stars (focused)", "Rate the paper", "0 – 5, ←, →"),
    ("Tag field", "Add the typed tags, back to the papers", "Enter"),
    ("Title being edited", "Save / cancel", "Enter / Esc"),
    ("Search field", "Search now and go to the first result", "Enter, ↓"),
    ("Anywhere", "Move between panes", "Tab, Shift+Tab"),
]


class MainWindow(QMainWindow):
    """`offer_demo=False` keeps the first-run demo offer away (screenshots, some tests).

    The window lays out the panes and routes Changes; the user's actions live in
    `commands` (gui/window/commands.py) and the long imports and exports in `transfers`.
    """

    desk_opened = Signal()
    search_applied = Signal()
    # After a change, once the panes (the sidebar's counts and Undo's text too) show it.
    changes_applied = Signal(object)
    # File > Open Library chose another folder; the app opens a window on it.
    switch_requested = Signal(object)
    # The library could not be opened, or the search could not run: the message says why.
    failed = Signal(str)

    def __init__(
        self,
        library: Path | TeamAddress,
        settings: QSettings,
        offer_demo: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.address = library if isinstance(library, TeamAddress) else None
        self.library_dir = library_folder(library)  # a team library's: its local state
        self.settings = settings
        self.offer_demo = offer_demo
        self.runner = TaskRunner(self)
        self.errors = ErrorReporter(self)
        self.operations = Operations(self.runner, self.errors, self.apply_changes)
        self.demo_offer: DemoOfferDialog | None = None
        self.shortcuts_dialog: ShortcutsDialog | None = None
        self.restore_offer: QMessageBox | None = None
        self.pending_select: int | None = None
        self._detail_follows = False
        self.preferences_dialog: PreferencesDialog | None = None
        self._tag_colours: dict[str, str | None] = {}
        self._focus_results = False
        self._listed: tuple[object, ...] = ()
        self._closed = False

        # Qt adds the application's display name ("— Paperdesk") to the title itself.
        self.setWindowTitle(window_title(library))
        self.setWindowIcon(app_icon())
        self.model = PaperTableModel(self._fetch_papers, self)
        self.table = PaperTable(self.model)
        self.sort = TableSort(self.table, settings, self._library_key("sort"))
        self.sidebar = Sidebar()
        self.search_bar = SearchBar()
        self.detail = DetailPane()
        self.progress = JobProgress()
        self.read_only_banner = ReadOnlyBanner()
        # Changes other programs make show up here within a second or two.
        self.watch = LibraryWatch(lambda: self.desk, self.refresh_from_outside, self)
        self.watch.waiting.connect(lambda message: self.statusBar().showMessage(message, 5000))
        self.index_progress = JobProgress()
        self.counts = StatusCounts()
        self.panes = Panes(
            window=self,
            status_bar=self.statusBar(),
            progress=self.progress,
            table=self.table,
            sidebar=self.sidebar,
            search_bar=self.search_bar,
            detail=self.detail,
            ask=Asker(self, settings),
        )
        self.transfers = Transfers(self.operations, self.panes)
        self.commands = Commands(self.operations, self.transfers, self.panes, settings)
        self.team = TeamLibrary(self)
        # Only these panes use the style sheet: on the table, Qt's style-sheet style
        # doubles the cost of painting rows.
        for pane in (self.detail, self.search_bar):
            pane.setStyleSheet(style_sheet())
        self.statusBar().addPermanentWidget(self.progress)
        self.statusBar().addPermanentWidget(self.index_progress)
        self.catch_up = IndexCatchUp(self.operations, self.index_progress)
        self.upkeep = OpenUpkeep(self.operations, self.index_progress, self.catch_up, self)
        self.statusBar().addPermanentWidget(self.counts)
        self._build_layout()
        self.menus = WindowMenus(self)
        self._connect()
        self._restore_state()
        self.setAcceptDrops(True)
        self._set_library_enabled(False)
        self.open_library()

    # --- construction ----------------------------------------------------------------
    def _build_layout(self) -> None:
        middle = QWidget()
        column = QVBoxLayout(middle)
        column.setContentsMargins(6, 6, 6, 0)
        column.addWidget(self.read_only_banner)
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
        # The table gets the room titles need; the detail pane never gets narrower than
        # its own controls (below that its text was clipped at 900x600), the sidebar than
        # its own labels in the current font (Sidebar.minimumSizeHint).
        self.splitter.setSizes([200, 800, 400])
        self.detail.setMinimumWidth(DetailPane.MIN_WIDTH)
        self.splitter.setChildrenCollapsible(False)
        # The panes, or the triage view in their place (gui/triage/mode.py).
        self.stack = QStackedWidget()
        self.stack.addWidget(self.splitter)
        self.setCentralWidget(self.stack)
        self.triage = TriageMode(self, self.stack)
        self.setTabOrder(self.sidebar, self.search_bar.field)
        self.setTabOrder(self.search_bar.field, self.table)
        self.setTabOrder(self.table, self.detail.single.stars)

    def _connect(self) -> None:
        commands = self.commands
        self.runner.unhandled_error.connect(self.errors.report)
        self.search_bar.query_changed.connect(self.run_search)
        self.search_bar.save_requested.connect(lambda _text: commands.ask_save_search())
        self.search_bar.results_wanted.connect(self._enter_results)
        self.model.sort_requested.connect(self._on_sort_requested)
        self.model.reorder_requested.connect(commands.reorder_shortlist)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.table.open_requested.connect(commands.open_selected)
        self.table.columns_changed.connect(self._save_columns)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._show_paper_menu)
        self.sidebar.scope_changed.connect(self._on_scope_changed)
        self.sidebar.saved_search_chosen.connect(self._on_saved_search_chosen)
        self.sidebar.screening_chosen.connect(lambda name: self.triage.enter(name))
        self.sidebar.papers_dropped.connect(commands.drop_papers)
        self.sidebar.command.connect(commands.run_sidebar_command)
        self.detail.title_edited.connect(partial(papers.set_title, self.operations))
        self.detail.field_edited.connect(
            partial(papers.edit_field, self.operations, failed=self.detail.restore_fields)
        )
        self.detail.rating_chosen.connect(commands.set_rating)
        self.detail.status_chosen.connect(commands.set_status)
        self.detail.tag_added.connect(lambda name: commands.add_tags([name]))
        self.detail.tag_removed.connect(lambda name: commands.remove_tags([name]))
        self.detail.tags_committed.connect(self.table.setFocus)
        # Searches that read what a bulk change touched are right again.
        self.catch_up.caught_up.connect(self._relist_unless_triaging)
        self.detail.notes.save_requested.connect(self.save_note)
        self.detail.passage_marked.connect(partial(highlights.highlight, self.operations))
        self.detail.mark_removed.connect(partial(highlights.remove_highlight, self.operations))

    # --- opening ---------------------------------------------------------------------
    def open_library(self) -> None:
        library = self.address or self.library_dir
        self.statusBar().showMessage(f"Opening {location_text(library)}…")
        self.progress.start("Opening the library…", cancellable=False)
        self.runner.write(
            "Open the library",
            partial(open_desk, library, on_wait=self.watch.waiting.emit),
            on_done=self._on_desk_opened,
            on_error=self.on_open_failed,
            on_progress=self.progress.update_progress,
        )

    def _on_desk_opened(self, desk: Desk) -> None:
        self.progress.hide()
        if self._closed:
            desk.close()
            return
        self.operations.desk = desk
        self.upkeep.opened()
        self._set_library_enabled(True)
        self.read_only_banner.setVisible(desk.read_only)
        self.watch.start()
        self.menus.show_scope(self.sidebar.scope())
        self.statusBar().showMessage(f"Library: {desk.location}", 5000)
        self._remember_library()
        self.detail.set_always_words(triage_service.highlight_words(desk))
        self.refresh_panes(then=partial(offer_demo_if_empty, self))
        self.run_search()
        self.desk_opened.emit()

    def on_open_failed(self, error: BaseException) -> None:
        self.progress.hide()
        if self.team.ask_password(error):
            return
        self.statusBar().showMessage("The library could not be opened.")
        where = location_text(self.address or self.library_dir)
        self.table.placeholder = f"The library at {where} could not be opened."
        self.table.viewport().update()
        self.restore_offer = (
            offer_restore(self, error, self.restore)
            if isinstance(error, DamagedLibraryError)
            else None
        )
        if self.restore_offer is None:
            self.errors.report("Opening the library", error)
        self.failed.emit(str(error))

    def restore(self, backup: Path) -> None:
        """Put `backup` in place of the library's (damaged) database, then open it."""
        restore_backup(self, backup, on_done=self.open_library, on_error=self.on_open_failed)

    def _set_library_enabled(self, enabled: bool) -> None:
        for widget in (self.sidebar, self.search_bar, self.table, self.detail):
            widget.setEnabled(enabled)
        for action in self.actions():
            menus = self.menus
            if action not in (menus.quit_action, menus.shortcuts_action, menus.syntax_action):
                action.setEnabled(enabled)

    # --- reading ---------------------------------------------------------------------
    @property
    def desk(self) -> Desk | None:
        """The open library; None until it is open, and after the window closed."""
        return self.operations.desk

    def _fetch_papers(self, ids: Sequence[int]) -> list[Paper]:
        # One page of rows: a short bounded read, fine on the GUI thread (DESIGN §5),
        # unless a team library's server is away (it may take seconds to fail).
        desk = self.desk
        return reading.papers(desk, ids) if desk is not None and self.team.can_read() else []

    def run_search(self, *_args: object) -> None:
        scope, text = self.sidebar.scope(), self.search_bar.text()
        if (text or scope.kind != Kind.ALL) and not self.upkeep.when_ready(self.run_search):
            return  # it reads the index, being checked meanwhile (gui/window/open_upkeep.py)
        sort, descending = self.sort.key, self.sort.descending
        asked = (scope, text, sort, descending)
        self.operations.read(
            "Search",
            lambda desk: searching.listing(desk, scope, text, sort, descending, typing=True),
            on_done=lambda listing: self._apply_listing(listing, asked),
            on_error=self._on_search_failed,
            key="search",
        )

    def _apply_listing(self, listing: Listing, asked: tuple[object, ...] = ()) -> None:
        if self.desk is None or self.triage.active:
            # A listing asked before triage began: the hidden table is listed afresh on
            # leaving it, and listing it now costs the GUI thread for nobody.
            return
        selected, current = self.table.selected_ids(), self.table.current_id()
        # The same list again (after a change) keeps the place in it; a new search or
        # scope starts at its top.
        current_row = self.table.currentIndex().row() if asked == self._listed else 0
        self._listed = asked
        if self.pending_select is not None:
            if self.pending_select in listing.ids:
                selected, current = [self.pending_select], self.pending_select
            else:
                log.warning("paper %d is not among the papers listed", self.pending_select)
            self.pending_select = None
        self.model.set_ids(listing.ids)
        self.table.set_reorderable(listing.reorderable)
        self.search_bar.show_result(
            len(listing.ids), listing.total_in_library, listing.suggestion, listing.index_behind
        )
        self.counts.show_listing(len(listing.ids), listing.total_in_library)
        self.detail.set_highlight(listing.terms)
        self.table.placeholder = NO_MATCH if listing.total_in_library else EMPTY_LIBRARY
        if self._focus_results:
            self._focus_results = False
            selected, current = listing.ids[:1], None
            self.table.setFocus(Qt.FocusReason.OtherFocusReason)
        kept = [paper_id for paper_id in selected if self.model.row_of(paper_id) is not None]
        if not kept and listing.ids:
            # Never a blank detail pane after a search, an import or an undo: the paper
            # now where the current one was (the next one, after a decision), else the first.
            row = min(max(current_row, 0), len(listing.ids) - 1)
            kept, current = [listing.ids[row]], listing.ids[row]
        if current not in kept:
            current = kept[0] if kept else None
        # The detail pane is filled once, below, whether the selection changed or not
        # (its paper may have): selecting also signals, which filled it twice.
        self._select_quietly(kept, current)
        self._on_selection_changed()
        self.search_applied.emit()

    def _select_quietly(self, ids: list[int], current: int | None) -> None:
        """Select in the table; the caller fills the detail pane (or the listing will)."""
        self._detail_follows = True
        try:
            self.table.select_ids(ids, current)
        finally:
            self._detail_follows = False

    def select_when_listed(self, paper_id: int) -> None:
        """Select this paper once the table is listed again (leaving triage). Selected and
        scrolled to at once when listed already, so that the table's first paint is at
        its place: scrolling there after that paint painted the table twice (50 ms of the
        GUI thread each at 13,417 papers)."""
        self.pending_select = paper_id
        if self.model.row_of(paper_id) is not None:
            self._select_quietly([paper_id], paper_id)

    def _enter_results(self, search_coming: bool) -> None:
        """Enter or Down in the search field: into the results, the first one selected."""
        if search_coming:
            self._focus_results = True
            return
        ids = self.model.ids()[:1]
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)
        self.table.select_ids(ids, ids[0] if ids else None)

    def _on_search_failed(self, error: BaseException) -> None:
        if isinstance(error, QueryError | ServerUnreachable):  # the latter: the banner says more
            self.search_bar.show_error(str(error))
        else:
            self.errors.report("Searching", error)
        self.failed.emit(str(error))

    def _on_sort_requested(self, key: str, descending: bool) -> None:
        """A heading clicked or View > Sort By: remembered for this library."""
        self.sort.remember(key, descending)
        self.menus.show_sort(key, descending)
        self.run_search()

    def _library_key(self, name: str) -> str:
        """A settings key of this library's own (its sort, whether it declined the demo)."""
        return f"library/{self.library_dir.resolve().as_posix().strip('/')}/{name}"

    def sort_by_promise(self) -> None:
        """Most promising first, once the ranking learnt from the decisions so far."""

        def sort() -> None:
            self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            self._on_sort_requested(PROMISE, False)

        self.commands.sort_by_promise(sort)

    def _on_scope_changed(self, scope: Scope) -> None:
        self.menus.show_scope(scope)
        if scope.kind != Kind.SAVED:
            self.run_search()

    def _on_saved_search_chosen(self, name: str) -> None:
        overview = self.commands.overview
        for search in overview.saved_searches if overview else ():
            if search.name == name:
                self.search_bar.set_text(search.query)
                return

    def _on_selection_changed(self, *_args: object) -> None:
        if self._detail_follows:
            return
        desk = self.desk
        ids = self.table.selected_ids()
        self.counts.show_selected(len(ids))
        if desk is None or not ids:
            self.detail.show_nothing()
            return
        if not self.team.can_read():
            # The server is away: a paper the table listed stays readable, as read then.
            kept = self.model.cached(ids[0]) if len(ids) == 1 else None
            if kept is None:
                self.detail.show_nothing()
            else:
                self.detail.show_paper(kept, self._tag_colours)
            return
        if len(ids) == 1:
            try:
                # Read afresh: the table's cached page may predate the last change.
                paper = reading.paper(desk, ids[0])
            except PaperdeskError:
                self.detail.show_nothing()
            else:
                self.detail.show_paper(paper, self._tag_colours)
            return
        papers = reading.papers(desk, ids) if len(ids) <= DetailPane.MAX_SUMMARISED else None
        self.detail.show_many(len(ids), papers, self._tag_colours)

    def refresh_panes(self, then: Callable[[Overview], None] | None = None) -> None:
        """Read the overview and the undo labels on the reader thread, then show both.

        Counting over 100,000 papers is no job for the GUI thread (DESIGN §5); reads run
        in order, so this lands after any search queued before it.
        """

        def show(read: tuple[Overview, UndoLabels]) -> None:
            overview, labels = read
            self._show_overview(overview)
            self.menus.show_undo_labels(labels)
            if then is not None:
                then(overview)

        self.operations.read(
            "Reading the library's overview",
            lambda desk: (stats.overview(desk), history.labels(desk)),
            on_done=show,
            on_error=partial(self.errors.report, "Reading the library's overview"),
        )

    def _show_overview(self, overview: Overview) -> None:
        if overview == self.commands.overview:
            # Read again after every change, mostly the same (leaving triage, a note):
            # rebuilding the sidebar then cost a layout and a repaint for nothing.
            return
        scope_before = self.sidebar.scope()
        self.sidebar.populate(overview)
        self.commands.overview = overview
        self._tag_colours = {t.name: t.colour for t in overview.tags}
        self.model.set_tag_colours(self._tag_colours)
        self.detail.set_known_tags([t.name for t in overview.tags])
        self.menus.show_coloured_tags(coloured_tag_keys(overview.tags))
        if self.sidebar.scope() != scope_before:
            # The shortlist or tag being shown was renamed or deleted.
            self._on_scope_changed(self.sidebar.scope())

    def refresh_from_outside(self) -> bool:
        """Show what another program changed; False (ask again soon) while a title is
        being edited or this window's own work is under way (its own changes arrive
        with their Changes, and a rename must be followed before the sidebar is read
        again). A note being typed is kept by the note editor itself."""
        busy = not self.runner.is_idle() or self.detail.single.title.is_editing()
        if self.desk is None or busy:
            return False
        self.model.refresh_papers(self.model.ids())
        self.refresh_panes()
        self.run_search()  # new or deleted papers; the selection is kept
        return True

    # --- changing --------------------------------------------------------------------
    def apply_changes(self, changes: Changes | None) -> None:
        if self.desk is None:
            return
        if changes is None or changes.is_empty:
            self.statusBar().showMessage("Nothing changed.", 3000)
            self.refresh_panes(then=lambda _overview: self.changes_applied.emit(changes))
            return
        self.model.refresh_papers(changes.paper_ids)
        hidden = self.triage.active  # the detail pane is shown afresh on leaving triage
        # isdisjoint stops at the first paper in both: a set of 100,000 selected ids was
        # built for a bulk edit to learn that.
        selected = self.table.selected_ids
        if not hidden and (changes.tags or not changes.paper_ids.isdisjoint(selected())):
            self._on_selection_changed()
        if (
            changes.papers_added_or_removed
            or (changes.shortlists and self.sidebar.scope().kind == Kind.SHORTLIST)
            or self._listing_follows(changes)
        ):
            self.run_search()
        if changes.highlight_words:
            self.detail.set_always_words(triage_service.highlight_words(self.desk))
        self.commands.refresh_statistics()
        self.commands.conflicts.refresh()
        if changes.description:
            self.statusBar().showMessage(changes.description, 4000)
        self.catch_up.start_if_behind()
        self.refresh_panes(then=lambda _overview: self.changes_applied.emit(changes))

    def save_note(self, paper_id: int, text: str, based_on: str | None) -> None:
        """A note from the detail pane or the triage view; a failed save is kept as a
        draft that both show (gui/actions/notes.py)."""
        notes.save_note(
            self.operations,
            self.detail.notes.note_drafts,
            paper_id,
            text,
            based_on,
            lambda message: self.statusBar().showMessage(message, 5000),
        )

    # --- the papers' right-click menu --------------------------------------------------
    def _show_paper_menu(self, position: QPoint) -> None:
        index = self.table.indexAt(position)
        if index.isValid() and index.row() not in {
            i.row() for i in self.table.selectionModel().selectedRows()
        }:
            # Right-click on a paper outside the selection acts on that paper (as in Zotero).
            paper_id = self.model.id_at(index.row())
            self.table.select_ids([paper_id], paper_id)
        if not self.table.selected_ids():
            return
        menu = self.menus.paper_menu(self.commands.shortlist_names())
        menu.exec(self.table.viewport().mapToGlobal(position))

    # --- libraries and preferences -----------------------------------------------------
    def choose_library(self) -> None:
        if folder := self.panes.ask.library_folder(self.library_dir.parent):
            self.switch_library(folder)

    def switch_library(self, library: Path | TeamAddress) -> None:
        """Open another library: the app replaces this window with one on `library`."""
        if library_identity(library) != library_identity(self.address or self.library_dir):
            self.detail.notes.flush()
            self.save_state()
            self.switch_requested.emit(library)

    def _remember_library(self) -> None:
        here = library_identity(self.address or self.library_dir)
        remember_library(self.settings, here)
        self.menus.show_recent_libraries([f for f in recent_libraries(self.settings) if f != here])

    def show_preferences(self) -> None:
        restyled = (self.detail, self.search_bar)
        self.preferences_dialog = open_preferences(self, self.settings, restyle=restyled)

    def _relist_unless_triaging(self) -> None:
        """The index caught up: list the table again, unless triage hides it (after each
        decision that listing, a selection and a detail pane filled for nobody cost the
        GUI thread 50-500 ms over 13,417 papers; leaving triage lists it afresh)."""
        if not self.triage.active:
            self.run_search()

    def _listing_follows(self, changes: Changes) -> bool:
        """Whether an edit may move papers in or out of the list shown: a status view,
        a tag, a saved search or a search lists papers by what edits change."""
        if self.triage.active or not changes.paper_ids:
            return False  # the table is hidden; leaving triage lists it afresh
        kind = self.sidebar.scope().kind
        return kind in (Kind.STATUS, Kind.TAG, Kind.SAVED, Kind.QUERY) or bool(
            self.search_bar.text()
        )

    # --- help ------------------------------------------------------------------------
    def show_shortcuts(self) -> None:
        self.shortcuts_dialog = ShortcutsDialog(self.menuBar(), WIDGET_KEYS, self)
        self.shortcuts_dialog.open()

    # --- window state ----------------------------------------------------------------
    def _restore_state(self) -> None:
        restore_layout(self)
        self.menus.show_sort(self.sort.key, self.sort.descending)

    def _save_columns(self) -> None:
        # At once, not only on close: a crash must not cost the user their columns.
        save_columns(self)

    def save_state(self) -> None:
        save_layout(self)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._closed:
            self._closed = True
            self.watch.stop()
            self.detail.notes.flush()
            self.save_state()
            self.transfers.cancel()
            # Finishes every queued write (the note just flushed) before returning.
            self.runner.shutdown()
            if self.desk is not None:
                # Re-indexing left after a bulk change is not waited for: the index's
                # stamp is stale, so the next open rebuilds it (with progress).
                self.desk.close(catch_up=False)
                self.operations.desk = None
        super().closeEvent(event)

    # --- files dropped from a file manager are imported ---------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        self._accept_files(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        self._accept_files(event)

    def _accept_files(self, event: QDragMoveEvent) -> None:
        if dropped_files(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = dropped_files(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.transfers.import_files(paths)
