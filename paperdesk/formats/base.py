"""What every reader returns: records plus per-entry problems, never a half result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath

from paperdesk.core.errors import FormatError
from paperdesk.core.models import BibtexDefinitions, PaperRecord


@dataclass(frozen=True)
class Problem:
    """One entry that was skipped (or read with a warning), with where it is and why."""

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
    name); `format` is the registry name of the reader that produced it. `problems`
    are the entries skipped; `warnings` are entries read, but not as written (an
    undefined `@string` macro left a field empty, as bibtex does). `definitions` are a
    BibTeX file's `@preamble` and `@string`s.
    """

    format: str
    label: str
    records: tuple[PaperRecord, ...]
    problems: tuple[Problem, ...] = field(default_factory=tuple)
    warnings: tuple[Problem, ...] = field(default_factory=tuple)
    #: Why the file may not be what it seems (a seed list of noise): the import asks
    #: before it writes anything (services/use_cases/importing.py); None when all looks right.
    doubt: str | None = None
    definitions: BibtexDefinitions = BibtexDefinitions()


def result_or_error(
    file: str,
    format: str,
    records: list[PaperRecord],
    problems: list[Problem],
    what: str,
    label: str | None = None,
    warnings: list[Problem] | None = None,
) -> ReadResult:
    """The ReadResult, or a FormatError when the file gave nothing to import.

    `what` names the entries looked for ("BibTeX entries"), so an empty file says what
    was expected; a file whose every entry was broken says why, for the first few.
    `label` defaults to the file's name without its folder.
    """
    if records:
        label = label or PurePath(file).name
        return ReadResult(format, label, tuple(records), tuple(problems), tuple(warnings or ()))
    raise nothing_found(file, problems, what)


#: Entries one file may hold. A reading list of 100,000 papers is the largest paperdesk
#: is built for; past this a file is refused before it is parsed, so an import's memory
#: stays bounded whatever the file (7.3 million tiny BibTeX entries in 240 MB took 2.4 GB).
MAX_ENTRIES = 200_000


def too_many_entries(file: str) -> FormatError:
    limit = MAX_ENTRIES
    return FormatError(
        file, f"more than {limit:,} entries: paperdesk imports up to {limit:,} per file; split it"
    )


def nothing_found(file: str, problems: Sequence[Problem], what: str) -> FormatError:
    """The error for a file that gave nothing to import: empty, or every entry broken."""
    if not problems:
        return FormatError(file, f"no entries found: the file holds no {what}")
    shown = "; ".join(
        f"line {p.line}: {p.reason}" if p.line is not None else p.reason for p in problems[:3]
    )
    more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
    reason = f"no entries found; {len(problems)} skipped: {shown}{more}"
    return FormatError(file, reason, skipped=tuple(str(p) for p in problems))
