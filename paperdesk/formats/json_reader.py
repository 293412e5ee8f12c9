"""Reading JSON arrays and JSON Lines of paper objects (scrapers, paper lists, APIs).

The keys are those of `../shared/data/corpus.jsonl` (title, authors, abstract, venue,
year, url, openreview_id...), with the obvious alternatives (booktitle, journal, doi,
arxiv). A bad line in JSON Lines is a Problem with its line number; a JSON array is one
document, so a syntax error anywhere in it makes the file unreadable.

`status` in such lists is the venue's decision (Poster, Reject), not the user's triage
status: it is kept in `raw_fields` only. Titles, venues and names are shown as
paperdesk.text makes them readable; `raw_fields` and the abstract keep the source.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from paperdesk.core.errors import FormatError
from paperdesk.core.identifiers import identifiers_from
from paperdesk.core.models import PaperRecord
from paperdesk.formats.base import Problem, ReadResult, result_or_error
from paperdesk.formats.csv_reader import split_authors
from paperdesk.text import to_plain

FORMAT = "json"

_VENUE_KEYS = ("venue", "booktitle", "journal")
_YEAR = re.compile(r"\b(\d{4})\b")
_NOT_BLANK = re.compile(r"\S")
_decoder = json.JSONDecoder()
# One encoder for all: json.dumps with options builds a new one per call, which was a
# third of the time to read the 13k-paper corpus.
_encode = json.JSONEncoder(ensure_ascii=False).encode


def read_json(text: str, file_name: str) -> ReadResult:
    """Records for every object with a title; Problems for bad lines and untitled objects."""
    text = text.lstrip("\ufeff")
    problems: list[Problem] = []
    if text.lstrip().startswith("["):
        items: Iterator[tuple[int, Any]] = _array_items(text, file_name)
    else:
        items = _json_lines(text, file_name, problems)

    records: list[PaperRecord] = []
    for line, item in items:
        if not isinstance(item, dict):
            problems.append(Problem(file_name, line, "not a JSON object"))
            continue
        record = _record(item, line)
        if record is None:
            problems.append(Problem(file_name, line, "no title"))
        else:
            records.append(record)
    problems.sort(key=lambda p: p.line or 0)
    return result_or_error(file_name, FORMAT, records, problems, "JSON objects")


def _json_lines(text: str, file_name: str, problems: list[Problem]) -> Iterator[tuple[int, Any]]:
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as error:
            if number == _first_content_line(lines) and (whole := _whole_object(text)):
                yield number, whole  # one pretty-printed object, not JSON Lines
                return
            reason = f"not valid JSON: {error.msg} (column {error.colno})"
            problems.append(Problem(file_name, number, reason))


def _first_content_line(lines: list[str]) -> int:
    return next(number for number, line in enumerate(lines, start=1) if line.strip())


def _whole_object(text: str) -> dict | None:
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
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
        try:
            item, end = _decoder.raw_decode(text, position)
        except json.JSONDecodeError as error:
            raise FormatError(file_name, f"not valid JSON: {error.msg}", error.lineno) from None
        line += text.count("\n", counted_to, position)
        counted_to = position
        yield line, item
        position = _after_blanks(text, end)
        if text.startswith(",", position):
            position += 1
        elif not text.startswith("]", position):
            line += text.count("\n", counted_to, position)
            raise FormatError(file_name, "not valid JSON: expected ',' or ']'", line)
    if text[position + 1 :].strip():
        raise FormatError(file_name, "not valid JSON: text after the closing ']'")


def _record(item: dict[str, Any], line: int) -> PaperRecord | None:
    title = _text(item.get("title"))
    if not title:
        return None
    venue = next((_text(item.get(key)) for key in _VENUE_KEYS if item.get(key)), "")
    year = _year(item.get("year") if item.get("year") is not None else item.get("date"))
    return PaperRecord(
        title=title,
        abstract=str(item.get("abstract") or "").strip(),
        authors=_authors(item.get("authors") or item.get("author")),
        venue=venue or None,
        year=year,
        ids=identifiers_from(
            doi=_optional(item.get("doi")),
            arxiv=_optional(item.get("arxiv") or item.get("arxiv_id")),
            openreview=_optional(item.get("openreview_id") or item.get("openreview")),
            url=_optional(item.get("url")),
        ),
        entry_type=_optional(item.get("entry_type")),
        raw_fields=tuple((key, _raw(value)) for key, value in item.items() if value is not None),
        line=line,
        citation_key=_optional(item.get("citation_key")),
    )


def _raw(value: Any) -> str:
    """A field's source text: strings as they are, anything else as JSON."""
    return value if isinstance(value, str) else _encode(value)


def _text(value: Any) -> str:
    """A display value: LaTeX/HTML made readable (`$K^2$-GNN` -> `K²-GNN`), one line."""
    return to_plain(value) if isinstance(value, str) else ""


def _optional(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def _year(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    match = _YEAR.search(value) if isinstance(value, str) else None
    return int(match.group(1)) if match else None


def _authors(value: Any) -> tuple[str, ...]:
    """A list of names (or of `{"name": ...}` objects, as APIs give), or one string."""
    if isinstance(value, str):
        return split_authors(value)
    if not isinstance(value, list):
        return ()
    names = (person.get("name") if isinstance(person, dict) else person for person in value)
    return tuple(text for name in names if (text := _text(name)))
