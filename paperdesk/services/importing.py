"""Importing files: parse -> match/merge -> commit -> index (DESIGN §2).

Each file is one transaction: it lands whole or not at all, so a bad file, a crash or
a cancel leaves the library exactly as it was. A file seen before (by name) is
reported as a diff: new, updated, unchanged, and missing since last time.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from paperdesk.core.changes import Changes, ids_of
from paperdesk.core.errors import Cancelled, PaperdeskError
from paperdesk.core.models import PaperRecord
from paperdesk.formats.base import ReadResult
from paperdesk.formats.registry import BACKUP, BackupFileError, read_file
from paperdesk.services import backup, indexing, rolling_backups
from paperdesk.services._sync import index_may_lag, mutation
from paperdesk.services.desk import Desk
from paperdesk.services.matching import Matcher, record_keys
from paperdesk.services.merging import merge_updates, revision_updates
from paperdesk.services.near_duplicates import ImportNearDuplicates
from paperdesk.store.imports import BatchRecord

log = logging.getLogger(__name__)

Progress = Callable[[int, int, str], None]


@dataclass
class FileReport:
    file: str
    format: str = ""
    label: str = ""
    added: int = 0
    merged: int = 0
    # Papers an earlier import of this file brought that its new version changes.
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    missing: int = 0
    problems: list[str] = field(default_factory=list)
    error: str | None = None
    previously_imported: bool = False

    def summary(self) -> str:
        name = Path(self.file).name
        if self.error:
            return f"{name}: not imported: {self.error}"
        if self.format == BACKUP:
            return f"{name} (backup): restored {self.added} paper{'s' if self.added != 1 else ''}"
        parts = [f"{self.added} added"]
        if self.previously_imported:
            parts.append(f"{self.updated} updated")
        parts += [f"{self.merged} merged", f"{self.unchanged} already present"]
        if self.skipped:
            parts.append(f"{self.skipped} skipped")
        if self.previously_imported:
            parts.append(f"{self.missing} missing since last import")
        line = f"{name} ({self.format}): " + ", ".join(parts)
        changed = self.added or self.merged or self.updated
        if not changed and self.unchanged and not self.skipped:
            line += " - nothing new"
        return line


@dataclass
class ImportReport:
    files: list[FileReport] = field(default_factory=list)
    changes: Changes = field(default_factory=Changes)

    @property
    def added(self) -> int:
        return sum(f.added for f in self.files)

    @property
    def failed(self) -> bool:
        return any(f.error for f in self.files)

    def summary(self) -> str:
        return "\n".join(f.summary() for f in self.files)


@dataclass
class _Plan:
    """What one file will do to the library, decided before anything is written."""

    new_records: list[PaperRecord] = field(default_factory=list)
    new_keys: list[dict[str, str]] = field(default_factory=list)  # match keys of new_records
    updates: dict[int, dict[str, object]] = field(default_factory=dict)
    present_ids: list[int] = field(default_factory=list)
    unchanged: int = 0
    updated: int = 0  # of `updates`, those to papers an earlier import of the file brought


@mutation
def import_files(
    desk: Desk,
    paths: Sequence[Path],
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ImportReport:
    report = ImportReport()
    rolling_backups.before_import(desk)
    for number, path in enumerate(paths, start=1):
        if progress:
            progress(number - 1, len(paths), f"Reading {Path(path).name}")
        file_report, changes = import_file(desk, Path(path), progress, cancelled)
        report.files.append(file_report)
        report.changes = report.changes.merged_with(changes)
    if progress:
        progress(len(paths), len(paths), "Done")
    return report


def import_file(
    desk: Desk,
    path: Path,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> tuple[FileReport, Changes]:
    """Import one file; errors are reported, never raised, and never half-applied."""
    report = FileReport(file=str(path))
    try:
        data = path.read_bytes()
    except OSError as error:
        report.error = f"cannot read the file: {error.strerror}"
        return report, Changes()
    try:
        result = read_file(path)
    except BackupFileError:
        return _restore(desk, path, report, progress)
    except PaperdeskError as error:
        report.error = str(error).removeprefix(f"{path}: ")
        return report, Changes()
    report.format, report.label = result.format, result.label
    report.problems = [str(p) for p in result.problems]
    report.skipped = len(result.problems)
    try:
        changes = _apply(desk, path, data, result, report, progress, cancelled)
    except Cancelled:
        report.error = "cancelled; nothing from this file was imported"
        return report, Changes()
    return report, changes


def _restore(
    desk: Desk, path: Path, report: FileReport, progress: Progress | None
) -> tuple[FileReport, Changes]:
    """A paperdesk backup is restored whole (into an empty library), not merged."""
    report.format = BACKUP

    def indexing_progress(done: int, total: int) -> None:
        if progress:
            progress(done, total, f"Indexing {path.name}")

    try:
        changes = backup.restore_backup(desk, path, indexing_progress)
    except PaperdeskError as error:
        report.error = str(error).removeprefix(f"{path}: ")
        return report, Changes()
    report.added = len(changes.paper_ids)
    return report, changes


def _apply(
    desk: Desk,
    path: Path,
    data: bytes,
    result: ReadResult,
    report: FileReport,
    progress: Progress | None,
    cancelled: Callable[[], bool] | None,
) -> Changes:
    library = desk.library
    previous = [b for b in library.imports.batches() if b.file_name == path.name]
    last_time = set(library.imports.batch_paper_ids(previous[-1].id)) if previous else set()
    its_own = library.imports.papers_first_imported_from(path.name) if previous else set()
    plan = _plan(desk, result.records, its_own)
    report.added = len(plan.new_records)
    report.updated = plan.updated
    report.merged = len(plan.updates) - plan.updated
    report.unchanged = plan.unchanged
    if cancelled and cancelled():
        raise Cancelled
    batch = BatchRecord(
        label=result.label,
        file_name=path.name,
        sha256=hashlib.sha256(data).hexdigest(),
        format=result.format,
        added=report.added,
        merged=report.merged + report.updated,
        unchanged=report.unchanged,
        skipped=report.skipped,
    )
    description = f"Import {path.name}"
    new_ids = library.imports.commit(
        description,
        plan.new_records,
        keys=plan.new_keys,
        updates=plan.updates,
        batch=batch,
        present_ids=plan.present_ids,
        cancelled=cancelled,
    )
    if previous:
        report.previously_imported = True
        report.missing = len(last_time - {*plan.present_ids, *new_ids})

    def indexing_progress(done: int) -> None:
        if progress:
            progress(done, len(new_ids), f"Indexing {path.name}")

    indexing_progress(0)
    with index_may_lag():
        indexing.add_new(library, desk.index, new_ids, indexing_progress)
        indexing.sync_changes(library, desk.index, Changes(paper_ids=ids_of(plan.updates)))
    return Changes(
        description,
        ids_of([*new_ids, *plan.updates]),
        papers_added_or_removed=bool(new_ids),
        imports=True,
    )


def _plan(desk: Desk, records: Sequence[PaperRecord], its_own: set[int]) -> _Plan:
    """Decide for each record: new paper, merge into an existing one, or unchanged.

    Exact keys first; a record they miss is compared with similar abstracts. Papers the
    file brought in the first place (`its_own`) take its newer version's abstract.
    """
    matcher = Matcher.from_library_keys(
        desk.library.papers.match_keys(), desk.library.papers.venues()
    )
    similar = ImportNearDuplicates(desk.library.papers.match_texts)
    plan = _Plan()
    # negative ids: new papers earlier in this same file, with their match keys
    pending: dict[int, tuple[PaperRecord, dict[str, str]]] = {}
    matched: dict[int, list[PaperRecord]] = {}
    for record in records:
        keys = record_keys(record)
        found = matcher.find(keys)
        if found is None:
            near = similar.find(record)
            found = near if near is not None and matcher.compatible(near[0], keys) else None
        if found is None:
            temporary_id = -(len(pending) + 1)
            pending[temporary_id] = (record, keys)
            matcher.add(temporary_id, keys)
            similar.add(temporary_id, record)
        elif found[0] > 0:
            matched.setdefault(found[0], []).append(record)
        # a record matching an earlier record of the same file is a duplicate within it
    plan.new_records = [record for record, _ in pending.values()]
    plan.new_keys = [keys for _, keys in pending.values()]
    stored = desk.library.papers.stored_values(list(matched))
    for paper_id, incoming in matched.items():
        plan.present_ids.append(paper_id)
        row = stored[paper_id]
        # Two records of one file on one paper (a workshop and a conference version
        # with one title) give it no single newer text: they merge as any source does.
        revised = paper_id in its_own and len(incoming) == 1
        rule = revision_updates if revised else merge_updates
        changed: dict[str, object] = {}
        for record in incoming:
            updates = rule({**row, **changed}, record)
            changed.update(updates)
        if changed:
            plan.updates[paper_id] = changed
            if paper_id in its_own:
                plan.updated += 1
        else:
            plan.unchanged += 1
    return plan
