"""What every reader returns: records plus per-entry problems, never a half result."""

from __future__ import annotations

from dataclasses import dataclass, field

from paperdesk.core.models import PaperRecord


@dataclass(frozen=True)
class Problem:
    """One entry that was skipped, with where it is and why."""

    file: str
    line: int | None
    reason: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.reason}"


@dataclass(frozen=True)
class ReadResult:
    """The outcome of reading one file.

    `label` names the list for the import batch (a seed list's header, else the file
    name); `format` is the registry name of the reader that produced it.
    """

    format: str
    label: str
    records: tuple[PaperRecord, ...]
    problems: tuple[Problem, ...] = field(default_factory=tuple)
