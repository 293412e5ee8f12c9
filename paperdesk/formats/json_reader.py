"""Reading JSON arrays and JSON Lines of paper objects (scrapers, paper lists, APIs).

The keys are those of `../shared/data/corpus.jsonl` (title, authors, abstract, venue,
year, url, openreview_id...), with the obvious alternatives (booktitle, journal, doi,
arxiv). A bad line in JSON Lines is a Problem with its line number; a JSON array is one
document, so a syntax error anywhere in it makes the file unreadable.

The user's data json_writer adds (`citation_key`, `tags`, `tag_colours`, `note`,
`rating`, `status`, `shortlists`, `title_is_derived`) comes back too. `status` in paper
lists is the venue's decision (Poster, Reject): only a triage status (`to-read`) is
taken as the user's, anything else stays in `raw_fields` only. Titles, venues and names
are shown as paperdesk.text makes them readable; `raw_fields` and the abstract keep the
source. A year outside 1000-2999 is left out with a warning (no paper is from year
12345678901234567890), and JSON nested too deeply to read is a Problem, not a crash.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from paperdesk.core.errors import FormatError
from paperdesk.core.fields import current_names
from paperdesk.core.identifiers import identifiers_from
from paperdesk.core.models import PaperRecord, UserData
from paperdesk.formats.base import Problem, ReadResult, result_or_error
from paperdesk.formats.csv_reader import split_authors
from paperdesk.formats.field_values import year_from_number, year_from_text
from paperdesk.formats.team_json import parse_team
from paperdesk.formats.user_data import (
    Warn,
    parse_colours,
    parse_places,
    parse_rating,
    split_names,
    triage_status,
    user_data,
)
from paperdesk.text import to_plain

FORMAT = "json"
#: What an empty file was expected to hold.
WHAT = "JSON objects"

_VENUE_KEYS = ("venue", "booktitle", "journal")
_PLAUSIBLE_YEARS = range(1000, 3000)
#: The keys of the user's data but `status` (which paper lists use for the venue's verdict).
_USER_KEYS = frozenset(
    ("tags", "tag_colours", "note", "rating", "shortlists", "shortlist_places", "team")
)
# json raises RecursionError for arrays or objects nested a thousand deep (and
# JSONDecodeError, a ValueError, for bad syntax).
_UNREADABLE = (ValueError, RecursionError)
_MAX_INT_DIGITS = 30


class _LongNumber(str):
    """A JSON integer too long to be anything a paper has, kept as its digits.

    int() refuses more than 4,300 digits (a ValueError from json.loads), and SQLite
    more than 19; such a number is reported where it is used instead.
    """


def _integer(digits: str) -> int | str:
    return int(digits) if len(digits) <= _MAX_INT_DIGITS else _LongNumber(digits)


_decoder = json.JSONDecoder(parse_int=_integer)
_NOT_BLANK = re.compile(r"\S")
_PLAIN_WORDS = re.compile(r"[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*")
# One encoder for all: json.dumps with options builds a new one per call, which was a
# third of the time to read the 13k-paper corpus.
_encode = json.JSONEncoder(ensure_ascii=False).encode


def read_json(text: str, file_name: str) -> ReadResult:
    """Records for every object with a title; Problems for bad lines and untitled objects."""
    text = text.lstrip("\ufeff")
    problems: list[Problem] = []
    warnings: list[Problem] = []
    if text.lstrip().startswith("["):
        items: Iterator[tuple[int, Any]] = _array_items(text, file_name)
    else:
        items = _json_lines(text, file_name, problems)
    records = list(_records(items, file_name, problems, warnings))
    problems.sort(key=lambda p: p.line or 0)
    return result_or_error(file_name, FORMAT, records, problems, WHAT, warnings=warnings)


def json_lines_records(
    lines: Iterable[str], file_name: str, problems: list[Problem], warnings: list[Problem]
) -> Iterator[PaperRecord]:
    """JSON Lines read one line at a time (formats/streaming.py): records as they come,
    bad lines and untitled objects added to `problems`, in line order."""

    def items() -> Iterator[tuple[int, Any]]:
        for number, line in enumerate(lines, start=1):
            if line.strip():
                try:
                    yield number, _decoder.decode(line)
                except _UNREADABLE as error:
                    problems.append(Problem(file_name, number, _not_json(error)))

    return _records(items(), file_name, problems, warnings)


def is_object_line(line: str) -> bool:
    """Whether a line is a JSON object on its own (so the file may be JSON Lines)."""
    try:
        return isinstance(_decoder.decode(line), dict)
    except _UNREADABLE:
        return False


def _records(
    items: Iterable[tuple[int, Any]],
    file_name: str,
    problems: list[Problem],
    warnings: list[Problem],
) -> Iterator[PaperRecord]:
    for line, item in items:
        if not isinstance(item, dict):
            problems.append(Problem(file_name, line, "not a JSON object"))
            continue

        def warn(reason: str, line: int = line) -> None:
            warnings.append(Problem(file_name, line, reason))

        record = _record(item, line, warn)
        if record is None:
            problems.append(Problem(file_name, line, "no title"))
        else:
            yield record


def _json_lines(text: str, file_name: str, problems: list[Problem]) -> Iterator[tuple[int, Any]]:
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield number, _decoder.decode(line)
        except _UNREADABLE as error:
            if number == _first_content_line(lines) and (whole := _whole_object(text)):
                yield number, whole  # one pretty-printed object, not JSON Lines
                return
            problems.append(Problem(file_name, number, _not_json(error)))


def _not_json(error: Exception) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"not valid JSON: {error.msg} (column {error.colno})"
    if isinstance(error, RecursionError):
        return "not readable: arrays or objects nested too deeply"
    return f"not readable: {error}"


def _first_content_line(lines: list[str]) -> int:
    return next(number for number, line in enumerate(lines, start=1) if line.strip())


def _whole_object(text: str) -> dict | None:
    try:
        document = _decoder.decode(text)
    except _UNREADABLE:
        return None
    return document if isinstance(document, dict) else None


def _after_blanks(text: str, position: int) -> int:
    found = _NOT_BLANK.search(text, position)
    return found.start() if found else len(text)


def _array_items(text: str, file_name: str) -> Iterator[tuple[int, Any]]:
    """The elements of a top-level array, each with the line it starts on."""
    position = text.index("[") + 1
    line, counted_to = 1, 0
    while True:
        position = _after_blanks(text, position)
        if text.startswith("]", position):
            break
        line += text.count("\n", counted_to, position)
        counted_to = position
        try:
            item, end = _decoder.raw_decode(text, position)
        except json.JSONDecodeError as error:
            raise FormatError(file_name, f"not valid JSON: {error.msg}", error.lineno) from None
        except _UNREADABLE as error:
            raise FormatError(file_name, _not_json(error), line) from None
        yield line, item
        position = _after_blanks(text, end)
        if text.startswith(",", position):
            position += 1
        elif not text.startswith("]", position):
            line += text.count("\n", counted_to, position)
            raise FormatError(file_name, "not valid JSON: expected ',' or ']'", line)
    if text[position + 1 :].strip():
        raise FormatError(file_name, "not valid JSON: text after the closing ']'")


def _record(source: dict[str, Any], line: int, warn: Warn) -> PaperRecord | None:
    item = current_names(source)  # the corpus's and earlier exports' `openreview_id`
    title = _text(item.get("title"))
    if not title:
        return None
    venue = next((_text(item.get(key)) for key in _VENUE_KEYS if item.get(key)), "")
    year = _year(item.get("year") if item.get("year") is not None else item.get("date"), warn)
    return PaperRecord(
        title=title,
        abstract=str(item.get("abstract") or "").strip(),
        authors=_authors(item.get("authors") or item.get("author")),
        venue=venue or None,
        year=year,
        title_is_derived=item.get("title_is_derived") is True,
        ids=identifiers_from(
            doi=_optional(item.get("doi")),
            arxiv=_optional(item.get("arxiv") or item.get("arxiv_id")),
            openreview=_optional(item.get("openreview")),
            url=_optional(item.get("url")),
        ),
        entry_type=_optional(item.get("entry_type")),
        raw_fields=tuple((key, _raw(value)) for key, value in source.items() if value is not None),
        line=line,
        citation_key=_optional(item.get("citation_key")),
        user=_user_data(item, warn),
    )


def _user_data(item: dict[str, Any], warn: Warn) -> UserData:
    status = triage_status(_text(item.get("status")))
    if _USER_KEYS.isdisjoint(item):
        # A paper list's entries carry no user data but a status: nothing to parse.
        return UserData(status=status)
    colours = item.get("tag_colours")
    pairs = (
        [f"{name}={colour}" for name, colour in colours.items()]
        if isinstance(colours, dict)
        else _names(colours)
    )
    rating, note = item.get("rating"), item.get("note")
    places = item.get("shortlist_places")
    places = places if isinstance(places, dict) else {}
    return user_data(
        warn,
        tags=_names(item.get("tags")),
        tag_colours=parse_colours(pairs, "tag_colours", warn),
        note=note if isinstance(note, str) else "",
        rating=None if rating is None else parse_rating(_raw(rating), "rating", warn),
        status=status,
        shortlists=_names(item.get("shortlists")),
        shortlist_places=parse_places(
            [f"{name}={place}" for name, place in places.items()], "shortlist_places", warn
        ),
        team=parse_team(item.get("team"), warn),
    )


def _names(value: Any) -> tuple[str, ...]:
    """A list of names, or one string of them separated by `;`."""
    if isinstance(value, str):
        return split_names(value)
    if isinstance(value, list):
        return tuple(name for name in value if isinstance(name, str))
    return ()


def _raw(value: Any) -> str:
    """A field's source text: strings as they are, anything else as JSON."""
    if isinstance(value, str):
        return value
    if type(value) is int:  # a year: JSON writes it as str() does, without an encoder
        return str(value)
    return _encode(value)


def _text(value: Any) -> str:
    """A display value: LaTeX/HTML made readable (`$K^2$-GNN` -> `K²-GNN`), one line."""
    if not isinstance(value, str):
        return ""
    # Most names, titles and venues are words and single spaces or hyphens, which read
    # as themselves: the renderer is skipped for them (a tenth of reading a large file).
    return value if _PLAIN_WORDS.fullmatch(value) else to_plain(value)


def _optional(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def _year(value: Any, warn: Warn) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, _LongNumber):
        warn(f"year: a {len(value):,}-digit number is not a year a paper can have: left out")
        return None
    if isinstance(value, int):
        if value in _PLAUSIBLE_YEARS:
            return value
        warn(f"year: {value} is not a year a paper can have: left out")
        return None
    if isinstance(value, str):
        return year_from_text(value, warn)
    return year_from_number(value, warn)


def _authors(value: Any) -> tuple[str, ...]:
    """A list of names (or of `{"name": ...}` objects, as APIs give), or one string."""
    if isinstance(value, str):
        return split_authors(value)
    if not isinstance(value, list):
        return ()
    names = (person.get("name") if isinstance(person, dict) else person for person in value)
    return tuple(text for name in names if (text := _text(name)))
