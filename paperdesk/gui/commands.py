"""One small method per user action (DESIGN §8.3): each is a service call on the writer.

`UserCommands` is mixed into the main window, which provides what these methods use:
`desk`, `table`, `model`, `sidebar`, `search_bar`, `detail`, `progress`, `ask`, `errors`,
`runner`, `perform` (run a service call on the writer, then route its Changes) and
`apply_changes`. Keeping the actions here leaves the window to layout and routing.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from paperdesk.core.changes import Changes
from paperdesk.core.errors import PaperdeskError
from paperdesk.core.models import Status
from paperdesk.gui.dialogs import ImportReportDialog
from paperdesk.gui.export_dialog import FORMAT_LABELS, ExportDialog
from paperdesk.gui.paper_table_model import moved_order
from paperdesk.gui.sidebar import Kind
from paperdesk.gui.tasks import Job
from paperdesk.search.index import Cancelled
from paperdesk.services import (
    editing,
    exporting,
    history,
    importing,
    notes,
    saved,
    shortlists,
    tagging,
)
from paperdesk.services.desk import Desk

log = logging.getLogger(__name__)


class UserCommands:
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
            case "export-shortlist":
                self.open_export_dialog(shortlist=name)
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
        if self._long_job is not None:
            self.statusBar().showMessage("Wait for the running import or export to end.", 3000)
            return
        self.detail.notes.flush()
        noun = "file" if len(paths) == 1 else "files"
        self.progress.start(f"Importing {len(paths)} {noun}…", cancellable=True)
        self._select_first = desk.library.count() == 0

        def run(job: Job) -> importing.ImportReport:
            return importing.import_files(
                desk, paths, progress=job.report_progress, cancelled=job.is_cancelled
            )

        self._long_job = self.runner.write(
            "Importing",
            run,
            on_done=partial(self._on_import_done, show_report=report),
            on_error=self._on_import_failed,
            on_progress=self.progress.update_progress,
        )

    def cancel_long_job(self) -> None:
        """The progress bar's Cancel: stop the running import or export."""
        if self._long_job is not None:
            self._long_job.cancel()
            self.progress.cancelling()

    def _on_import_done(self, report: importing.ImportReport, show_report: bool) -> None:
        self._long_job = None
        self.progress.hide()
        self.apply_changes(report.changes)
        if show_report or report.failed:
            self.import_report = ImportReportDialog(report, self)
            self.import_report.open()
        else:
            self.statusBar().showMessage(f"Loaded {report.added:,} demo papers.", 6000)
        self.import_finished.emit(report)

    def _on_import_failed(self, error: BaseException) -> None:
        self._long_job = None
        self.progress.hide()
        self.errors.report("Importing", error)

    # --- exporting -------------------------------------------------------------------
    def open_export_dialog(self, shortlist: str | None = None) -> None:
        if self.desk is None:
            return
        dialog = ExportDialog(self._export_choices(shortlist), self)
        self.export_dialog = dialog
        dialog.preview_wanted.connect(self._preview_export)
        dialog.accepted.connect(
            lambda: self.ask_export_path(
                dialog.chosen_scope(), dialog.chosen_format(), dialog.chosen_options()
            )
        )
        dialog.open()

    def _export_choices(self, shortlist: str | None) -> list[tuple[str, exporting.Scope]]:
        """What the user may mean, most specific first: a shortlist, the selection, the list."""
        desk = self.desk
        assert desk is not None
        choices = []
        scope = self.sidebar.scope()
        name = shortlist or (scope.value if scope.kind == Kind.SHORTLIST else None)
        if name:
            choices.append((f"Shortlist “{name}”, in its order", exporting.Scope(shortlist=name)))
        if selected := self.table.selected_ids():
            noun = "paper" if len(selected) == 1 else "papers"
            choices.append(
                (f"The {len(selected):,} selected {noun}", exporting.Scope(ids=tuple(selected)))
            )
        if self.search_bar.text() or scope.kind != Kind.ALL:
            shown = self.model.ids()
            choices.append((f"The {len(shown):,} papers listed", exporting.Scope(ids=tuple(shown))))
        total = desk.library.count()
        choices.append((f"The whole library ({total:,} papers)", exporting.Scope()))
        return choices

    def _preview_export(
        self, scope: exporting.Scope, format: str, options: exporting.Options
    ) -> None:
        desk, dialog = self.desk, self.export_dialog
        if desk is None or dialog is None:
            return

        def failed(error: BaseException) -> None:
            if isinstance(error, PaperdeskError):
                dialog.show_preview(f"Cannot export this: {error}")
            else:
                self.errors.report("Previewing the export", error)

        self.runner.read(
            "Export preview",
            lambda job: exporting.preview(desk, scope, format, options),
            on_done=dialog.show_preview,
            on_error=failed,
            key="export-preview",
        )

    def ask_export_path(
        self, scope: exporting.Scope, format: str, options: exporting.Options
    ) -> None:
        stem = scope.shortlist or ("library" if scope.is_whole_library else "papers")
        suggested = f"{stem}{exporting.EXTENSIONS[format]}"
        if path := self.ask.save_path("Export papers", suggested, FORMAT_LABELS[format]):
            self.start_export(scope, path, format, options)

    def start_export(
        self,
        scope: exporting.Scope,
        path: Path,
        format: str,
        options: exporting.Options | None = None,
    ) -> None:
        options = options or exporting.Options()
        desk = self.desk
        if desk is None:
            return
        if self._long_job is not None:
            self.statusBar().showMessage("Wait for the running import or export to end.", 3000)
            return
        self.detail.notes.flush()
        self.progress.start(f"Exporting {scope.describe()}…", cancellable=True)
        self._long_job = self.runner.write(
            "Exporting",
            # The file dialog asked the usual question before replacing a file.
            lambda job: exporting.export(
                desk, scope, Path(path), format, options, job.is_cancelled, overwrite=True
            ),
            on_done=self._on_export_done,
            on_error=self._on_export_failed,
        )

    def _on_export_done(self, result: exporting.ExportResult) -> None:
        self._long_job = None
        self.progress.hide()
        self.apply_changes(result.changes)
        noun = "paper" if result.count == 1 else "papers"
        self.statusBar().showMessage(f"Exported {result.count:,} {noun} to {result.path}", 8000)
        self.export_finished.emit(result)

    def _on_export_failed(self, error: BaseException) -> None:
        self._long_job = None
        self.progress.hide()
        if isinstance(error, Cancelled):
            self.statusBar().showMessage("Export cancelled; no file was written.", 6000)
        else:
            self.errors.report("Exporting", error)
        self.export_finished.emit(None)

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


def dropped_files(mime) -> list[Path]:
    """Local files dropped from a file manager (not papers dragged inside the app)."""
    if not mime.hasUrls():
        return []
    paths = [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]
    return [path for path in paths if path.is_file()]
