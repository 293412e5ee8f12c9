"""The main window's commands: the user's actions on what the window shows.

A command reads what it acts on from the window's `Panes` (the table's selection, the
sidebar's scope, the search text), asks the user what it must (a name, a colour, a
confirmation), and hands the write to the one function of `gui/actions/` that the
triage view and the menus call too: one service call, one undo step. What the library
holds by name (tags, colours, shortlists) comes from the last overview the window read;
it only fills the questions asked, never decides what a write does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import partial

from PySide6.QtCore import QSettings
from PySide6.QtGui import QGuiApplication

from paperdesk.core.double_screening import PairFigures
from paperdesk.core.errors import IndexUnusableError
from paperdesk.core.links import pdf_url
from paperdesk.core.models import Overview, Paper, ShortlistInfo, Status, TagInfo
from paperdesk.core.scope import Kind, Scope
from paperdesk.core.triage import TriageStats
from paperdesk.gui.actions import (
    highlights,
    history,
    labelled,
    papers,
    searches,
    shortlists,
    tags,
)
from paperdesk.gui.dialogs.duplicates import DuplicatesDialog
from paperdesk.gui.dialogs.preferences import Preferences
from paperdesk.gui.dialogs.stats_view import StatsView
from paperdesk.gui.operations import Operations
from paperdesk.gui.triage.conflicts_view import ConflictsWindow
from paperdesk.gui.widgets.links import open_link, paper_links
from paperdesk.gui.window.panes import Panes
from paperdesk.gui.window.paper_table_model import display_title, moved_order
from paperdesk.gui.window.transfers import Transfers
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    citing,
    double_screening,
    exporting,
    reading,
    screenings,
    searching,
)
from paperdesk.services.use_cases import triage as triage_service
from paperdesk.services.use_cases.screenings import Prisma

log = logging.getLogger(__name__)

#: "More like this" lists the paper and this many like it.
MORE_LIKE_SHOWN = 30


class Commands:
    def __init__(
        self, operations: Operations, transfers: Transfers, panes: Panes, settings: QSettings
    ) -> None:
        self.operations = operations
        self.settings = settings  # the citation style chosen in Preferences
        self.transfers = transfers
        self.panes = panes
        self.overview: Overview | None = None
        self.last_shortlist: str | None = None
        self.duplicates_dialog: DuplicatesDialog | None = None
        self.stats_view: StatsView | None = None
        self.conflicts = ConflictsWindow(self.panes.window, self.operations)

    # --- what the library holds by name ----------------------------------------------
    def shortlist_names(self) -> list[str]:
        return [s.name for s in self.overview.shortlists] if self.overview else []

    def tag_names(self) -> list[str]:
        return [t.name for t in self.overview.tags] if self.overview else []

    def tag_colour(self, name: str) -> str | None:
        known = self.overview.tags if self.overview else ()
        return next((t.colour for t in known if t.name == name), None)

    def _stop_showing(self, kind: Kind, name: str) -> None:
        """Show the whole library before the shortlist or tag shown goes: the search
        that follows the deletion would otherwise look for what no longer exists."""
        if self.panes.sidebar.scope() == Scope(kind, name):
            self.panes.sidebar.select_scope(Scope())

    @staticmethod
    def _count_of(known: Sequence[TagInfo | ShortlistInfo], name: str) -> int:
        """How many papers the tag or shortlist `name` holds, as the sidebar counted."""
        return next((info.count for info in known if info.name == name), 0)

    # --- the selected papers ----------------------------------------------------------
    def set_rating(self, rating: int) -> None:
        if ids := self.panes.selection_or_warn():
            papers.set_rating(self.operations, ids, rating)

    def set_status(self, status: Status) -> None:
        if ids := self.panes.selection_or_warn():
            papers.set_status(self.operations, ids, status)

    def add_tags(self, names: Sequence[str]) -> None:
        tags.add_tags(self.operations, self.panes.selection_or_warn(), names)

    def remove_tags(self, names: Sequence[str]) -> None:
        tags.remove_tags(self.operations, self.panes.selection_or_warn(), names)

    def toggle_tag(self, name: str) -> None:
        """Alt+1-9: add the tag to every selected paper, or remove it if all have it."""
        tags.toggle_tag(self.operations, self.panes.selection_or_warn(), name)

    def delete_selected(self) -> None:
        """Delete the selection, after asking (unless the user said not to ask)."""
        ids = self.panes.selection_or_warn()
        if ids and self.panes.ask.confirm_delete(len(ids)):
            papers.delete_papers(self.operations, ids)

    def find_duplicates(self) -> None:
        """Edit > Find Duplicates: the groups of likely duplicates, to merge or keep apart."""
        if self.duplicates_dialog is None:
            self.duplicates_dialog = DuplicatesDialog(self.operations, self.panes.window)
        self.duplicates_dialog.show()
        self.duplicates_dialog.raise_()
        self.duplicates_dialog.refresh()

    # --- opening and copying ---------------------------------------------------------
    def open_selected(self) -> None:
        """Enter or a double-click: the current paper's web page, in the browser."""
        paper_id = self.panes.table.current_id()
        desk = self.operations.desk
        if paper_id is None or desk is None:
            return
        # One paper by id: a short bounded read (DESIGN §5).
        links = paper_links(reading.paper(desk, paper_id).ids)
        if not links:
            self.panes.tell("This paper has no web page; its details are on the right.", 4000)
            self.panes.detail.setFocus()
            return
        _label, url = links[0]
        if open_link(url):
            # The address itself: a label ("Web page", "DOI", "PDF") reads badly in a
            # sentence, and the user sees where the browser went.
            self.panes.tell(f"Opened {url} in the browser.", 3000)

    def open_pdf(self) -> None:
        """The current paper's PDF, at the address its identifiers give (http(s) only)."""
        paper_id = self.panes.table.current_id()
        desk = self.operations.desk
        if paper_id is None or desk is None:
            return
        url = pdf_url(reading.paper(desk, paper_id).ids)
        if url is None:
            self.panes.tell(
                "No PDF address is known for this paper (no arXiv or OpenReview id, "
                "no PMLR or ACL Anthology page).",
                5000,
            )
        elif open_link(url):
            self.panes.tell(f"Opened {url} in the browser.", 3000)

    def copy_as_bibtex(self) -> None:
        """The selected papers as BibTeX entries, as an export would write them."""
        if ids := self.panes.selection_or_warn():
            self.operations.read(
                "Copying as BibTeX",
                lambda desk: exporting.preview(desk, Scope.of_ids(ids), "bibtex", limit=len(ids)),
                on_done=lambda text: self._copy(text, len(ids), ("BibTeX entry", "BibTeX entries")),
                on_error=partial(self.operations.errors.report, "Copying as BibTeX"),
            )

    def copy_citation(self) -> None:
        """The selected papers formatted in the citation style chosen in Preferences."""
        style = Preferences.load(self.settings).citation_style
        if ids := self.panes.selection_or_warn():
            self.operations.read(
                "Copying citations",
                lambda desk: citing.citation(desk, ids, style),
                on_done=lambda text: self._copy(text, len(ids), ("citation", "citations")),
                on_error=partial(self.operations.errors.report, "Copying citations"),
            )

    def copy_citation_keys(self) -> None:
        """Their citation keys, comma-separated, as \\cite{} wants them: the keys an
        export gives them."""
        if ids := self.panes.selection_or_warn():
            self.operations.read(
                "Copying citation keys",
                lambda desk: [str(p.citation_key) for p in exporting.with_keys(desk, ids)],
                on_done=lambda keys: self._copy(
                    ",".join(keys), len(keys), ("citation key", "citation keys")
                ),
                on_error=partial(self.operations.errors.report, "Copying citation keys"),
            )

    def copy_titles(self) -> None:
        def titles(found: list[Paper]) -> None:
            text = "\n".join(display_title(p.title) for p in found)
            self._copy(text, len(found), ("title", "titles"))

        self._read_selected("Copying titles", titles)

    def _read_selected(self, name: str, then: Callable[[list[Paper]], None]) -> None:
        if ids := self.panes.selection_or_warn():
            self.operations.read(
                name,
                lambda desk: reading.papers(desk, ids),
                on_done=then,
                on_error=partial(self.operations.errors.report, name),
            )

    def _copy(self, text: str, count: int, nouns: tuple[str, str]) -> None:
        QGuiApplication.clipboard().setText(text)
        self.panes.tell(f"Copied {count:,} {nouns[count != 1]}.", 3000)

    def undo(self) -> None:
        self.panes.detail.notes.flush()  # the note being typed is saved first, then undone
        history.undo(self.operations)

    def redo(self) -> None:
        self.panes.detail.notes.flush()
        history.redo(self.operations)

    def select_all(self) -> None:
        self.panes.table.setFocus()
        self.panes.table.selectAll()

    # --- shortlists ------------------------------------------------------------------
    def add_to_shortlist(self, name: str, ids: Sequence[int]) -> None:
        """Add papers to a shortlist; the service creates it when no shortlist has that name."""
        if ids:
            self.last_shortlist = name
            shortlists.add(self.operations, name, ids)

    def remove_selected_from_shortlist(self) -> None:
        scope = self.panes.sidebar.scope()
        if scope.kind != Kind.SHORTLIST:
            return
        shortlists.remove(self.operations, scope.value, self.panes.selection_or_warn())

    def move_selected_in_shortlist(self, step: int) -> None:
        """Alt+Up / Alt+Down: the keyboard's way to reorder a shortlist (besides dragging)."""
        model = self.panes.table.paper_model()
        if not model.is_reorderable():
            self.panes.tell("Open a shortlist to reorder it.", 3000)
            return
        ids = model.ids()
        selected = self.panes.table.selected_ids()
        if not selected:
            return
        rows = [model.row_of(paper_id) or 0 for paper_id in selected]
        target = min(rows) - 1 if step < 0 else max(rows) + 2
        if 0 <= target <= len(ids):
            self.reorder_shortlist(moved_order(ids, selected, target))

    def reorder_shortlist(self, ids: list[int]) -> None:
        """The shortlist shown, in this new order (rows dragged or moved by keys)."""
        scope = self.panes.sidebar.scope()
        if scope.kind == Kind.SHORTLIST:
            shortlists.reorder(self.operations, scope.value, ids)

    def drop_papers(self, kind: str, name: str, ids: list[int]) -> None:
        """Papers dragged from the table onto a shortlist or a tag in the sidebar."""
        if kind == Kind.SHORTLIST:
            self.add_to_shortlist(name, ids)
        elif kind == Kind.TAG:
            tags.add_tags(self.operations, ids, [name])

    def choose_shortlist_for_selection(self) -> None:
        ids = self.panes.selection_or_warn()
        if not ids:
            return
        names = sorted(self.shortlist_names(), key=str.casefold)
        if self.last_shortlist in names:
            names.remove(self.last_shortlist)
            names.insert(0, self.last_shortlist)
        name = self.panes.ask.choice(
            "Add to shortlist", "Shortlist (type a new name to create one):", names, True
        )
        if name:
            self.add_to_shortlist(name, ids)

    def ask_new_shortlist(self) -> None:
        if name := self.panes.ask.text("New shortlist", "Name of the new shortlist:"):
            self.last_shortlist = name
            shortlists.create(self.operations, name)

    def ask_new_shortlist_from_selection(self) -> None:
        if ids := self.panes.selection_or_warn():
            if name := self.panes.ask.text("New shortlist", "Name of the new shortlist:"):
                self.add_to_shortlist(name, ids)

    def add_selection_to_shortlist(self, name: str) -> None:
        self.add_to_shortlist(name, self.panes.selection_or_warn())

    def ask_save_search(self) -> None:
        query = self.panes.search_bar.text()
        if not query:
            self.panes.tell("Type a search first, then save it.", 3000)
            return
        if name := self.panes.ask.text("Save search", "Name in the sidebar:", query):
            searches.save_search(self.operations, name, query)

    # --- the sidebar's right-click menus ---------------------------------------------
    def run_sidebar_command(self, command: str, name: str) -> None:
        ask, operations, sidebar = self.panes.ask, self.operations, self.panes.sidebar
        match command:
            case "new-shortlist":
                self.ask_new_shortlist()
            case "add-to-shortlist":
                self.add_selection_to_shortlist(name)
            case "rename-shortlist":
                if new := ask.text("Rename shortlist", "New name:", name):
                    follow = partial(sidebar.follow_rename, Kind.SHORTLIST, name, new)
                    shortlists.rename(operations, name, new, done=follow)
            case "delete-shortlist":
                in_it = self._count_of(self.overview.shortlists if self.overview else (), name)
                if ask.confirm_delete_label("shortlist", name, in_it):
                    self._stop_showing(Kind.SHORTLIST, name)
                    shortlists.delete(operations, name)
            case "export-shortlist":
                self.transfers.open_export_dialog(shortlist=name)
            case "new-tag":
                if new := ask.text("New tag", "Tag name (a/b makes b a sub-tag of a):"):
                    tags.create_tag(operations, new)
            case "add-tag":
                self.add_tags([name])
            case "remove-tag":
                self.remove_tags([name])
            case "rename-tag":
                if new := ask.text("Rename tag", "New name:", name):
                    follow = partial(sidebar.follow_rename, Kind.TAG, name, new)
                    tags.rename_tag(operations, name, new, done=follow)
            case "merge-tag":
                others = [t for t in self.tag_names() if t.casefold() != name.casefold()]
                if target := ask.choice("Merge tag", f"Merge {name} into:", others, True):
                    tags.merge_tag(operations, name, target)
            case "colour-tag":
                if colour := ask.colour(f"Colour of {name}", self.tag_colour(name)):
                    tags.set_tag_colour(operations, name, colour)
            case "uncolour-tag":
                tags.set_tag_colour(operations, name, None)
            case "delete-tag":
                carry_it = self._count_of(self.overview.tags if self.overview else (), name)
                if ask.confirm_delete_label("tag", name, carry_it):
                    self._stop_showing(Kind.TAG, name)
                    tags.delete_tag(operations, name)
            case "delete-saved-search":
                searches.delete_search(operations, name)
            case "resume-screening":
                sidebar.screening_chosen.emit(name)
            case "export-labels":
                title = f"Export the labels of {name}"
                if path := ask.save_path(title, f"{name}.csv", labelled.FILE_FILTER):
                    labelled.export_labels(operations, name, path, self._say)
            case "import-labels":
                into = name or ask.text("Import Labelled Dataset", "Name of the new screening:")
                title = f"Import labels into {into}"
                if into and (path := ask.open_path(title, labelled.FILE_FILTER)):
                    labelled.import_labels(operations, into, path)
            case _:
                log.warning("unknown sidebar command %s", command)

    def _say(self, message: str) -> None:
        self.panes.tell(message, 5000)

    # --- triage: marked passages, promise, statistics (issue 10) ---------------------
    def highlight_passage(self) -> None:
        """H: mark the passage selected in the detail pane's abstract."""
        if not self.panes.detail.highlight_selection():
            self.panes.tell("Select a passage of the abstract first, then press H.", 3000)

    def edit_highlight_words(self) -> None:
        """The words this library always highlights, edited as one comma-separated line."""
        desk = self.operations.desk
        if desk is None:
            return
        current = ", ".join(triage_service.highlight_words(desk))
        text = self.panes.ask.text(
            "Always highlight", "Words to highlight in every abstract (commas between):", current
        )
        if text is not None and text != current:
            highlights.set_highlight_words(self.operations, [w.strip() for w in text.split(",")])

    def sort_by_promise(self, then: Callable[[], None]) -> None:
        """Learn from the decisions so far (on the pool: the first time takes a while for a
        big library), then call `then` to order the table most promising first."""
        self.panes.tell("Ordering most promising first…", 0)
        self.operations.run_long(
            "Preparing the ranking",
            lambda desk, _job: desk.promise.wait(),
            on_done=lambda _ready: then(),
            on_error=partial(self.operations.errors.report, "Ordering by promise"),
            planning=True,
        )

    def more_like_this(self) -> None:
        """The papers whose words are most like the selected paper's, in the table: at
        once from the search index, then in the ranking's order when it answers (the
        first time after a library opens it reads every abstract: seconds)."""
        paper = self.panes.detail.paper()
        if paper is None:
            self.panes.tell("Select one paper to see papers like it.", 3000)
            return
        shown: list[Scope] = []  # what this request put in the table, latest last

        def show(ids: list[int], refined: bool) -> None:
            moved_on = bool(shown) and self.panes.sidebar.scope() != shown[-1]
            if moved_on or (not refined and shown):
                return  # the user went elsewhere, or the ranking's answer came first
            shown.append(Scope.of_ids([paper.id, *ids]))
            self.panes.sidebar.show_papers(shown[-1])
            if refined:
                self.panes.tell(
                    f"{len(ids)} papers most like the selected one, most alike first", 6000
                )
            else:
                self.panes.tell(
                    f"{len(ids)} papers like the selected one; finding similar papers…", 0
                )

        def first_failed(error: BaseException) -> None:
            # An index being rebuilt has no first answer; the ranking's still comes.
            if not isinstance(error, IndexUnusableError):
                self.operations.errors.report("More like this", error)

        def failed(error: BaseException) -> None:
            self.panes.status_bar.clearMessage()
            self.operations.errors.report("More like this", error)

        # Said at once, and kept until an answer: nothing else on screen changes meanwhile.
        self.panes.tell("Finding similar papers…", 0)
        self.operations.read(
            "More like this",
            lambda desk: searching.similar_ids(desk, paper.id, MORE_LIKE_SHOWN),
            partial(show, refined=False),
            first_failed,
        )
        self.operations.run_long(
            "More like this",
            lambda desk, _job: desk.promise.more_like(paper.id, MORE_LIKE_SHOWN),
            on_done=partial(show, refined=True),
            on_error=failed,
            planning=True,
        )

    def show_statistics(self) -> None:
        if self.stats_view is None:
            self.stats_view = StatsView(self.panes.window)
            self.stats_view.library_wide.toggled.connect(lambda _on: self.refresh_statistics())
            self.stats_view.prisma_requested.connect(self.export_prisma)
        self.stats_view.show()
        self.stats_view.raise_()
        self.refresh_statistics()

    def export_prisma(self) -> None:
        """The PRISMA counts of the screening used last, to a CSV file the user picks."""
        desk = self.operations.desk
        screening = screenings.last_used(desk) if desk is not None else None
        if screening is None:
            return
        path = self.panes.ask.save_path(
            "Export PRISMA counts", f"{screening.name} PRISMA.csv", "CSV (*.csv)"
        )
        if path is None:
            return
        self.operations.read(
            "Export PRISMA counts",
            lambda desk: screenings.export_prisma(desk, screening, path),
            lambda _counts: self.panes.tell(
                f"PRISMA counts of {screening.name} written to {path}", 5000
            ),
            partial(self.operations.errors.report, "Export PRISMA counts"),
        )

    def refresh_statistics(self) -> None:
        """The statistics of the screening under way (or used last), or of the whole
        library when the view asks."""
        view = self.stats_view
        if view is not None and view.isVisible():
            library_wide = view.library_wide.isChecked()
            self.operations.read(
                "Triage statistics",
                lambda desk: with_pairs(desk, *screenings.figures(desk, library_wide=library_wide)),
                lambda found: view.show_stats(*found),
                partial(self.operations.errors.report, "Triage statistics"),
                key="statistics",
            )


def with_pairs(
    desk: Desk, stats: TriageStats, counts: Prisma | None
) -> tuple[TriageStats, Prisma | None, PairFigures | None]:
    """A screening's triage figures and its members' (a team library's)."""
    return stats, counts, double_screening.figures_of(desk, stats)
