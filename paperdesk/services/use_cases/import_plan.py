"""Planning an import: what each entry of a file will do, decided before anything is written.

Planning reads the file and the library and writes nothing, so it may run on any
thread (the GUI runs it beside the writer, so a star rating never waits behind an
import) and it stops at the next chunk of entries when cancelled. `importing.commit`
then writes the plan in one transaction, after checking that the library did not
change under it in a way that matters (`StalePlan`: plan again).

Each entry becomes a new paper, or meets a paper (services/use_cases/matching.py): an existing
one, whose stored values it may fill (services/use_cases/merging.py), or one an earlier entry
of the file added. Papers the file brought the first time (`its_own`) take the newer
version's abstract. Citation keys are the user's: an entry's own key is stored; one
already used (twice in one file, or by another paper) gets the first free letter
suffix, as generated keys do (`smith2020` -> `smith2020a`, see core/citekeys), with a
warning; a key LaTeX cannot cite is not stored, and the export makes one.

The user's data an entry carries (an export's tags, note, rating, status, shortlists:
`PaperRecord.user`) goes with it: a new paper takes it all, a paper already there
keeps what it has and gains what it lacks (services/use_cases/merging.py's rule for fields).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperdesk.core.citekeys import is_valid_key, unique_key
from paperdesk.core.errors import Cancelled, FormatError, PaperdeskError
from paperdesk.core.models import BibtexDefinitions, PaperRecord, Status, UserData
from paperdesk.formats.registry import BACKUP, BackupFileError, printable_path
from paperdesk.formats.streaming import open_records
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases.import_report import (
    MERGED,
    UNCHANGED,
    UPDATED,
    EntryMatch,
    FileReport,
)
from paperdesk.services.use_cases.import_spool import NewPaperSpool
from paperdesk.services.use_cases.matching import Keys, Matcher, record_keys
from paperdesk.services.use_cases.merging import as_stored, merge_updates, revision_updates
from paperdesk.store.imports import NewPaper, PlanBasis
from paperdesk.store.library import Library
from paperdesk.store.papers import KEY_GENERATED

#: Entries matched per round of library lookups (a few indexed queries each).
CHUNK = 500

Progress = Callable[[int, int, str], None]


@dataclass
class FilePlan:
    """One file's import, decided: the new papers, the updates, the report so far.

    Updates are keyed by paper id; a negative id -n is the file's n-th new paper (an
    entry merged into an earlier entry's paper), resolved when the plan is committed.
    """

    path: Path
    report: FileReport
    sha256: str = ""
    is_backup: bool = False
    #: The user agreed to import a file in doubt (`report.doubt`): the window asked.
    doubt_accepted: bool = False
    new_papers: NewPaperSpool = field(default_factory=NewPaperSpool)
    updates: dict[int, dict[str, Any]] = field(default_factory=dict)
    present_ids: list[int] = field(default_factory=list)
    previous_ids: set[int] = field(default_factory=set)
    basis: PlanBasis | None = None
    user: dict[int, UserData] = field(default_factory=dict)  # by paper id, as `updates`
    definitions: BibtexDefinitions = BibtexDefinitions()  # a BibTeX file's, kept with it


def plan_file(
    desk: Desk,
    path: Path,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> FilePlan:
    """Read a file and decide what each entry does; errors go into the report.

    The file is read a chunk of entries at a time (formats/streaming.py) and its new
    papers are kept in a temporary file (services/use_cases/import_spool.py), so a plan of
    100,000 papers holds little more than their ids in memory.
    """
    return plan_for_library(desk._library, path, progress, cancelled)


def plan_for_library(
    library: Library,
    path: Path,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    new_papers: NewPaperSpool | None = None,
) -> FilePlan:
    """`plan_file` on a library (a planning process opens one of its own); the new
    papers go to `new_papers` when given."""
    plan = FilePlan(path, FileReport(file=printable_path(path)))
    if new_papers is not None:
        plan.new_papers = new_papers
    report = plan.report
    try:
        stream = open_records(path)
    except BackupFileError:
        report.format, plan.is_backup = BACKUP, True
        return plan
    except PaperdeskError as error:
        report.error = str(error).removeprefix(f"{report.file}: ")
        if isinstance(error, FormatError):  # every entry broken: each is read and skipped
            report.problems = list(error.skipped)
            report.read = report.skipped = len(error.skipped)
        return plan
    plan.sha256 = stream.sha256
    report.format, report.label = stream.format, stream.label
    report.doubt = stream.doubt
    plan.basis = library.imports.basis()
    name = printable_path(Path(path.name))
    previous = [b for b in library.imports.batches() if b.file_name == name]
    if previous:
        report.previously_imported = True
        plan.previous_ids = set(library.imports.batch_paper_ids(previous[-1].id))
    its_own = library.imports.papers_first_imported_from(name) if previous else set()
    planner = _Planner(library, plan, its_own)
    try:
        for records in _in_rounds(stream.chunks):
            if cancelled is not None and cancelled():
                raise Cancelled
            planner.add_chunk(records)
            if progress is not None:
                progress(stream.records, stream.estimated_total(), f"Matching {path.name}")
    except PaperdeskError as error:  # met part-way through (too many entries)
        report.error = str(error).removeprefix(f"{report.file}: ")
        return plan
    # The reader's warnings come before the planner's, as the file is read before it is matched.
    report.warnings[:0] = [str(w) for w in stream.warnings]
    report.problems = [str(p) for p in stream.problems]
    plan.definitions = stream.definitions
    report.skipped = len(stream.problems)
    report.read = stream.records + report.skipped
    if not stream.records:
        report.error = str(stream.nothing_found()).removeprefix(f"{report.file}: ")
        return plan
    planner.merge_into_library()
    return plan


def plan_records(library: Library, records: Sequence[PaperRecord], source: Path) -> FilePlan:
    """Records fetched rather than read from a file (services/use_cases/identifier_lookup.py),
    matched and merged as a file's entries are; `source` names them in the report."""
    plan = FilePlan(source, FileReport(file=printable_path(source)))
    plan.report.format = plan.report.label = "looked up"
    plan.basis = library.imports.basis()
    planner = _Planner(library, plan, set())
    planner.add_chunk(records)
    plan.report.read = len(records)
    planner.merge_into_library()
    return plan


def _in_rounds(chunks: Iterable[list[PaperRecord]]) -> Iterator[list[PaperRecord]]:
    """The reader's chunks cut into rounds of CHUNK entries (one round of lookups each)."""
    for records in chunks:
        for start in range(0, len(records), CHUNK):
            yield records[start : start + CHUNK]


class _Planner:
    def __init__(self, library: Library, plan: FilePlan, its_own: set[int]) -> None:
        self.library = library
        self.plan = plan
        self.its_own = its_own
        empty = plan.basis is not None and plan.basis.count == 0
        self.matcher = Matcher(library, self._pending, library_empty=empty)
        # Casefolded keys in use (BibTeX compares keys without case) -> who holds them.
        self.keys_taken: dict[str, str] = {
            key.casefold(): "another paper" for key in library.papers.citation_keys_in_use()
        }
        self.pending_values: dict[int, dict[str, Any]] = {}  # new paper -> its values so far
        self.incoming: dict[int, list[tuple[int, PaperRecord]]] = {}  # paper -> (match, record)

    def _pending(self, temporary_id: int) -> PaperRecord:
        return self.plan.new_papers[-temporary_id - 1].record

    def _name(self, target: int) -> str:
        return f"paper {target}" if target > 0 else _entry_name(self._pending(target))

    def _warn(self, record: PaperRecord, message: str) -> None:
        file = self.plan.report.file
        where = f"{file}:{record.line}" if record.line is not None else file
        self.plan.report.warnings.append(f"{where}: {message}")

    def _take_user_data(self, target: int, record: PaperRecord) -> None:
        """The entry's user data for the paper it becomes or meets (several add up)."""
        if record.user.is_empty:
            return
        before = self.plan.user.get(target)
        self.plan.user[target] = record.user if before is None else _combined(before, record.user)

    def add_chunk(self, records: Sequence[PaperRecord]) -> None:
        chunk_keys = [record_keys(record) for record in records]
        self.matcher.prepare(chunk_keys)
        for record, keys in zip(records, chunk_keys, strict=True):
            verdict = self.matcher.find(keys, record)
            if verdict.match is None:
                for target, why in verdict.kept_apart:
                    self._warn(record, f"kept apart from {self._name(target)} ({why})")
                self._add_new(record, keys)
                continue
            target, evidence = verdict.match.target, verdict.match.evidence
            report = self.plan.report
            report.matches.append(EntryMatch(record.line, target, MERGED, evidence))
            if target < 0:
                report.merged += 1
                self._merge_into_pending(target, record)
            else:
                self.incoming.setdefault(target, []).append((len(report.matches) - 1, record))

    def _add_new(self, record: PaperRecord, keys: Keys) -> None:
        plan = self.plan
        temporary_id = -len(plan.new_papers) - 1
        key = self._claim_key(record, _entry_name(record))
        plan.new_papers.append(NewPaper(record, keys, key))
        self._take_user_data(temporary_id, record)
        plan.report.added += 1
        self.matcher.add(temporary_id, keys)

    def _claim_key(self, record: PaperRecord, holder: str) -> str | None:
        """The record's own key, made unique if it must be; None when it has no usable one."""
        key = record.citation_key
        if not key:
            return None
        if not is_valid_key(key):
            self._warn(record, f"citation key {key!r} cannot be cited in LaTeX; export makes one")
            return None
        if key.casefold() in self.keys_taken:
            used_by = self.keys_taken[key.casefold()]
            key = unique_key(key, self.keys_taken.keys())
            self._warn(
                record,
                f"citation key {record.citation_key!r} is already used by {used_by}; "
                f"this paper's key is {key!r}",
            )
        self.keys_taken[key.casefold()] = holder
        return key

    def _merge_into_pending(self, target: int, record: PaperRecord) -> None:
        """An entry matching an earlier entry's new paper fills what that one lacks."""
        values = self.pending_values.setdefault(target, as_stored(self._pending(target)))
        self._take_user_data(target, record)
        changed = merge_updates(values, record)
        values.update(changed)
        if changed:
            self.plan.updates.setdefault(target, {}).update(changed)

    def merge_into_library(self) -> None:
        """Decide what the entries matching library papers change, paper by paper."""
        plan, report = self.plan, self.plan.report
        ids = list(self.incoming)
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            stored = self.library.papers.stored_values(chunk)
            for paper_id in chunk:
                row = stored[paper_id]
                if plan.basis is not None:
                    plan.basis.updated[paper_id] = row["updated"]
                plan.present_ids.append(paper_id)
                incoming = self.incoming[paper_id]
                # Two entries of one file on one paper (a workshop and a conference
                # version with one title) give it no single newer text: they merge as
                # any source does.
                revised = paper_id in self.its_own and len(incoming) == 1
                rule = revision_updates if revised else merge_updates
                changed: dict[str, Any] = {}
                for position, record in incoming:
                    updates = rule({**row, **changed}, record)
                    updates.update(self._key_update({**row, **changed}, record, paper_id))
                    updates.update(_triage_update({**row, **changed}, record.user))
                    self._take_user_data(paper_id, record)
                    changed.update(updates)
                    outcome = (
                        (UPDATED if paper_id in self.its_own else MERGED) if updates else UNCHANGED
                    )
                    match = report.matches[position]
                    report.matches[position] = EntryMatch(
                        match.line, paper_id, outcome, match.evidence
                    )
                    setattr(report, outcome, getattr(report, outcome) + 1)
                if changed:
                    plan.updates[paper_id] = changed

    def _key_update(
        self, row: dict[str, Any], record: PaperRecord, paper_id: int
    ) -> dict[str, Any]:
        """The entry's key for a paper without one, or whose key was generated (the
        file's is what `\\cite` uses), when no other paper holds it."""
        key, stored = record.citation_key, row.get("citation_key")
        if not key or not is_valid_key(key) or key == stored:
            return {}
        if stored and not row.get(KEY_GENERATED):
            return {}
        if key.casefold() in self.keys_taken and key.casefold() != (stored or "").casefold():
            self._warn(
                record,
                f"citation key {key!r} is already used by {self.keys_taken[key.casefold()]}; "
                f"paper {paper_id} keeps none",
            )
            return {}
        self.keys_taken[key.casefold()] = f"paper {paper_id}"
        if stored:
            self._warn(record, f"citation key {key!r} replaces the generated {stored!r}")
        return {"citation_key": key}


def _entry_name(record: PaperRecord) -> str:
    """An entry of the file, as a warning names it."""
    return f"the entry on line {record.line}" if record.line is not None else "an earlier entry"


def _triage_update(row: dict[str, Any], user: UserData) -> dict[str, Any]:
    """The entry's status and rating for a paper still new and unrated, as fields are
    filled where the paper has none."""
    updates: dict[str, Any] = {}
    if user.status is not None and user.status != Status.NEW and row.get("status") == "new":
        updates["status"] = user.status.value
    if user.rating and not row.get("rating"):
        updates["rating"] = user.rating
    return updates


def _combined(first: UserData, second: UserData) -> UserData:
    """Two entries' user data for one paper: the tags and shortlists of both, the first
    note, status and rating given."""
    return UserData(
        tags=tuple(dict.fromkeys((*first.tags, *second.tags))),
        tag_colours=(*first.tag_colours, *second.tag_colours),
        note=first.note or second.note,
        rating=first.rating if first.rating is not None else second.rating,
        status=first.status if first.status is not None else second.status,
        shortlists=tuple(dict.fromkeys((*first.shortlists, *second.shortlists))),
        shortlist_places=(*first.shortlist_places, *second.shortlist_places),
        team=first.team or second.team,
    )
