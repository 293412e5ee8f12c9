"""What an import did, per file and per entry: every entry read is accounted for.

    read = added + updated + merged + unchanged + skipped

`added` entries became new papers; `merged`, `updated` and `unchanged` entries met a
paper the library (or an earlier entry of the same file) already had, and each names
that paper and the evidence (`same DOI`, `same title`...); `skipped` entries were not
imported, each with its file:line and why. An entry merged into a paper that an
earlier entry of the same file added names that paper too. `warnings` are entries
imported, but not quite as written (a citation key given a suffix, a same-titled paper
kept apart because something contradicts it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from paperdesk.core.changes import Changes
from paperdesk.formats.registry import BACKUP

#: How an entry met the library; the first is a new paper, the others an existing one.
ADDED, MERGED, UPDATED, UNCHANGED = "added", "merged", "updated", "unchanged"


@dataclass(frozen=True)
class EntryMatch:
    """An entry that met a paper already there: which, how, and what it did to it."""

    line: int | None
    paper_id: int
    outcome: str  # MERGED, UPDATED or UNCHANGED
    evidence: str  # "same DOI", "same title", "similar text (0.97)"

    def describe(self, file: str) -> str:
        where = f"{file}:{self.line}" if self.line is not None else file
        return f"{where}: {self.outcome} into paper {self.paper_id} ({self.evidence})"


@dataclass
class FileReport:
    file: str
    format: str = ""
    label: str = ""
    read: int = 0
    added: int = 0
    merged: int = 0
    # Entries on papers an earlier import of this file brought, which its new version changes.
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    missing: int = 0
    problems: list[str] = field(default_factory=list)  # the skipped entries: file:line: why
    warnings: list[str] = field(default_factory=list)
    matches: list[EntryMatch] = field(default_factory=list)
    added_ids: list[int] = field(default_factory=list)
    error: str | None = None
    previously_imported: bool = False
    #: Why the file may not be what it seems: it is written only once the user agrees.
    doubt: str | None = None

    @property
    def accounted(self) -> int:
        """Entries given an outcome; equals `read` for every file imported."""
        return self.added + self.merged + self.updated + self.unchanged + self.skipped

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
        entries = "entry" if self.read == 1 else "entries"
        line = f"{name} ({self.format}): {self.read} {entries} read: " + ", ".join(parts)
        changed = self.added or self.merged or self.updated
        if not changed and self.unchanged and not self.skipped:
            line += " - nothing new"
        return line

    def details(self) -> list[str]:
        """One line per entry that did not simply become a new paper or stay as it was."""
        lines = [f"skipped {problem}" for problem in self.problems]
        lines += [match.describe(self.file) for match in self.matches if match.outcome != UNCHANGED]
        lines += [f"warning {warning}" for warning in self.warnings]
        return lines

    def as_json(self) -> dict[str, object]:
        """The report for `import --json`: counts, and every entry that met a paper."""
        fields = {key: value for key, value in vars(self).items() if key != "matches"}
        fields["matches"] = [vars(match) for match in self.matches]
        return fields


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
