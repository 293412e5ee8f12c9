"""Reading RIS files (EndNote, Zotero, Web of Science, publishers) into paper records.

rispy knows what the tags mean; this module cuts the file into records first, so each
record keeps its line number and one broken record cannot take the others with it.
Real exports are looser than the spec: `TY - JOUR` with one space, `ER  -` with no
trailing blank, a missing final `ER`, a byte-order mark; all are read.

The user's data comes back from where ris_writer puts it: KW lines are tags, RN lines
the note (each line exactly as written), `paperdesk-...` custom lines the rest.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from rispy import RisParser

from paperdesk.core.identifiers import identifiers_from
from paperdesk.core.models import PaperRecord, UserData
from paperdesk.formats.base import Problem, ReadResult, result_or_error
from paperdesk.formats.field_values import year_from_text
from paperdesk.formats.ris_writer import NOTE_TAG, USER_PREFIX
from paperdesk.formats.user_data import (
    Warn,
    is_true,
    parse_colours,
    parse_places,
    parse_rating,
    parse_status,
    user_data,
)
from paperdesk.text import to_plain

FORMAT = "ris"

# `XY  - value` as the spec says, or with any run of blanks around the dash.
_TAG_LINE = re.compile(r"^([A-Z][A-Z0-9])[ \t]*-(?:[ \t]+(.*?))?[ \t]*$")
_YEAR = re.compile(r"\b(\d{4})\b")
_SPEC_NOTE_START = NOTE_TAG + "  - "
_CUSTOM_TAGS = frozenset(f"C{n}" for n in range(1, 9)) | {"U1", "U2", "U3", "U4", "U5"}

# rispy's names for the tags, in the order they are trusted.
_TITLES = ("title", "primary_title", "translated_title", "short_title")
_AUTHORS = ("authors", "first_authors")
_VENUES = ("secondary_title", "alternate_title3", "journal_name", "alternate_title2")
_YEARS = ("year", "publication_year", "date")
_ABSTRACTS = ("abstract", "notes_abstract")


class _LenientRisParser(RisParser):
    """rispy's parser, accepting the separators real exports use (see `_TAG_LINE`)."""

    def parse_line(self, line: str) -> tuple[str, str] | tuple[None, str]:
        match = _TAG_LINE.match(line)
        if match is None:
            return (None, line.strip())
        return (match.group(1), match.group(2) or "")


@dataclass
class _Chunk:
    """The lines of one record, from its `TY` line to its `ER` line."""

    line: int
    lines: list[str] = field(default_factory=list)


def read_ris(text: str, file_name: str) -> ReadResult:
    """Records for every `TY ... ER` block with a title; Problems for the others."""
    records: list[PaperRecord] = []
    problems: list[Problem] = []
    warnings: list[Problem] = []
    for chunk in _chunks(text.lstrip("\ufeff"), file_name, problems):

        def warn(reason: str, line: int = chunk.line) -> None:
            warnings.append(Problem(file_name, line, reason))

        parsed = _LenientRisParser().parse_lines(iter(chunk.lines))
        record = _record(parsed[0], chunk, warn) if parsed else None
        if record is None:
            problems.append(Problem(file_name, chunk.line, "no title (no TI or T1 line)"))
        else:
            records.append(record)
    return result_or_error(file_name, FORMAT, records, problems, "RIS records", warnings=warnings)


def _chunks(text: str, file_name: str, problems: list[Problem]) -> Iterator[_Chunk]:
    """Each record's lines; tag lines outside any record become one Problem per run."""
    current: _Chunk | None = None
    stray_since: int | None = None
    for number, line in enumerate(text.split("\n"), start=1):
        match = _TAG_LINE.match(line.strip())
        tag = match.group(1) if match else None
        if tag == "TY":
            if current is not None:  # the previous record never got its `ER`
                yield _closed(current)
            current = _Chunk(number, [line.strip()])
            stray_since = None
        elif current is not None:
            current.lines.append(line)
            if tag == "ER":
                yield current
                current = None
        elif tag is not None and stray_since is None:
            stray_since = number
            reason = "fields outside any record: a RIS record must start with a 'TY  - ' line"
            problems.append(Problem(file_name, number, reason))
    if current is not None:
        yield _closed(current)


def _closed(chunk: _Chunk) -> _Chunk:
    chunk.lines.append("ER  - ")
    return chunk


def _record(fields: dict, chunk: _Chunk, warn: Warn) -> PaperRecord | None:
    title = _first_text(fields, _TITLES)
    if not title:
        return None
    raw_fields = tuple(_raw_fields(chunk.lines))
    mine = _user_lines(raw_fields)
    year = year_from_text(_first_text(fields, _YEARS), warn)
    urls = [url for url in fields.get("urls", []) if url]
    return PaperRecord(
        title=title,
        abstract=_first_text(fields, _ABSTRACTS, display=False),
        authors=tuple(_first_name_first(name) for name in _names(fields)),
        venue=_first_text(fields, _VENUES) or None,
        year=year,
        ids=identifiers_from(
            doi=_text(fields.get("doi")),
            url=urls[0] if urls else None,
            mentions=[*urls[1:], _text(fields.get("note")), *fields.get("notes", [])],
        ),
        title_is_derived=is_true(" ".join(mine.get("derived-title", []))),
        entry_type=_text(fields.get("type_of_reference")) or None,
        raw_fields=raw_fields,
        line=chunk.line,
        citation_key=_text(fields.get("id")) or None,
        user=_user_data(fields, mine, _note(chunk.lines), warn),
    )


def _user_lines(raw_fields: tuple[tuple[str, str], ...]) -> dict[str, list[str]]:
    """ris_writer's `paperdesk-<what>: <value>` custom lines, as what -> values."""
    found: dict[str, list[str]] = {}
    for tag, value in raw_fields:
        if tag in _CUSTOM_TAGS and value.startswith(USER_PREFIX):
            what, _, text = value.removeprefix(USER_PREFIX).partition(":")
            found.setdefault(what.strip().lower(), []).append(text.strip())
    return found


def _user_data(fields: dict, mine: dict[str, list[str]], note: str, warn: Warn) -> UserData:
    return user_data(
        warn,
        # One tag a line, as ris_writer writes them; other tools list several in one.
        tags=[tag for keyword in fields.get("keywords", []) for tag in str(keyword).split(",")],
        tag_colours=parse_colours(mine.get("tag-colour", []), "tag-colour", warn),
        note=note,
        rating=parse_rating(" ".join(mine.get("rating", [])), "rating", warn),
        status=parse_status(" ".join(mine.get("status", [])), "status", warn),
        shortlists=mine.get("shortlist", []),
        shortlist_places=parse_places(mine.get("shortlist-place", []), "shortlist-place", warn),
    )


def _note(lines: list[str]) -> str:
    """The RN lines' text, each line as written (blanks at its start kept).

    A line in the spec's form (`RN  - text`) keeps everything after the separator; a
    continuation line after an RN line (EndNote wraps long notes) joins its lines.
    """
    pieces: list[str] = []
    in_note = False
    for line in lines:
        match = _TAG_LINE.match(line.strip())
        if match is None:
            if in_note and line.strip():
                pieces.append(line.strip())
            continue
        in_note = match.group(1) == NOTE_TAG
        if in_note:
            exact = line.startswith(_SPEC_NOTE_START)
            pieces.append(line[len(_SPEC_NOTE_START) :] if exact else match.group(2) or "")
    return "\n".join(pieces)


def _text(value: object) -> str:
    """rispy gives a string, or a list when a tag repeats; the first one counts."""
    if isinstance(value, list):
        return str(value[0]).strip() if value else ""
    return str(value).strip() if value is not None else ""


def _first_text(fields: dict, names: tuple[str, ...], display: bool = True) -> str:
    """The first tag present; as readable one-line text for display, else as written."""
    for name in names:
        value = _text(fields.get(name))
        if value:
            return to_plain(value) if display else value
    return ""


def _names(fields: dict) -> list[str]:
    for name in _AUTHORS:
        people = [person.strip() for person in fields.get(name, []) if person.strip()]
        if people:
            return people
    return []


def _first_name_first(name: str) -> str:
    """RIS writes `Last, First[, Suffix]`: `Shannon, Claude E.` -> `Claude E. Shannon`."""
    parts = [part.strip() for part in name.split(",")]
    if len(parts) == 2 and all(parts):
        name = f"{parts[1]} {parts[0]}"
    elif len(parts) == 3 and all(parts):
        name = f"{parts[1]} {parts[0]} {parts[2]}"
    return to_plain(name)


def _raw_fields(lines: list[str]) -> Iterator[tuple[str, str]]:
    """(tag, value) as written, continuation lines joined on to their tag's value."""
    tag, values = None, []
    for line in lines:
        match = _TAG_LINE.match(line.strip())
        if match is None:
            if tag is not None and line.strip():
                values.append(line.strip())
            continue
        if tag is not None:
            yield tag, "\n".join(values)
        tag, values = match.group(1), [match.group(2) or ""]
    if tag is not None and tag != "ER":
        yield tag, "\n".join(values)
