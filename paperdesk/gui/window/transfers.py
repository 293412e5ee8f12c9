"""Imports and exports: the long jobs, with progress, a Cancel button and a report.

An export is one service call on the writer thread (through `Operations.run_long`);
an import is a service's `ImportSession` whose steps run as jobs: each file planned on
the pool (a large one in a process of its own), committed, then indexed, on the writer.
One of them runs at a time. What an export may be about (a shortlist, the selection, the papers
listed, the whole library) comes from the window's `Panes`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QMimeData, QObject, Signal

from paperdesk.core.changes import Changes
from paperdesk.core.errors import Cancelled, PaperdeskError, StalePlanError
from paperdesk.core.scope import Kind, Scope
from paperdesk.gui.actions import lookup
from paperdesk.gui.dialogs.export import FORMAT_LABELS, ExportDialog
from paperdesk.gui.dialogs.questions import ImportReportDialog
from paperdesk.gui.operations import Operations
from paperdesk.gui.tasks import Job
from paperdesk.gui.window.panes import Panes
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import exporting, identifier_lookup, importing, reading


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
        self._import: importing.ImportSession | None = None
        self._show_import_report = True
        panes.progress.cancel_requested.connect(self.cancel)

    def _busy(self) -> bool:
        busy = self._long_job is not None or self._import is not None
        if busy:
            self.panes.tell("Wait for the running import or export to end.", 3000)
        return busy

    # --- adding by identifier -------------------------------------------------------
    def choose_identifiers(self) -> None:
        if text := self.panes.ask.identifiers():
            self.add_identifiers(identifier_lookup.split_identifiers(text))

    def add_identifiers(self, identifiers: Sequence[str]) -> None:
        """Look the identifiers up on the pool (the network may be slow: progress and
        Cancel show), then add what was found as one action on the writer."""
        wanted = list(identifiers)
        if self.operations.desk is None or not wanted or self._busy():
            return
        noun = "identifier" if len(wanted) == 1 else "identifiers"
        self.panes.progress.start(f"Looking up {len(wanted)} {noun}…", cancellable=True)
        self._long_job = self.operations.run_long(
            "Looking up identifiers",
            lambda _desk, job: identifier_lookup.fetch_records(
                wanted, progress=job.report_progress, cancelled=job.is_cancelled
            ),
            self._looked_up,
            self._lookup_failed,
            on_progress=self.panes.progress.update_progress,
            planning=True,
        )

    def _looked_up(self, fetched: identifier_lookup.Fetched) -> None:
        self._end()
        if fetched.records:
            lookup.add_papers(self.operations, fetched.records, self.panes.tell)
        if fetched.failures:
            lines = "\n".join(fetched.failures)
            if fetched.offline:
                lines += "\n\nYou seem to be offline: nothing could be looked up there."
            self.operations.errors.report("Adding by identifier", PaperdeskError(lines))

    def _lookup_failed(self, error: BaseException) -> None:
        self._end()
        if not isinstance(error, Cancelled):
            self.operations.errors.report("Adding by identifier", error)

    # --- importing -------------------------------------------------------------------
    def choose_import(self) -> None:
        self.import_files(self.panes.ask.import_paths())

    def import_files(self, paths: Sequence[Path], report: bool = True) -> None:
        """Import files one after another (services/use_cases/importing.py `ImportSession`): each
        is planned on the pool (in a process of its own when large), committed on the
        writer (quick), shown, then indexed on the writer. Cancel answers at once: the
        library is left as it was before the file being imported (a file already written
        is withdrawn). `report`: show the import's report (else a line in the status bar)."""
        desk = self.operations.desk
        paths = [Path(p) for p in paths]
        if desk is None or not paths or self._busy():
            return
        self.panes.detail.notes.flush()
        noun = "file" if len(paths) == 1 else "files"
        self.panes.progress.start(f"Importing {len(paths)} {noun}…", cancellable=True)
        self._import = importing.ImportSession(desk, paths, plan_apart=True)
        self._show_import_report = report
        self._plan_next(self._import)

    def _plan_next(self, session: importing.ImportSession) -> None:
        if session.next_file() is None:
            self._finish_import(session)
            return
        self._step(
            session,
            "Reading",
            lambda _desk, job: session.plan(job.report_progress),
            partial(self._commit, session),
            planning=True,
        )

    def _commit(self, session: importing.ImportSession, plan: importing.FilePlan) -> None:
        if plan.report.doubt and not session.cancelled():
            name = Path(plan.report.file).name
            plan.doubt_accepted = self.panes.ask.import_anyway(name, plan.report.doubt)

        def written_too_late(result: tuple[importing.FileReport, Changes]) -> None:
            self._withdraw(result[1])  # the write ended just as the user cancelled

        self._step(
            session,
            "Importing",
            lambda _desk, job: session.commit(plan, job.report_progress),
            partial(self._index, session),
            late=written_too_late,
        )

    def _index(
        self, session: importing.ImportSession, result: tuple[importing.FileReport, Changes]
    ) -> None:
        session.committed(*result)
        self.operations.apply_changes(result[1])  # the papers show now; search follows

        def indexed(_: object) -> None:
            session.indexed()
            self._plan_next(session)

        def indexed_too_late(_: object) -> None:
            if session.indexing is not None:
                self._withdraw(session.indexing)  # cancelled just as the indexing ended

        self._step(
            session,
            "Indexing",
            lambda _desk, job: session.index(job.report_progress),
            indexed,
            late=indexed_too_late,
        )

    def _step(
        self,
        session: importing.ImportSession,
        name: str,
        work: Callable[[Desk, Job], Any],
        then: Callable[[Any], None],
        late: Callable[[Any], None] | None = None,
        planning: bool = False,
    ) -> None:
        """One step of the import, as a long job. Its result goes on to `then`, or, when
        the import was cancelled meanwhile, to `late` (to take back what it wrote)."""

        def done(result: Any) -> None:
            if session is self._import:
                then(result)
            elif late is not None:
                late(result)

        self._long_job = self.operations.run_long(
            name,
            work,
            on_done=done,
            on_error=partial(self._import_step_failed, session),
            on_progress=self.panes.progress.update_progress,
            planning=planning,
        )

    def _import_step_failed(self, session: importing.ImportSession, error: BaseException) -> None:
        if isinstance(error, Cancelled) and session.indexing is not None:
            self._withdraw(session.indexing)  # cancelled while indexing a file already written
        if session is not self._import:
            return
        if session.plan_again(error) or isinstance(error, StalePlanError):
            self._plan_next(session)  # the same file again, or the next one
        elif isinstance(error, Cancelled):
            self._finish_import(session)
        else:
            self._end()
            self._import = None
            self.operations.errors.report("Importing", error)

    def cancel(self) -> None:
        """The progress bar's Cancel: stop the running import or export at once."""
        if self._import is not None:
            self._import.cancel()
            self._finish_import(self._import)  # late results of its jobs are dropped
        elif self._long_job is not None:
            self._long_job.cancel()
            self.panes.progress.cancelling()

    def _withdraw(self, changes: Changes) -> None:
        """Take back a file written before the user cancelled its import."""
        if changes.history_id is not None:
            self.operations.perform("Cancel import", lambda desk: importing.withdraw(desk, changes))

    def _finish_import(self, session: importing.ImportSession) -> None:
        if session is not self._import:
            return
        self._import = None
        self._end()
        report = session.finish()
        if self._show_import_report or report.failed:
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
