"""Reading CSV and TSV tables (spreadsheets, Zotero, Scopus, scrapers) into paper records.

Columns are recognised by name, whatever the exporter called them (`Title`,
`primary_title`, `Abstract Note`, `Publication Year`...). Without a title column there
is nothing to import, and the error lists what was recognised so the user can rename.
The user's data in csv_writer's columns (status, rating, tags, shortlists, note...)
comes back too; a `status` that is no triage status (`Poster`: a paper list's venue
decision) is left out quietly.

Quotes are read strictly: a quote left open would otherwise swallow the rows after it
into one cell. Such a row (or one with a NUL byte) is reported with its line and
skipped, and reading goes on at the next line.
"""

from __future__ import annotations

import csv
import itertools
import re
from collections.abc import Iterator
from dataclasses import replace

from paperdesk.core.errors import FormatError
from paperdesk.core.identifiers import identifiers_from
from paperdesk.core.models import PaperRecord, UserData
from paperdesk.formats import base
from paperdesk.formats.base import Problem, ReadResult, result_or_error, too_many_entries
from paperdesk.formats.csv_cells import restore
from paperdesk.formats.field_values import year_from_text
from paperdesk.formats.user_data import (
    Warn,
    is_true,
    parse_colours,
    parse_places,
    parse_rating,
    split_names,
    triage_status,
    user_data,
)
from paperdesk.text import to_plain

FORMAT = "csv"

# Column names per field, after `_normalise_header`, most specific first: Zotero has
# both "Publication Year" and "Date", and the year column is the cleaner one.
COLUMN_ALIASES: dict[str, tuple[str, ...]] = {
    "title": ("title", "primary title", "paper title", "article title", "document title"),
    "abstract": ("abstract", "abstract note", "summary"),
    "authors": ("authors", "author", "author full names", "author names", "creators"),
    "year": ("year", "publication year", "pub year", "date", "publication date"),
    "venue": (
        "venue",
        "booktitle",
        "book title",
        "journal",
        "publication title",
        "source title",
        "conference",
        "publication",
    ),
    "doi": ("doi",),
    "url": ("url", "link"),
    "openreview": ("openreview", "openreview id", "openreview url"),
    "arxiv": ("arxiv", "arxiv id", "eprint"),
    "citation_key": ("citation key", "citekey", "bibtex key"),
    "entry_type": ("item type", "entry type", "entrytype"),
    "status": ("status", "reading status"),
    "rating": ("rating",),
    "tags": ("tags", "manual tags"),
    "tag_colours": ("tag colours", "tag colors"),
    "shortlists": ("shortlists",),
    "shortlist_places": ("shortlist places",),
    "note": ("note", "notes"),
    # `derived_title` is the column's name before one name per field (core.fields)
    "title_is_derived": ("title is derived", "derived title"),
}
# No header names that many characters of columns; longer first lines are no table.
MAX_HEADER_CHARS = 10_000
# A spreadsheet stops being trustworthy after this many rows it cannot read.
MAX_UNREADABLE_ROWS = 100
_DELIMITERS = ",\t;"
_AND = re.compile(r"\s+and\s+|\s*&\s*")
_FIRST_LINE = re.compile(r"\S[^\n]*")


def read_csv(text: str, file_name: str) -> ReadResult:
    """Records for every row with a title; a Problem with its line for the others."""
    text = text.lstrip("\ufeff")
    problems: list[Problem] = []
    rows = _numbered_rows(text, _delimiter(_first_line(text)), file_name, problems)
    header_row = next(rows, None)
    if problems and (header_row is None or (problems[0].line or 0) < header_row[0]):
        raise FormatError(file_name, problems[0].reason, line=problems[0].line)
    if header_row is None:
        raise FormatError(file_name, "no entries found: the file is empty")
    header_line_number, header = header_row
    columns = _columns(header, file_name, header_line_number)

    records: list[PaperRecord] = []
    warnings: list[Problem] = []
    for line, cells in rows:
        if len(records) >= base.MAX_ENTRIES:
            raise too_many_entries(file_name)
        values = {field: restore(_cell(cells, index)) for field, index in columns.items()}
        title = to_plain(values.get("title", ""))
        if not title:
            problems.append(Problem(file_name, line, "no title"))
            continue

        def warn(reason: str, line: int = line) -> None:
            warnings.append(Problem(file_name, line, reason))

        year = year_from_text(values.get("year", ""), warn)
        records.append(
            PaperRecord(
                title=title,
                abstract=values.get("abstract", "").strip(),
                authors=split_authors(values.get("authors", "")),
                venue=to_plain(values.get("venue", "")) or None,
                year=year,
                title_is_derived=is_true(values.get("title_is_derived", "")),
                ids=identifiers_from(
                    doi=values.get("doi"),
                    arxiv=values.get("arxiv"),
                    openreview=values.get("openreview"),
                    url=values.get("url"),
                ),
                entry_type=values.get("entry_type", "").strip() or None,
                raw_fields=tuple(
                    (name, value) for name, value in zip(header, cells, strict=False) if value
                ),
                line=line,
                citation_key=values.get("citation_key", "").strip() or None,
                user=_user_data(values, warn),
            )
        )
    problems.sort(key=lambda p: p.line or 0)
    return result_or_error(file_name, FORMAT, records, problems, "rows", warnings=warnings)


def _user_data(values: dict[str, str], warn: Warn) -> UserData:
    """The user data in csv_writer's columns (`;` between names, as it writes them)."""
    return user_data(
        warn,
        tags=split_names(values.get("tags", "")),
        tag_colours=parse_colours(values.get("tag_colours", "").split(";"), "tag_colours", warn),
        note=values.get("note", ""),
        rating=parse_rating(values.get("rating", ""), "rating", warn),
        status=triage_status(values.get("status", "")),
        shortlists=split_names(values.get("shortlists", "")),
        shortlist_places=parse_places(
            split_names(values.get("shortlist_places", "")), "shortlist_places", warn
        ),
    )


def looks_like_csv(text: str) -> bool:
    """Whether the first line is a table header naming a title column."""
    header_line = _first_line(text.lstrip("\ufeff"))
    if len(header_line) > MAX_HEADER_CHARS:
        return False  # a single huge line is no header (and overflows the csv module)
    try:
        cells = next(csv.reader([header_line], delimiter=_delimiter(header_line)), [])
    except csv.Error:  # a lone carriage return in the line, say: no table's header
        return False
    return any(_normalise_header(cell) in COLUMN_ALIASES["title"] for cell in cells)


def split_authors(text: str) -> tuple[str, ...]:
    """An author cell as a list of "First Last" names.

    `;` separates people (Zotero, Web of Science: `Vaswani, Ashish; Shazeer, Noam`);
    otherwise ` and ` / `&` / `,` do, unless the commas only split `Last, First`.
    """
    if ";" in text:
        chunks = [_last_first(chunk) for chunk in text.split(";")]
    else:
        chunks = [name for chunk in _AND.split(text) for name in _comma_separated(chunk)]
    return tuple(name for name in (to_plain(c) for c in chunks) if name)


def _comma_separated(chunk: str) -> list[str]:
    pieces = [piece.strip() for piece in chunk.split(",") if piece.strip()]
    if len(pieces) == 2 and any(" " not in piece for piece in pieces):
        return [f"{pieces[1]} {pieces[0]}"]  # `Smith, Alice` or `van der Walt, Stéfan`
    if len(pieces) > 2 and len(pieces) % 2 == 0 and all(" " not in p for p in pieces):
        return [f"{first} {last}" for last, first in zip(pieces[::2], pieces[1::2], strict=True)]
    return pieces


def _last_first(name: str) -> str:
    last, comma, first = name.partition(",")
    return f"{first.strip()} {last.strip()}" if comma and first.strip() else name


def _first_line(text: str) -> str:
    first = _FIRST_LINE.search(text)
    return first.group(0) if first else ""


def _delimiter(header_line: str) -> str:
    # Counting on the header is steadier than csv.Sniffer, which abstracts full of
    # commas and quotes mislead; headers hold neither.
    return max(_DELIMITERS, key=header_line.count)


def _normalise_header(name: str) -> str:
    return re.sub(r"[\s_\-]+", " ", name.strip().lower())


def _columns(header: list[str], file_name: str, line: int) -> dict[str, int]:
    """Field -> column index, the first alias present winning; FormatError without title."""
    positions: dict[str, int] = {}
    for index, name in enumerate(header):
        positions.setdefault(_normalise_header(name), index)
    columns = {}
    for field, aliases in COLUMN_ALIASES.items():
        found = next((positions[alias] for alias in aliases if alias in positions), None)
        if found is not None:
            columns[field] = found
    if "title" not in columns:
        # A header cell may hold a line break (quoted): the message stays one line.
        recognised = ", ".join(
            f"{' '.join(header[i].split())} ({field})" for field, i in columns.items()
        )
        raise FormatError(
            file_name,
            f"no title column; recognised columns: {recognised or 'none'}; "
            f"name the title column one of: {', '.join(COLUMN_ALIASES['title'])}",
            line=line,
        )
    return columns


def _numbered_rows(
    text: str, delimiter: str, file_name: str, problems: list[Problem]
) -> Iterator[tuple[int, list[str]]]:
    """(line of the row's start, cells) for non-blank rows, the header first.

    A row the csv module cannot read strictly (a quote left open, or closed with more
    text after it) becomes a Problem, and reading starts again on the line after its
    first one. Until a row there has as many cells as the header, lines are taken for
    the rest of the broken row's text (an abstract's later lines) and skipped with it.
    """
    # Lines end at `\n` only: `\u2028` or a form feed inside a cell is text.
    lines = [line + "\n" for line in text.split("\n")]
    last_line = len(lines) - 1 if text.endswith("\n") else len(lines)
    width: int | None = None  # the header's, once it is read
    broken: int | None = None  # the index in `problems` of the row being skipped over
    start_line = 1  # where the current csv.reader started, counted from 1
    while start_line <= len(lines):
        reader = csv.reader(
            itertools.islice(lines, start_line - 1, None), delimiter=delimiter, strict=True
        )
        next_line = start_line
        try:
            for cells in reader:
                row_line, next_line = next_line, start_line + reader.line_num
                if not any(cell.strip() for cell in cells):
                    continue
                if broken is not None:
                    if len(cells) != width:
                        continue
                    _close(problems, broken, row_line - 1)
                    broken = None
                width = len(cells) if width is None else width
                yield row_line, cells
            break
        except csv.Error as error:
            if broken is None:
                broken = len(problems)
                problems.append(Problem(file_name, next_line, _unreadable(str(error))))
        if len(problems) >= MAX_UNREADABLE_ROWS:
            reason = f"stopped reading: {MAX_UNREADABLE_ROWS} rows could not be read"
            problems.append(Problem(file_name, next_line, reason))
            return
        start_line = next_line + 1
    if broken is not None:
        _close(problems, broken, last_line)


def _close(problems: list[Problem], index: int, last_line: int) -> None:
    """Say in a broken row's Problem which lines were skipped with it."""
    broken = problems[index]
    if broken.line is not None and last_line > broken.line:
        reason = f"{broken.reason} (lines {broken.line}-{last_line} are not imported)"
        problems[index] = replace(broken, reason=reason)


def _unreadable(error: str) -> str:
    if "field larger than field limit" in error:
        limit = csv.field_size_limit()
        return (
            f"this row is not imported: a cell in it holds more than {limit:,} characters "
            "(a quote left open?)"
        )
    if "end of data" in error:
        return "this row is not imported: a quote opened in it is never closed"
    return f"this row is not imported: a quote in it is not closed where it should be ({error})"


def _cell(cells: list[str], index: int) -> str:
    return cells[index] if index < len(cells) else ""
