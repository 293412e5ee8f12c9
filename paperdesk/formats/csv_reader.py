"""Reading CSV and TSV tables (spreadsheets, Zotero, Scopus, scrapers) into paper records.

Columns are recognised by name, whatever the exporter called them (`Title`,
`primary_title`, `Abstract Note`, `Publication Year`...). Without a title column there
is nothing to import, and the error lists what was recognised so the user can rename.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator

from paperdesk.core.errors import FormatError
from paperdesk.core.identifiers import identifiers_from
from paperdesk.core.models import PaperRecord
from paperdesk.formats.base import Problem, ReadResult, result_or_error
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
}
_DELIMITERS = ",\t;"
_YEAR = re.compile(r"\b(\d{4})\b")
_AND = re.compile(r"\s+and\s+|\s*&\s*")
_FIRST_LINE = re.compile(r"\S[^\n]*")
# A row's first line and its cells, or the Problem where reading had to stop.
_Row = tuple[int, list[str] | Problem]


def read_csv(text: str, file_name: str) -> ReadResult:
    """Records for every row with a title; a Problem with its line for the others."""
    text = text.lstrip("\ufeff")
    rows = _numbered_rows(text, _delimiter(_first_line(text)), file_name)
    header_row = next(rows, None)
    if header_row is None:
        raise FormatError(file_name, "no entries found: the file is empty")
    header_line_number, header = header_row
    if isinstance(header, Problem):
        raise FormatError(file_name, header.reason, line=header.line)
    columns = _columns(header, file_name, header_line_number)

    records: list[PaperRecord] = []
    problems: list[Problem] = []
    for line, cells in rows:
        if isinstance(cells, Problem):
            problems.append(cells)
            break
        values = {field: _cell(cells, index) for field, index in columns.items()}
        title = to_plain(values.get("title", ""))
        if not title:
            problems.append(Problem(file_name, line, "no title"))
            continue
        year = _YEAR.search(values.get("year", ""))
        records.append(
            PaperRecord(
                title=title,
                abstract=values.get("abstract", "").strip(),
                authors=split_authors(values.get("authors", "")),
                venue=to_plain(values.get("venue", "")) or None,
                year=int(year.group(1)) if year else None,
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
            )
        )
    return result_or_error(file_name, FORMAT, records, problems, "rows")


def looks_like_csv(text: str) -> bool:
    """Whether the first line is a table header naming a title column."""
    header_line = _first_line(text.lstrip("\ufeff"))
    cells = next(csv.reader([header_line], delimiter=_delimiter(header_line)), [])
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
        recognised = ", ".join(f"{header[i]} ({field})" for field, i in columns.items())
        raise FormatError(
            file_name,
            f"no title column; recognised columns: {recognised or 'none'}; "
            f"name the title column one of: {', '.join(COLUMN_ALIASES['title'])}",
            line=line,
        )
    return columns


def _numbered_rows(text: str, delimiter: str, file_name: str) -> Iterator[_Row]:
    """(line of the row's start, cells) for non-blank rows; a Problem where reading stops.

    A csv.Error (an unclosed quote swallowing the file, a NUL byte) leaves the rest of
    the file unreliable, so reading ends there and says where.
    """
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    next_line = 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            yield next_line, Problem(file_name, next_line, f"cannot read past this line: {error}")
            return
        start, next_line = next_line, reader.line_num + 1
        if any(cell.strip() for cell in cells):
            yield start, cells


def _cell(cells: list[str], index: int) -> str:
    return cells[index] if index < len(cells) else ""
