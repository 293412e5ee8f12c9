"""Imports and exports: the long jobs, with progress, a Cancel button and a report.

An export is one service call on the writer thread (through `Operations.run_long`);
an import plans each file on the pool (a large one in a process of its own:
services/plan_process.py) and commits it on the writer (`import_files`).
One of them runs at a time. What an export may be about (a shortlist, the selection, the papers
listed, the whole library) comes from the window's `Panes`.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from PySide6.QtCore import QMimeData, QObject, Signal

from paperdesk.core.changes import Changes
from paperdesk.core.errors import Cancelled, PaperdeskError, StalePlanError
from paperdesk.core.scope import Kind, Scope
from paperdesk.gui.dialogs import ImportReportDialog
from paperdesk.gui.export_dialog import FORMAT_LABELS, ExportDialog
from paperdesk.gui.operations import Operations
from paperdesk.gui.panes import Panes
from paperdesk.gui.tasks import Job
from paperdesk.services import exporting, importing, plan_process, reading
from paperdesk.services.desk import Desk


@dataclass(eq=False)
class _ImportRun:
    """One import of some files: what is left to do, and the report so far."""

    pending: list[Path]
    show_report: bool
    report: importing.ImportReport = field(default_factory=importing.ImportReport)
    cancel: threading.Event = field(default_factory=threading.Event)
    attempts: int = 0
    indexing: Changes | None = None  # the file written and being indexed, if any

    def cancelled(self) -> bool:
        return self.cancel.is_set()

    def done(self, report: importing.FileReport, changes: Changes) -> None:
        self.pending.pop(0)
        self.attempts = 0
        self.report.files.append(report)
        self.report.changes = self.report.changes.merged_with(changes)

    def report_cancelled(self) -> None:
        """The file being imported when Cancel came is reported as not imported (one
        being indexed is withdrawn by then, see Transfers._withdraw)."""
        if self.indexing is not None:
            self.pending.insert(0, Path(self.report.files.pop().file))
        if self.pending:
            self.report.files.append(importing.cancelled_report(self.pending[0]))


class Transfers(QObject):
    import_finished = Signal(object)
    export_finished = Signal(object)

    def __init__(self, operations: Operations, panes: Panes) -> None:
        super().__init__(panes.window)
        self.operations = operations
        self.panes = panes
        self.import_report: ImportReportDialog | None = None
        self.export_dialog: ExportDialog | None = None
        self._long_job: Job | None = None
        self._import: _ImportRun | None = None
        panes.progress.cancel_requested.connect(self.cancel)

    def _busy(self) -> bool:
        busy = self._long_job is not None or self._import is not None
        if busy:
            self.panes.tell("Wait for the running import or export to end.", 3000)
        return busy

    # --- importing -------------------------------------------------------------------
    def choose_import(self) -> None:
        self.import_files(self.panes.ask.import_paths())

    def import_files(self, paths: Sequence[Path], report: bool = True) -> None:
        """Import files one after another: each is planned on the pool (reading and
        matching, while the user goes on working), committed on the writer (quick),
        then indexed on the writer. Cancel answers at once: the library is left as it
        was before the file being imported (an import already written is withdrawn)."""
        desk = self.operations.desk
        paths = [Path(p) for p in paths]
        if desk is None or not paths or self._busy():
            return
        self.panes.detail.notes.flush()
        noun = "file" if len(paths) == 1 else "files"
        self.panes.progress.start(f"Importing {len(paths)} {noun}…", cancellable=True)
        self._import = _ImportRun(paths, report)
        self._plan_next(self._import)

    def _plan_next(self, run: _ImportRun) -> None:
        if run.cancel.is_set() or not run.pending:
            self._finish_import(run)
            return
        path = run.pending[0]

        def plan(desk: Desk, job: Job) -> importing.FilePlan:
            # A large file, or a large library: in a process of its own, so the
            # window's thread never waits for the GIL behind the matching.
            return plan_process.plan_file(desk, path, job.report_progress, run.cancelled)

        self._long_job = self.operations.run_long(
            "Reading",
            plan,
            on_done=partial(self._commit, run),
            on_error=partial(self._import_step_failed, run),
            on_progress=self.panes.progress.update_progress,
            planning=True,
        )

    def _commit(self, run: _ImportRun, plan: importing.FilePlan) -> None:
        if run is not self._import:
            return  # a cancelled run's plan: dropped, nothing was written

        def commit(desk: Desk, job: Job) -> tuple[importing.FileReport, Changes]:
            return importing.commit(desk, plan, job.report_progress, run.cancelled, index=False)

        self._long_job = self.operations.run_long(
            "Importing",
            commit,
            on_done=partial(self._index, run),
            on_error=partial(self._import_step_failed, run),
            on_progress=self.panes.progress.update_progress,
        )

    def _index(self, run: _ImportRun, result: tuple[importing.FileReport, Changes]) -> None:
        report, changes = result
        run.done(report, changes)
        self.operations.apply_changes(changes)  # the papers show now; search follows

        def index(desk: Desk, job: Job) -> None:
            importing.index_import(desk, report, changes, job.report_progress, run.cancelled)

        def indexed(_: object) -> None:
            if run.cancel.is_set():
                self._withdraw(changes)  # cancelled just as the indexing ended
            elif run is self._import:
                run.indexing = None
                self._plan_next(run)

        run.indexing = changes

        self._long_job = self.operations.run_long(
            "Indexing",
            index,
            on_done=indexed,
            on_error=partial(self._import_step_failed, run, changes=changes),
            on_progress=self.panes.progress.update_progress,
        )

    def _import_step_failed(
        self, run: _ImportRun, error: BaseException, changes: Changes | None = None
    ) -> None:
        if isinstance(error, Cancelled) and changes is not None:
            self._withdraw(changes)  # cancelled while indexing a file already written
        if isinstance(error, StalePlanError) and run.attempts < importing.PLAN_ATTEMPTS:
            run.attempts += 1  # the library changed meanwhile: plan the file again
            self._plan_next(run)
            return
        if run is not self._import:
            return
        if isinstance(error, Cancelled):
            run.cancel.set()
            self._finish_import(run)
            return
        self._end()
        self._import = None
        self.operations.errors.report("Importing", error)

    def cancel(self) -> None:
        """The progress bar's Cancel: stop the running import or export at once."""
        if self._import is not None:
            self._import.cancel.set()
            self._finish_import(self._import)  # late results of its jobs are dropped
        elif self._long_job is not None:
            self._long_job.cancel()
            self.panes.progress.cancelling()

    def _withdraw(self, changes: Changes) -> None:
        """Take back a file written before the user cancelled its import."""
        self.operations.perform("Cancel import", lambda desk: importing.withdraw(desk, changes))

    def _finish_import(self, run: _ImportRun) -> None:
        if run is not self._import:
            return
        self._import = None
        if run.cancel.is_set():
            run.report_cancelled()
        self._end()
        report = run.report
        if run.show_report or report.failed:
            self.import_report = ImportReportDialog(report, self.panes.window)
            self.import_report.open()
        else:
            self.panes.tell(f"Loaded {report.added:,} demo papers.", 6000)
        self.import_finished.emit(report)

    def _end(self) -> None:
        self._long_job = None
        self.panes.progress.hide()

    # --- exporting -------------------------------------------------------------------
    def export_selection(self) -> None:
        """The papers' right-click menu: the export dialog about the selection."""
        if self.panes.selection_or_warn():
            self.open_export_dialog(selection_first=True)

    def open_export_dialog(
        self, shortlist: str | None = None, selection_first: bool = False
    ) -> None:
        desk = self.operations.desk
        if desk is None:
            return
        choices = self._export_choices(desk, shortlist)
        if selection_first:
            choices.sort(key=lambda choice: choice[1].kind != Kind.IDS)
        dialog = ExportDialog(choices, self.panes.window)
        self.export_dialog = dialog
        dialog.preview_wanted.connect(self._preview_export)
        dialog.accepted.connect(
            lambda: self.ask_export_path(
                dialog.chosen_scope(), dialog.chosen_format(), dialog.chosen_options()
            )
        )
        dialog.open()

    def _export_choices(self, desk: Desk, shortlist: str | None) -> list[tuple[str, Scope]]:
        """What the user may mean, most specific first: a shortlist, the selection, the list."""
        choices = []
        scope = self.panes.sidebar.scope()
        name = shortlist or scope.shortlist
        if name:
            choices.append((f"Shortlist “{name}”, in its order", Scope.of_shortlist(name)))
        if selected := self.panes.table.selected_ids():
            noun = "paper" if len(selected) == 1 else "papers"
            choices.append((f"The {len(selected):,} selected {noun}", Scope.of_ids(selected)))
        if self.panes.search_bar.text() or scope.kind != Kind.ALL:
            shown = self.panes.table.paper_model().ids()
            choices.append((f"The {len(shown):,} papers listed", Scope.of_ids(shown)))
        total = reading.count(desk)
        choices.append((f"The whole library ({total:,} papers)", Scope()))
        return choices

    def _preview_export(self, scope: Scope, format: str, options: exporting.Options) -> None:
        dialog = self.export_dialog
        if dialog is None:
            return

        def failed(error: BaseException) -> None:
            if isinstance(error, PaperdeskError):
                dialog.show_preview(f"Cannot export this: {error}")
            else:
                self.operations.errors.report("Previewing the export", error)

        self.operations.read(
            "Export preview",
            lambda desk: exporting.preview(desk, scope, format, options),
            on_done=dialog.show_preview,
            on_error=failed,
            key="export-preview",
        )

    def ask_export_path(self, scope: Scope, format: str, options: exporting.Options) -> None:
        stem = scope.shortlist or ("library" if scope.is_whole_library else "papers")
        suggested = f"{file_stem(stem)}{exporting.EXTENSIONS[format]}"
        if path := self.panes.ask.save_path("Export papers", suggested, FORMAT_LABELS[format]):
            self.start_export(scope, path, format, options)

    def start_export(
        self,
        scope: Scope,
        path: Path,
        format: str,
        options: exporting.Options | None = None,
    ) -> None:
        chosen = options or exporting.Options()
        if self.operations.desk is None or self._busy():
            return
        self.panes.detail.notes.flush()
        self.panes.progress.start(f"Exporting {scope.describe()}…", cancellable=True)
        self._long_job = self.operations.run_long(
            "Exporting",
            # The file dialog asked the usual question before replacing a file.
            lambda desk, job: exporting.export(
                desk, scope, Path(path), format, chosen, job.is_cancelled, overwrite=True
            ),
            on_done=self._on_export_done,
            on_error=self._on_export_failed,
        )

    def _on_export_done(self, result: exporting.ExportResult) -> None:
        self._end()
        self.operations.apply_changes(result.changes)
        noun = "paper" if result.count == 1 else "papers"
        self.panes.tell(f"Exported {result.count:,} {noun} to {result.path}", 8000)
        self.export_finished.emit(result)

    def _on_export_failed(self, error: BaseException) -> None:
        self._end()
        if isinstance(error, Cancelled):
            self.panes.tell("Export cancelled; no file was written.", 6000)
        else:
            self.operations.errors.report("Exporting", error)
        self.export_finished.emit(None)


def dropped_files(mime: QMimeData) -> list[Path]:
    """Local files dropped from a file manager (not papers dragged inside the app)."""
    if not mime.hasUrls():
        return []
    paths = [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]
    return [path for path in paths if path.is_file()]


def file_stem(name: str) -> str:
    """A file name made of a shortlist's name: `Reading group (ICML)` -> `reading-group-icml`.

    No spaces or punctuation: the name is typed in terminals and LaTeX \\bibliography{}.
    """
    words = re.findall(r"\w+", name.casefold())
    return "-".join(words) or "papers"
