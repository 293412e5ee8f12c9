"""A screening's decisions as a labelled dataset, the way screening tools exchange them.

ASReview (and the screening datasets published with it) label records in a CSV column
`label_included`: 1 relevant, 0 irrelevant, empty not screened; its RIS files carry the
same as an N1 note, `ASReview_relevant` / `ASReview_irrelevant` / `ASReview_not_seen`.
`export` writes a screening's papers so; `read_into` imports such a file (its records
merge with the papers the library has, as any import) and records its labels as the
screening's decisions (1 keep, 0 discard, with `exclusion_reason` when the file has it),
in one undo step.
"""

from __future__ import annotations

import csv
from pathlib import Path

from paperdesk.core.changes import Changes
from paperdesk.core.errors import FormatError, InvalidValueError
from paperdesk.core.models import Paper, PaperRecord
from paperdesk.core.scope import Scope
from paperdesk.core.screening import Screening
from paperdesk.core.triage import Decision
from paperdesk.formats.atomic import atomic_open
from paperdesk.formats.registry import read_file
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import importing, screenings, triage
from paperdesk.services.use_cases._sync import mutation
from paperdesk.services.use_cases.matching import record_keys

LABEL = "label_included"
REASON = "exclusion_reason"
COLUMNS = ("record_id", "title", "abstract", "authors", "venue", "year", "doi", "url")
#: ASReview's RIS notes for the three labels.
RIS_NOTES = {True: "ASReview_relevant", False: "ASReview_irrelevant", None: "ASReview_not_seen"}
_RIS_LABELS = {note.casefold(): label for label, note in RIS_NOTES.items()}
_TRUE, _FALSE = {"1", "1.0", "true", "yes"}, {"0", "0.0", "false", "no"}
#: Keys that find a record's paper, most trusted first (matching.KEY_KINDS).
_KEY_ORDER = ("doi", "arxiv", "openreview", "title", "fingerprint")


def labels(desk: Desk, screening: Screening) -> dict[int, tuple[bool | None, str | None]]:
    """Each paper of the screening: relevant (True), not (False) or unscreened (None),
    with the exclusion reason of a discard."""
    found = screenings.queue(desk, screening)
    decided = desk._library.screenings.decided(screening.id) if screening.id is not None else {}
    rated = triage.rated_relevant(desk, list(decided.values()))
    result: dict[int, tuple[bool | None, str | None]] = {}
    for paper_id in found.ids:
        entry = decided.get(paper_id)
        if entry is None:
            result[paper_id] = (None, None)
        elif entry.decision == Decision.KEEP or paper_id in rated:
            result[paper_id] = (True, None)
        elif entry.decision == Decision.DISCARD:
            result[paper_id] = (False, entry.reason)
        else:  # maybe: screened, not yet labelled either way
            result[paper_id] = (None, None)
    return result


def export(desk: Desk, screening: Screening, path: Path) -> int:
    """Write the screening's papers with their labels (CSV or RIS, by the suffix); how
    many papers. The file is replaced whole or not at all."""
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".ris"):
        raise InvalidValueError(f"{path}: a labelled dataset is a .csv or a .ris file")
    found = labels(desk, screening)
    papers = desk._library.papers.get_many(list(found))
    newline = "" if suffix == ".csv" else None
    with atomic_open(path, newline=newline) as stream:
        if suffix == ".csv":
            writer = csv.writer(stream)
            writer.writerow([*COLUMNS, LABEL, REASON])
            for paper in papers:
                label, reason = found[paper.id]
                writer.writerow([*_cells(paper), _label_cell(label), reason or ""])
        else:
            for paper in papers:
                stream.write(_ris(paper, found[paper.id][0]))
    return len(papers)


@mutation
def read_into(desk: Desk, screening: Screening, path: Path) -> tuple[int, Changes]:
    """Import a labelled dataset and record its labels as the screening's decisions;
    (labels recorded, changes). FormatError names the file when it has no labels."""
    records = read_file(path).records
    wanted = [(record, *_label_of(record)) for record in records]
    wanted = [(record, label, reason) for record, label, reason in wanted if label is not None]
    if not wanted:
        raise FormatError(str(path), f"no labels: expected a {LABEL} column of 1 and 0")
    report = importing.import_files(desk, [path])
    if report.files and report.files[0].error:
        raise FormatError(str(path), report.files[0].error)
    decisions: dict[int, tuple[int, Decision, str | None]] = {}
    for record, label, reason in wanted:
        paper_id = _paper_of(desk, record)
        if paper_id is not None:
            decision = Decision.KEEP if label else Decision.DISCARD
            decisions[paper_id] = (paper_id, decision, reason if not label else None)
    if not decisions:
        return 0, report.changes
    changes = desk._library.triage.decide_many(
        f"{len(decisions):,} labels from {path.name} recorded in {screening.name}",
        list(decisions.values()),
        screening.shortlist,
        screening.id,
        blind=screening.blind,
    )
    return len(decisions), changes.merged_with(report.changes)


def import_into(desk: Desk, name: str, path: Path) -> tuple[Screening, int, Changes]:
    """Import a labelled dataset into the screening of this name (`read_into`); a new
    one goes through the whole library, which the labelled papers join. (screening,
    labels recorded, changes)."""
    new = not screenings.exists(desk, name)
    screening = screenings.start(desk, name, scope=Scope() if new else None)
    count, changes = read_into(desk, screening, path)
    return screening, count, changes


def _cells(paper: Paper) -> list[str]:
    return [
        str(paper.id),
        paper.title,
        paper.abstract,
        "; ".join(paper.authors),
        paper.venue or "",
        str(paper.year or ""),
        paper.ids.doi or "",
        paper.ids.url or "",
    ]


def _label_cell(label: bool | None) -> str:
    return "" if label is None else str(int(label))


def _ris(paper: Paper, label: bool | None) -> str:
    lines = ["TY  - JOUR", f"TI  - {_one_line(paper.title)}"]
    lines += [f"AU  - {_one_line(name)}" for name in paper.authors]
    if paper.abstract:
        lines.append(f"AB  - {_one_line(paper.abstract)}")
    if paper.venue:
        lines.append(f"T2  - {_one_line(paper.venue)}")
    if paper.year:
        lines.append(f"PY  - {paper.year}")
    if paper.ids.doi:
        lines.append(f"DO  - {paper.ids.doi}")
    if paper.ids.url:
        lines.append(f"UR  - {paper.ids.url}")
    lines += [f"N1  - {RIS_NOTES[label]}", "ER  - ", ""]
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _label_of(record: PaperRecord) -> tuple[bool | None, str | None]:
    """The record's label and exclusion reason, from its CSV columns or RIS notes."""
    fields = {name.strip().casefold(): value.strip() for name, value in record.raw_fields}
    reason = fields.get(REASON) or None
    for name in (LABEL, "included", "label"):
        value = fields.get(name, "").casefold()
        if value in _TRUE:
            return True, None
        if value in _FALSE:
            return False, reason
    for name, value in record.raw_fields:
        if name.strip().upper() == "N1" and value.strip().casefold() in _RIS_LABELS:
            label = _RIS_LABELS[value.strip().casefold()]
            return label, None
    return None, None


def _paper_of(desk: Desk, record: PaperRecord) -> int | None:
    """The library's paper for an imported record: by its most trusted key."""
    keys = record_keys(record)
    for kind in _KEY_ORDER:
        if kind in keys:
            holders = desk._library.papers.holders(kind, [keys[kind]]).get(keys[kind])
            if holders:
                return holders[0]
    return None
