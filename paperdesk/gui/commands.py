"""The user's actions on papers, tags, shortlists and searches (DESIGN §8.3).

One user action is one method here, one service call on the writer thread (through
`Operations.perform`) and one step in the Edit menu's undo. What an action acts on
comes from the window's `Panes`; what the library holds by name (tags, colours,
shortlists) from the last overview the window read.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import partial

from PySide6.QtGui import QGuiApplication

from paperdesk.core.citekeys import assign_keys
from paperdesk.core.models import Overview, Paper, Status
from paperdesk.core.scope import Kind, Scope
from paperdesk.gui.duplicates_dialog import DuplicatesDialog
from paperdesk.gui.links import open_link, paper_links
from paperdesk.gui.operations import Operations
from paperdesk.gui.panes import Panes
from paperdesk.gui.paper_table_model import display_title, moved_order
from paperdesk.gui.stats_view import StatsView
from paperdesk.gui.team_offline import DRAFT_KEPT, is_offline_refusal
from paperdesk.gui.transfers import Transfers
from paperdesk.services import (
    annotations,
    editing,
    exporting,
    history,
    notes,
    reading,
    saved,
    shortlists,
    tagging,
)
from paperdesk.services import triage as triage_service

log = logging.getLogger(__name__)

#: "More like this" lists the paper and this many like it.
MORE_LIKE_SHOWN = 30


class Commands:
    def __init__(self, operations: Operations, transfers: Transfers, panes: Panes) -> None:
        self.operations = operations
        self.transfers = transfers
        self.panes = panes
        self.overview: Overview | None = None
        self.last_shortlist: str | None = None
        self.duplicates_dialog: DuplicatesDialog | None = None
        self.stats_view: StatsView | None = None

    # --- what the library holds by name ----------------------------------------------
    def shortlist_names(self) -> list[str]:
        return [s.name for s in self.overview.shortlists] if self.overview else []

    def tag_names(self) -> list[str]:
        return [t.name for t in self.overview.tags] if self.overview else []

    def tag_colour(self, name: str) -> str | None:
        tags = self.overview.tags if self.overview else ()
        return next((t.colour for t in tags if t.name == name), None)

    # --- papers ----------------------------------------------------------------------
    def set_rating(self, rating: int) -> None:
        if ids := self.panes.selection_or_warn():
            self.operations.perform("Rating", lambda desk: editing.set_rating(desk, ids, rating))

    def set_status(self, status: Status) -> None:
        if ids := self.panes.selection_or_warn():
            self.operations.perform("Status", lambda desk: editing.set_status(desk, ids, status))

    def set_title(self, paper_id: int, title: str) -> None:
        self.operations.perform(
            "Editing the title", lambda desk: editing.set_title(desk, paper_id, title)
        )

    def add_tags(self, names: Sequence[str], ids: Sequence[int] | None = None) -> None:
        ids = list(ids) if ids is not None else self.panes.selection_or_warn()
        if ids and names:
            self.operations.perform(
                "Adding tags", lambda desk: tagging.add_tags(desk, ids, list(names))
            )

    def remove_tags(self, names: Sequence[str]) -> None:
        if ids := self.panes.selection_or_warn():
            self.operations.perform(
                "Removing tags", lambda desk: tagging.remove_tags(desk, ids, list(names))
            )

    def toggle_tag(self, name: str) -> None:
        """Keys 1-9: add the tag to every selected paper, or remove it if all have it."""
        if ids := self.panes.selection_or_warn():
            self.operations.perform(
                f"Toggling tag {name}", lambda desk: tagging.toggle_tag(desk, ids, name)
            )

    def save_note(self, paper_id: int, text: str) -> None:
        def failed(error: BaseException) -> None:
            self.panes.detail.notes.save_failed(paper_id, text)
            if is_offline_refusal(self.operations.desk, error):
                self.panes.tell(DRAFT_KEPT, 5000)  # saved when the server is back
            else:
                self.operations.errors.report("Saving the note", error)

        self.operations.perform(
            "Saving the note", lambda desk: notes.set_note(desk, paper_id, text), failed
        )

    def delete_selected(self) -> None:
        """Delete the selection, after asking (unless the user said not to ask)."""
        ids = self.panes.selection_or_warn()
        if not ids or not self.panes.ask.confirm_delete(len(ids)):
            return
        self.operations.perform("Deleting papers", lambda desk: editing.delete_papers(desk, ids))

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
        label, url = links[0]
        if open_link(url):
            self.panes.tell(f"Opened the paper's {label} page.", 3000)

    def copy_as_bibtex(self) -> None:
        """The selected papers as BibTeX entries, as an export would write them."""
        if ids := self.panes.selection_or_warn():
            self.operations.read(
                "Copying as BibTeX",
                lambda desk: exporting.preview(desk, Scope.of_ids(ids), "bibtex", limit=len(ids)),
                on_done=lambda text: self._copy(text, len(ids), ("BibTeX entry", "BibTeX entries")),
                on_error=partial(self.operations.errors.report, "Copying as BibTeX"),
            )

    def copy_citation_keys(self) -> None:
        """Their citation keys, comma-separated, as \\cite{} wants them."""

        def keys(papers: list[Paper]) -> None:
            self._copy(
                ",".join(assign_keys(papers)), len(papers), ("citation key", "citation keys")
            )

        self._read_selected("Copying citation keys", keys)

    def copy_titles(self) -> None:
        def titles(papers: list[Paper]) -> None:
            text = "\n".join(display_title(p.title) for p in papers)
            self._copy(text, len(papers), ("title", "titles"))

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
        self.panes.detail.notes.flush()
        self.operations.perform("Undo", history.undo)

    def redo(self) -> None:
        self.panes.detail.notes.flush()
        self.operations.perform("Redo", history.redo)

    def select_all(self) -> None:
        self.panes.table.setFocus()
        self.panes.table.selectAll()

    # --- shortlists ------------------------------------------------------------------
    def create_shortlist(self, name: str, ids: Sequence[int] = ()) -> None:
        """A new shortlist, holding `ids` in their order: one action, one undo step."""
        ids = list(ids)
        self.last_shortlist = name
        self.operations.perform(
            f"Creating shortlist {name}", lambda desk: shortlists.create(desk, name, ids)
        )

    def add_to_shortlist(self, name: str, ids: Sequence[int]) -> None:
        """Add papers to a shortlist, creating it when no shortlist has that name."""
        ids = list(ids)
        if not ids:
            return
        self.last_shortlist = name
        if name.casefold() not in {s.casefold() for s in self.shortlist_names()}:
            self.create_shortlist(name, ids)
            return
        self.operations.perform(f"Adding to {name}", lambda desk: shortlists.add(desk, name, ids))

    def remove_selected_from_shortlist(self) -> None:
        scope = self.panes.sidebar.scope()
        if scope.kind != Kind.SHORTLIST:
            return
        if ids := self.panes.selection_or_warn():
            self.operations.perform(
                f"Removing from {scope.value}",
                lambda desk: shortlists.remove(desk, scope.value, ids),
            )

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
            self.operations.perform(
                f"Reordering {scope.value}",
                lambda desk: shortlists.reorder(desk, scope.value, ids),
            )

    def drop_papers(self, kind: str, name: str, ids: list[int]) -> None:
        """Papers dragged from the table onto a shortlist or a tag in the sidebar."""
        if kind == Kind.SHORTLIST:
            self.add_to_shortlist(name, ids)
        elif kind == Kind.TAG:
            self.add_tags([name], ids)

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
            self.create_shortlist(name)

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
            self.operations.perform(
                "Saving the search", lambda desk: saved.save_search(desk, name, query)
            )

    # --- the sidebar's right-click menus ---------------------------------------------
    def run_sidebar_command(self, command: str, name: str) -> None:
        ask = self.panes.ask
        match command:
            case "new-shortlist":
                self.ask_new_shortlist()
            case "add-to-shortlist":
                self.add_selection_to_shortlist(name)
            case "rename-shortlist":
                if new := ask.text("Rename shortlist", "New name:", name):
                    self.rename_shortlist(name, new)
            case "delete-shortlist":
                self.delete_shortlist(name)
            case "export-shortlist":
                self.transfers.open_export_dialog(shortlist=name)
            case "new-tag":
                if new := ask.text("New tag", "Tag name (a/b makes b a sub-tag of a):"):
                    self.create_tag(new)
            case "add-tag":
                self.add_tags([name])
            case "remove-tag":
                self.remove_tags([name])
            case "rename-tag":
                if new := ask.text("Rename tag", "New name:", name):
                    self.rename_tag(name, new)
            case "merge-tag":
                others = [t for t in self.tag_names() if t.casefold() != name.casefold()]
                if target := ask.choice("Merge tag", f"Merge {name} into:", others, True):
                    self.merge_tag(name, target)
            case "colour-tag":
                if colour := ask.colour(f"Colour of {name}", self.tag_colour(name)):
                    self.set_tag_colour(name, colour)
            case "uncolour-tag":
                self.set_tag_colour(name, None)
            case "delete-tag":
                self.delete_tag(name)
            case "delete-saved-search":
                self.delete_saved_search(name)
            case _:
                log.warning("unknown sidebar command %s", command)

    def rename_shortlist(self, old: str, new: str) -> None:
        self.operations.perform(
            "Renaming a shortlist",
            lambda desk: shortlists.rename(desk, old, new),
            before_apply=partial(self.panes.sidebar.follow_rename, Kind.SHORTLIST, old, new),
        )

    def delete_shortlist(self, name: str) -> None:
        self.operations.perform(f"Deleting {name}", lambda desk: shortlists.delete(desk, name))

    def create_tag(self, name: str) -> None:
        self.operations.perform("Creating a tag", lambda desk: tagging.create_tag(desk, name))

    def rename_tag(self, old: str, new: str) -> None:
        self.operations.perform(
            "Renaming a tag",
            lambda desk: tagging.rename_tag(desk, old, new),
            before_apply=partial(self.panes.sidebar.follow_rename, Kind.TAG, old, new),
        )

    def merge_tag(self, name: str, target: str) -> None:
        self.operations.perform(
            "Merging tags", lambda desk: tagging.merge_tags(desk, [name], target)
        )

    def set_tag_colour(self, name: str, colour: str | None) -> None:
        doing = "Colouring a tag" if colour else "Removing a colour"
        self.operations.perform(doing, lambda desk: tagging.set_tag_colour(desk, name, colour))

    def delete_tag(self, name: str) -> None:
        self.operations.perform(f"Deleting tag {name}", lambda desk: tagging.delete_tag(desk, name))

    def delete_saved_search(self, name: str) -> None:
        self.operations.perform("Deleting a search", lambda desk: saved.delete_search(desk, name))

    # --- triage: marked passages, promise, statistics (issue 10) ---------------------
    def highlight_passage(self) -> None:
        """H: mark the passage selected in the detail pane's abstract."""
        if not self.panes.detail.highlight_selection():
            self.panes.tell("Select a passage of the abstract first, then press H.", 3000)

    def mark_passage(
        self, paper_id: int, start: int, stop: int, quote: str, colour: str, comment: str
    ) -> None:
        self.operations.perform(
            "Highlighting",
            lambda desk: annotations.highlight(desk, paper_id, start, stop, quote, colour, comment),
        )

    def remove_mark(self, annotation_id: int) -> None:
        self.operations.perform(
            "Removing a highlight", lambda desk: annotations.remove(desk, annotation_id)
        )

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
            words = [word.strip() for word in text.split(",")]
            self.operations.perform(
                "Setting highlight words",
                lambda desk: triage_service.set_highlight_words(desk, words),
            )

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
        """The papers whose words are most like the selected paper's, in the table."""
        paper = self.panes.detail.paper()
        if paper is None:
            self.panes.tell("Select one paper to see papers like it.", 3000)
            return

        def show(ids: list[int]) -> None:
            self.panes.sidebar.show_papers(Scope.of_ids([paper.id, *ids]))
            self.panes.tell(f"{len(ids)} papers most like the selected one, most alike first", 6000)

        self.operations.run_long(
            "More like this",
            lambda desk, _job: desk.promise.more_like(paper.id, MORE_LIKE_SHOWN),
            on_done=show,
            on_error=partial(self.operations.errors.report, "More like this"),
            planning=True,
        )

    def show_statistics(self) -> None:
        if self.stats_view is None:
            self.stats_view = StatsView(self.panes.window)
        self.stats_view.show()
        self.stats_view.raise_()
        self.refresh_statistics()

    def refresh_statistics(self) -> None:
        view = self.stats_view
        if view is not None and view.isVisible():
            self.operations.read(
                "Triage statistics",
                triage_service.stats,
                view.show_stats,
                partial(self.operations.errors.report, "Triage statistics"),
                key="statistics",
            )
