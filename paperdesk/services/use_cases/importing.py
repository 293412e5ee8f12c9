"""Importing files: plan (read, match, decide) -> commit (write) -> index.

`plan_file` (services/use_cases/import_plan.py) reads and decides without writing, on any
thread; `commit` writes one plan in one transaction, on the writer: a file lands whole
or not at all, so a bad file, a crash or a cancel leaves the library as it was. Each
file is one undoable action. A file seen before (by name) is reported as a diff: new,
updated, unchanged, and missing since last time. `import_files` does both steps for
the command line; the GUI runs them on two threads (gui/window/transfers.py).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from paperdesk.core.changes import Changes
from paperdesk.core.errors import Cancelled, PaperdeskError, StalePlanError
from paperdesk.formats.registry import printable_path
from paperdesk.services.runtime import team_index
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import backup, database_backups, plan_process
from paperdesk.services.use_cases._sync import index_may_lag, mutation
from paperdesk.services.use_cases.import_plan import FilePlan, Progress, plan_file
from paperdesk.services.use_cases.import_report import EntryMatch, FileReport, ImportReport
from paperdesk.store.imports import BatchRecord

log = logging.getLogger(__name__)

#: How often a plan is made again when the library changed before it could be written.
PLAN_ATTEMPTS = 3

__all__ = [
    "FilePlan",
    "FileReport",
    "ImportReport",
    "ImportSession",
    "commit",
    "import_files",
    "index_import",
    "plan_file",
    "withdraw",
]


class ImportSession:
    """One import of some files, file after file: plan, commit, index (compare beets'
    `importer.ImportSession`).

    Planning reads the file and matches it against the library, writing nothing (on
    any thread; with `plan_apart`, a large file or library is planned in a process of
    its own: services/use_cases/plan_process.py). The commit writes the plan in one transaction.
    Indexing then makes the file's papers searchable. The command line runs every step
    on one thread (`run`); the window runs each as a job of its own and shows a file's
    papers between its commit and its indexing (gui/window/transfers.py). Both end with
    `finish`, whose report names every file: imported, failed, or not imported because
    the user cancelled.

    A plan the library changed under (`StalePlanError`) is made again, up to
    `PLAN_ATTEMPTS` times. `cancel` may come from any thread: the step under way stops,
    and a file written but not yet indexed is to be withdrawn (`withdraw`).
    """

    def __init__(
        self,
        desk: Desk,
        paths: Sequence[Path],
        plan_apart: bool = False,
        cancelled: Callable[[], bool] | None = None,
        accept_doubtful: bool = False,
    ) -> None:
        self.desk = desk
        #: Import files in doubt without asking (the command line's `--yes`).
        self.accept_doubtful = accept_doubtful
        self.pending = [Path(p) for p in paths]
        self.total = len(self.pending)
        self.report = ImportReport()
        self.plan_apart = plan_apart
        #: The file written and not indexed yet: withdrawn if the user cancels now.
        self.indexing: Changes | None = None
        self._cancel = threading.Event()
        self._also_cancelled = cancelled
        self._attempts = 0
        self._needs_index = False

    def cancel(self) -> None:
        self._cancel.set()

    def cancelled(self) -> bool:
        return self._cancel.is_set() or (
            self._also_cancelled is not None and self._also_cancelled()
        )

    def next_file(self) -> Path | None:
        """The file to plan next; None when every file is done or the user cancelled."""
        return self.pending[0] if self.pending and not self.cancelled() else None

    def plan(self, progress: Progress | None = None) -> FilePlan:
        """Step 1, any thread: read and match the next file."""
        path = self.pending[0]
        if self.plan_apart:
            # The window's thread must never wait for the GIL behind the matching.
            return plan_process.plan_file(self.desk, path, progress, self.cancelled)
        return plan_file(self.desk, path, progress, self.cancelled)

    def commit(
        self, plan: FilePlan, progress: Progress | None = None
    ) -> tuple[FileReport, Changes]:
        """Step 2, on the writer: write the plan (its papers are not searchable yet);
        then `committed` with what this answers.

        A file in doubt (a seed list that reads as noise) is written only when the user
        agreed: `accept_doubtful`, or `plan.doubt_accepted` (the window asks first).
        """
        doubt = plan.report.doubt
        if doubt and not (self.accept_doubtful or plan.doubt_accepted):
            self._needs_index = False
            planned = plan.report
            refused = FileReport(planned.file, planned.format, planned.label, doubt=doubt)
            refused.error = f"{doubt}; nothing was imported (`import --yes` imports it anyway)"
            return refused, Changes()
        self._needs_index = not plan.is_backup  # a backup is restored with its index
        return commit(self.desk, plan, progress, self.cancelled, index=False)

    def committed(self, report: FileReport, changes: Changes) -> None:
        """The file is written: it counts in the report; it waits to be indexed."""
        self.pending.pop(0)
        self._attempts = 0
        self.report.files.append(report)
        self.report.changes = self.report.changes.merged_with(changes)
        self.indexing = changes if self._needs_index and changes.paper_ids else None

    def index(self, progress: Progress | None = None) -> None:
        """Step 3, on the writer: make the file just written searchable (Cancelled, the
        index unchanged, when the user cancels: then `withdraw` it)."""
        if self.indexing is not None:
            index_import(self.desk, self.report.files[-1], self.indexing, progress, self.cancelled)

    def indexed(self) -> None:
        self.indexing = None

    def plan_again(self, error: BaseException) -> bool:
        """A step failed with `error`: whether to plan the same file again (the library
        changed under its plan). After `PLAN_ATTEMPTS` the file is reported as failed and
        the import goes on with the next one."""
        if not isinstance(error, StalePlanError):
            return False
        log.info("planning %s again: %s", self.pending[0], error)
        self._attempts += 1
        if self._attempts < PLAN_ATTEMPTS:
            return True
        report = FileReport(file=printable_path(self.pending.pop(0)))
        report.error = "the library kept changing while this file was being imported; try again"
        self.report.files.append(report)
        self._attempts = 0
        return False

    def finish(self) -> ImportReport:
        """The report of every file. A cancelled import reports the file it stopped as
        not imported (one written and being indexed is withdrawn by then)."""
        if self.cancelled():
            if self.indexing is not None:
                self.pending.insert(0, Path(self.report.files.pop().file))
            if self.pending:
                self.report.files.append(cancelled_report(self.pending[0]))
        return self.report

    def run(self, progress: Progress | None = None) -> ImportReport:
        """Every step of every file on this thread (the command line's way)."""
        while (path := self.next_file()) is not None:
            if progress:
                progress(self.total - len(self.pending), self.total, f"Reading {path.name}")
            try:
                self.committed(*self.commit(self.plan(progress), progress))
                self.index(progress)
            except Cancelled:
                break
            except StalePlanError as error:
                self.plan_again(error)
                continue
            self.indexed()
        report = self.finish()
        if self.indexing is not None:
            withdraw(self.desk, self.indexing)
        if progress and not self.cancelled():
            progress(self.total, self.total, "Done")
        return report


def import_files(
    desk: Desk,
    paths: Sequence[Path],
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    accept_doubtful: bool = False,
) -> ImportReport:
    """Import files one after another, on this thread: an `ImportSession` run whole.
    Files in doubt are imported only with `accept_doubtful` (the CLI's `--yes`)."""
    session = ImportSession(desk, paths, cancelled=cancelled, accept_doubtful=accept_doubtful)
    return session.run(progress)


def cancelled_report(path: Path) -> FileReport:
    report = FileReport(file=printable_path(path))
    report.error = "cancelled; nothing from this file was imported"
    return report


@mutation
def commit(
    desk: Desk,
    plan: FilePlan,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    index: bool = True,
) -> tuple[FileReport, Changes]:
    """Write a plan (on the writer thread), then index what it added or changed, unless
    `index` is false (the GUI indexes as a job of its own: `index_import`).

    StalePlanError when the library changed under the plan: plan the file again.
    Cancelled when `cancelled()` turns true before the write ends: nothing was written.
    The Changes name the import's history entry (`withdraw` undoes it).
    """
    report = plan.report
    if report.error:
        return report, Changes()
    if plan.is_backup:
        return _restore(desk, plan.path, report, progress)
    name = printable_path(Path(plan.path.name))
    batch = BatchRecord(
        label=report.label,
        file_name=name,
        sha256=plan.sha256,
        format=report.format,
        added=report.added,
        merged=report.merged + report.updated,
        unchanged=report.unchanged,
        skipped=report.skipped,
        definitions=plan.definitions,
    )
    description = f"Import {name}"
    if report.added or plan.updates or plan.user:
        # An import that changes no paper has nothing to take back: at 100,000 papers its
        # backup was a copy of the whole 223 MB database for nothing.
        database_backups.before_import(desk)
    index_was_current = desk._follower.resumable()
    committed = desk._library.imports.commit(
        description,
        plan.new_papers,
        updates=plan.updates,
        batch=batch,
        present_ids=plan.present_ids,
        basis=plan.basis,
        cancelled=cancelled,
        user=plan.user,
        index_current=index_was_current,
    )
    new_ids = report.added_ids = committed.new_ids
    # An entry merged into a paper an earlier entry added names it now that it has an id.
    report.matches = [
        EntryMatch(m.line, new_ids[-m.paper_id - 1], m.outcome, m.evidence) if m.paper_id < 0 else m
        for m in report.matches
    ]
    if report.previously_imported:
        report.missing = len(plan.previous_ids - {*plan.present_ids, *new_ids})
    changes = committed.changes
    # The index is behind on purpose until index_import: searches say so meanwhile, and
    # the next action does not take it for stale and rebuild it whole.
    desk._follower.importing(changes, index_was_current)
    if index:
        index_import(desk, report, changes, progress)
    return report, changes


@mutation
def index_import(
    desk: Desk,
    report: FileReport,
    changes: Changes,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> None:
    """Make a committed import searchable: its new papers, and the papers it merged into.

    Cancelled (the index unchanged) when `cancelled()` turns true; `withdraw` then takes
    the import back, or the index catches up when the library next opens.
    """
    name = Path(report.file).name

    def indexing_progress(done: int) -> None:
        if progress:
            progress(done, len(report.added_ids), f"Indexing {name}")

    indexing_progress(0)
    with index_may_lag():
        desk._follower.add_imported(report.added_ids, changes, indexing_progress, cancelled)
        if changes.generation is not None:
            team_index.indexed_own(desk._library, desk._index, changes.generation)


@mutation
def withdraw(desk: Desk, changes: Changes) -> Changes | None:
    """Take back an import the user cancelled after it was written, if nothing was done
    since (then the import is what Undo would undo); None when it had to stay. The
    import leaves no history: the library is as it was before it."""
    if changes.history_id is None:
        return None
    return desk._library.imports.withdraw(changes.history_id)


def _restore(
    desk: Desk, path: Path, report: FileReport, progress: Progress | None
) -> tuple[FileReport, Changes]:
    """A paperdesk backup is restored whole (into an empty library), not merged."""

    def indexing_progress(done: int, total: int) -> None:
        if progress:
            progress(done, total, f"Indexing {path.name}")

    try:
        changes = backup.restore_backup(desk, path, indexing_progress)
    except PaperdeskError as error:
        report.error = str(error).removeprefix(f"{path}: ")
        return report, Changes()
    report.added = report.read = len(changes.paper_ids)
    return report, changes
