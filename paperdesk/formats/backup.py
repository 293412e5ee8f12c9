"""The paperdesk JSON backup: a whole library in one UTF-8 file, read back losslessly.

A backup is a JSON object::

    {"paperdesk_backup": 1, "created": "2025-07-01T12:30:00",
     "papers": [{"id": 1, "title": ..., "authors": ["Ada Lovelace", ...], ...}, ...],
     "tags": [{"id": 1, "name": "ml/rnn", "colour": "#ff8800"}, ...],
     "paper_tags": [{"paper_id": 1, "tag_id": 1}, ...],
     "notes": [{"paper_id": 1, "body": "...", "created": ..., "updated": ...}, ...],
     "shortlists": [{"id": 1, "name": "To present", "created": ..., "entries": [7, 3]}],
     "saved_searches": [{"id": 1, "name": ..., "query": ..., "created": ...}, ...],
     "import_batches": [{"id": 1, "label": ..., ..., "paper_ids": [1, 2, 3]}, ...],
     "not_duplicates": [{"paper_a": 4, "paper_b": 9}, ...],
     "annotations": [{"id": 1, "paper_id": 7, "start": 0, "stop": 12, "quote": ...,
                      "colour": "#fff59d", "comment": ..., "created": ...}, ...],
     "decisions": [{"id": 1, "paper_id": 7, "decision": "keep", "at": ...,
                    "screening_id": 1, "reason": null, "member": null,
                    "resolves": false}, ...],
     "highlight_words": [{"word": "bandit"}, ...],
     "screenings": [{"id": 1, "name": "Triage", "scope_kind": "status", ...,
                     "blind": false}, ...],
     "screening_finishes": [{"screening_id": 1, "member": "alice", "at": ...}, ...],
     "bibtex_definitions": [{"batch_id": 1, "position": 0, "kind": "preamble",
                             "name": "", "value": "\\providecommand..."}, ...],
     "generated_keys": [{"paper_id": 7}, ...]}

Every section lists its rows with the database's own column names and ids, so a
restore rebuilds the very same library; `SECTIONS` below is the complete field list.
Times are naive ISO 8601 local times, as the library stores them. A shortlist's
`entries` are its papers in the user's order; an import batch's `paper_ids` are the
papers its file held. History (undo) and the search index are not backed up: the
first is about the old library, the second is rebuilt from the data. Format 2 added
the triage sections (annotations, decisions, highlight words); a format 1 backup is
read as having none. Format 3 added screenings, and the screening and exclusion reason
of each decision; an older backup's decisions belong to no screening. Format 4 added
the BibTeX preambles and strings kept with their imports and the papers whose key was
generated, not given by a file; an older backup has none. Format 5 added blind
screenings (a decision's member and whether it resolves a disagreement, a screening's
blindness, the members who finished one); an older backup's decisions are nobody's,
resolve nothing, and its screenings are not blind.

In memory a backup is a `BackupState`: the same sections as lists of dicts, with
`datetime` values for times; `paperdesk.store.snapshot` reads and restores exactly
this shape. The reader checks everything a restore relies on (version, every field,
its type, unique ids and names, references between sections) and raises FormatError
naming the place, e.g. `papers[12] (id 40).rating: expected ...`, so a damaged file
is refused before anything is written.

Each row is written on a line of its own: the file stays readable, diffable, and a
JSON syntax error's line number points at the row.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from paperdesk.core.errors import FormatError
from paperdesk.core.models import DEFINITION_KINDS, MAX_RATING, Status
from paperdesk.core.triage import Decision
from paperdesk.formats.encoding import decode

VERSION_KEY = "paperdesk_backup"
VERSION = 5

BackupState = dict[str, list[dict[str, Any]]]


class _Invalid(ValueError):
    """A value that does not fit its field; the message says what was expected."""


Check = Callable[[Any], Any]


def _preview(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _expect(condition: bool, expected: str, value: Any) -> None:
    if not condition:
        raise _Invalid(f"expected {expected}, found {_preview(value)}")


def _integer(value: Any) -> int:
    _expect(type(value) is int, "a whole number", value)
    return value


def _identifier(value: Any) -> int:
    _expect(type(value) is int and value >= 1, "an id (a whole number from 1)", value)
    return value


def _text(value: Any) -> str:
    _expect(isinstance(value, str), "a string", value)
    return value


def _flag(value: Any) -> bool:
    _expect(isinstance(value, bool), "true or false", value)
    return value


def _time(value: Any) -> datetime:
    expected = "a date and time like 2025-07-01T12:30:00"
    _expect(isinstance(value, str), expected, value)
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise _Invalid(f"expected {expected}, found {_preview(value)}") from None
    # The library stores local times without a zone; an offset would be silently dropped.
    _expect(parsed.tzinfo is None, "a local time without a time zone", value)
    return parsed


def _status(value: Any) -> str:
    choices = [s.value for s in Status]
    _expect(value in choices, "one of " + ", ".join(choices), value)
    return value


def _decision(value: Any) -> str:
    choices = [d.value for d in Decision]
    _expect(value in choices, "one of " + ", ".join(choices), value)
    return value


def _definition_kind(value: Any) -> str:
    _expect(value in DEFINITION_KINDS, "one of " + ", ".join(DEFINITION_KINDS), value)
    return value


def _rating(value: Any) -> int:
    _expect(type(value) is int and 0 <= value <= MAX_RATING, f"a rating 0-{MAX_RATING}", value)
    return value


def _field_pairs(value: Any) -> list[list[str]]:
    _expect(
        isinstance(value, list)
        and all(
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(s, str) for s in pair)
            for pair in value
        ),
        'a list of ["name", "value"] pairs',
        value,
    )
    return value


def _json_object(value: Any) -> dict[str, Any]:
    _expect(isinstance(value, dict), "an object", value)
    return value


def _texts(value: Any) -> list[str]:
    _expect(
        isinstance(value, list) and all(isinstance(s, str) for s in value),
        "a list of strings",
        value,
    )
    return value


def _identifiers(value: Any) -> list[int]:
    _expect(
        isinstance(value, list) and all(type(i) is int and i >= 1 for i in value),
        "a list of ids",
        value,
    )
    return value


def _optional(check: Check) -> Check:
    def optional(value: Any) -> Any:
        return None if value is None else check(value)

    return optional


_maybe_text = _optional(_text)

PAPER_FIELDS: dict[str, Check] = {
    "id": _identifier,
    "title": _text,
    "title_is_derived": _flag,
    "title_key": _maybe_text,
    "venue": _maybe_text,
    "year": _optional(_integer),
    "abstract": _text,
    "doi": _maybe_text,
    "arxiv": _maybe_text,
    "openreview": _maybe_text,
    "url": _maybe_text,
    "entry_type": _maybe_text,
    "citation_key": _maybe_text,
    "status": _status,
    "rating": _rating,
    "added": _time,
    "updated": _time,
    "fingerprint": _text,
    "raw_fields": _field_pairs,
    "alternatives": _json_object,
    "authors": _texts,
}

#: Section name -> its fields, in the order a backup lists them.
SECTIONS: dict[str, dict[str, Check]] = {
    "papers": PAPER_FIELDS,
    "tags": {"id": _identifier, "name": _text, "colour": _maybe_text},
    "paper_tags": {"paper_id": _identifier, "tag_id": _identifier},
    "notes": {"paper_id": _identifier, "body": _text, "created": _time, "updated": _time},
    "shortlists": {
        "id": _identifier,
        "name": _text,
        "created": _time,
        "entries": _identifiers,
    },
    "saved_searches": {"id": _identifier, "name": _text, "query": _text, "created": _time},
    "import_batches": {
        "id": _identifier,
        "label": _text,
        "file_name": _text,
        "sha256": _text,
        "format": _text,
        "added": _integer,
        "merged": _integer,
        "unchanged": _integer,
        "skipped": _integer,
        "imported_at": _time,
        "paper_ids": _identifiers,
    },
    "not_duplicates": {"paper_a": _identifier, "paper_b": _identifier},
    "annotations": {
        "id": _identifier,
        "paper_id": _identifier,
        "start": _integer,
        "stop": _integer,
        "quote": _text,
        "colour": _text,
        "comment": _text,
        "created": _time,
    },
    "decisions": {
        "id": _identifier,
        "paper_id": _identifier,
        "decision": _decision,
        "at": _time,
        "screening_id": _optional(_identifier),
        "reason": _maybe_text,
        "member": _maybe_text,
        "resolves": _flag,
    },
    "highlight_words": {"word": _text},
    "screenings": {
        "id": _identifier,
        "name": _text,
        "scope_kind": _text,
        "scope_value": _text,
        "query": _text,
        "confine": _flag,
        "order": _text,
        "shortlist": _maybe_text,
        "reasons": _text,
        "created": _time,
        "used": _time,
        "blind": _flag,
    },
    "screening_finishes": {"screening_id": _identifier, "member": _text, "at": _time},
    "bibtex_definitions": {
        "batch_id": _identifier,
        "position": _integer,
        "kind": _definition_kind,
        "name": _text,
        "value": _text,
    },
    "generated_keys": {"paper_id": _identifier},
}
#: Sections that a backup of an older format lacks, by the format that added them.
ADDED_IN = {
    "annotations": 2,
    "decisions": 2,
    "highlight_words": 2,
    "screenings": 3,
    "bibtex_definitions": 4,
    "generated_keys": 4,
    "screening_finishes": 5,
}
#: Fields (of a section) that a backup of an older format lacks, by the format that
#: added them, and the value they read as.
FIELDS_ADDED_IN: dict[tuple[str, str], tuple[int, Any]] = {
    ("decisions", "screening_id"): (3, None),
    ("decisions", "reason"): (3, None),
    ("decisions", "member"): (5, None),
    ("decisions", "resolves"): (5, False),
    ("screenings", "blind"): (5, False),
}


@dataclass(frozen=True)
class BackupDocument:
    created: datetime
    state: BackupState


# --------------------------------------------------------------------------- writing


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} cannot be written to a backup")


# One encoder for every row: json.dumps with options would build a new one per call.
_encode = json.JSONEncoder(ensure_ascii=False, default=_json_value).encode


def write_backup_document(
    stream: TextIO, state: Mapping[str, Iterable[Mapping[str, Any]]], created: datetime
) -> None:
    """Write `state` (every section of SECTIONS) as a backup, one row per line."""
    stream.write(f'{{"{VERSION_KEY}": {VERSION},\n"created": {_encode(created)}')
    for name in SECTIONS:
        stream.write(f',\n"{name}": [')
        separator = "\n"
        for row in state[name]:
            stream.write(separator)
            stream.write(_encode(row))
            separator = ",\n"
        stream.write("\n]" if separator != "\n" else "]")
    stream.write("\n}\n")


# --------------------------------------------------------------------------- reading


def read_backup_file(path: Path) -> BackupDocument:
    """Read and check a backup file; FormatError (naming the file) when it cannot be used."""
    name = str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise FormatError(name, f"cannot read the file: {error.strerror}") from None
    return read_backup_document(decode(data, name), name)


def read_backup_document(text: str, file: str) -> BackupDocument:
    """The backup in `text`, checked; FormatError(file, message) names what is wrong."""
    try:
        document = json.loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError as error:
        raise FormatError(
            file, f"not a complete JSON document (cut short?): {error.msg}", error.lineno
        ) from None
    try:
        return _checked(document)
    except _Invalid as error:
        raise FormatError(file, str(error)) from None


def _checked(document: Any) -> BackupDocument:
    if not isinstance(document, dict) or VERSION_KEY not in document:
        raise _Invalid(f'not a paperdesk backup: no "{VERSION_KEY}" key at the top')
    version = document[VERSION_KEY]
    if type(version) is not int or version < 1:
        raise _Invalid(f"{VERSION_KEY}: expected a format number, found {_preview(version)}")
    if version > VERSION:
        raise _Invalid(
            f"this backup is format {version}, written by a newer paperdesk; "
            f"this version reads format {VERSION}: update paperdesk to restore it"
        )
    held = [name for name in SECTIONS if ADDED_IN.get(name, 1) <= version]
    _require_exactly(document, [VERSION_KEY, "created", *held], "the backup")
    created = _field("created", _time, document["created"])
    state = {
        name: _section(name, _fields_of(name, fields, version), document[name])
        if name in held
        else []
        for name, fields in SECTIONS.items()
    }
    _check_consistency(state)
    return BackupDocument(created, state)


def _field(where: str, check: Check, value: Any) -> Any:
    try:
        return check(value)
    except _Invalid as error:
        raise _Invalid(f"{where}: {error}") from None


def _require_exactly(item: dict[str, Any], fields: Iterable[str], where: str) -> None:
    fields = list(fields)
    missing = [f for f in fields if f not in item]
    if missing:
        raise _Invalid(f"{where}: missing {', '.join(repr(f) for f in missing)}")
    # An unknown field would be dropped by a restore; refuse rather than lose it quietly.
    unknown = [f for f in item if f not in fields]
    if unknown:
        raise _Invalid(f"{where}: unknown field {', '.join(repr(f) for f in unknown)}")


def _fields_of(name: str, fields: dict[str, Check], version: int) -> dict[str, Check]:
    """The section's fields in a backup of this format: a field added later is not in
    the file and reads as its default."""
    checks = dict(fields)
    for (section, key), (added_in, default) in FIELDS_ADDED_IN.items():
        if section == name and version < added_in:
            checks[key] = _Absent(default)
    return checks


@dataclass(frozen=True)
class _Absent:
    """The check of a field an older format lacks: whatever is there, its default."""

    default: Any

    def __call__(self, _value: Any) -> Any:
        return self.default


def _section(name: str, fields: dict[str, Check], rows: Any) -> list[dict[str, Any]]:
    if not isinstance(rows, list):
        raise _Invalid(f"{name}: expected a list, found {_preview(rows)}")
    checked = []
    for index, row in enumerate(rows):
        where = _position(name, index, row)
        if not isinstance(row, dict):
            raise _Invalid(f"{where}: expected an object, found {_preview(row)}")
        _require_exactly(row, [f for f in fields if not isinstance(fields[f], _Absent)], where)
        checked.append({key: _field(f"{where}.{key}", fields[key], row.get(key)) for key in fields})
    return checked


def _position(section: str, index: int, row: Any) -> str:
    """`papers[12] (id 40)`: the index finds the row in the file, the id in the library."""
    row_id = row.get("id") if isinstance(row, dict) else None
    return f"{section}[{index}]" + (f" (id {row_id})" if type(row_id) is int else "")


# SQLite's NOCASE folds ASCII letters only, so "É" and "é" are two different tags.
_NOCASE = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _check_consistency(state: BackupState) -> None:
    """Unique ids and names, and references to rows that exist: what the database enforces."""
    papers = _unique(state, "papers", "id")
    tags = _unique(state, "tags", "id")
    _unique(state, "tags", "name", _nocase)
    _unique(state, "shortlists", "id")
    _unique(state, "shortlists", "name", _nocase)
    _unique(state, "saved_searches", "id")
    _unique(state, "saved_searches", "name", _nocase)
    batches = _unique(state, "import_batches", "id")
    _unique(state, "papers", "citation_key")
    _unique(state, "notes", "paper_id")
    _unique(state, "paper_tags", ("paper_id", "tag_id"))
    _unique(state, "not_duplicates", ("paper_a", "paper_b"))
    _unique(state, "annotations", "id")
    _unique(state, "decisions", "id")
    _unique(state, "highlight_words", "word", _nocase)
    screenings = _unique(state, "screenings", "id")
    _unique(state, "screenings", "name", _nocase)
    _refers(state, "paper_tags", "paper_id", papers, "paper")
    _refers(state, "paper_tags", "tag_id", tags, "tag")
    _refers(state, "notes", "paper_id", papers, "paper")
    _refers(state, "not_duplicates", "paper_a", papers, "paper")
    _refers(state, "not_duplicates", "paper_b", papers, "paper")
    _refers(state, "annotations", "paper_id", papers, "paper")
    _refers(state, "decisions", "paper_id", papers, "paper")
    _unique(state, "screening_finishes", ("screening_id", "member"))
    _refers(state, "screening_finishes", "screening_id", screenings, "screening")
    _unique(state, "bibtex_definitions", ("batch_id", "position"))
    _refers(state, "bibtex_definitions", "batch_id", batches, "import batch")
    _unique(state, "generated_keys", "paper_id")
    _refers(state, "generated_keys", "paper_id", papers, "paper")
    for section, field in (("shortlists", "entries"), ("import_batches", "paper_ids")):
        for index, row in enumerate(state[section]):
            where = f"{_position(section, index, row)}.{field}"
            _no_repeats(row[field], where)
            for paper_id in row[field]:
                if paper_id not in papers:
                    raise _Invalid(f"{where}: no paper with id {paper_id} in the backup")


def _nocase(name: str) -> str:
    return name.translate(_NOCASE)


def _unique(
    state: BackupState,
    section: str,
    key: str | tuple[str, ...],
    fold: Callable[[Any], Any] = lambda value: value,
) -> set[Any]:
    """The distinct values of `key` in a section; _Invalid at the first repeat."""
    seen: dict[Any, int] = {}
    for index, row in enumerate(state[section]):
        value = tuple(row[k] for k in key) if isinstance(key, tuple) else row[key]
        if value is None:
            continue
        folded = fold(value)
        if folded in seen:
            field = "+".join(key) if isinstance(key, tuple) else key
            raise _Invalid(
                f"{_position(section, index, row)}.{field}: {_preview(value)} "
                f"repeats {section}[{seen[folded]}]"
            )
        seen[folded] = index
    return set(seen)


def _no_repeats(values: list[int], where: str) -> None:
    seen: set[int] = set()
    for value in values:
        if value in seen:
            raise _Invalid(f"{where}: paper {value} is listed twice")
        seen.add(value)


def _refers(state: BackupState, section: str, field: str, known: set[int], kind: str) -> None:
    for index, row in enumerate(state[section]):
        if row[field] not in known:
            raise _Invalid(
                f"{_position(section, index, row)}.{field}: no {kind} with id {row[field]} "
                "in the backup"
            )
