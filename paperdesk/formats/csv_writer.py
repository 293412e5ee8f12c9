"""Writing papers as CSV for a spreadsheet: one row per paper, fixed documented columns.

Columns, in this order (`COLUMNS`):

    key         citation key, the same one the BibTeX export gives the paper
    title       the title as a reader sees it: LaTeX, Markdown and HTML rendered to
                plain Unicode text (`$K^2$-means` -> `K²-means`), on one line
    authors     "First Last; First Last"
    venue       as stored ("ICML")
    year        four digits, or empty
    status      new, skimmed, to-read, read or discarded
    rating      1-5, empty when unrated
    tags        "tag; other/tag"
    shortlists  "Reading group; Thesis"
    note        the user's note, as written (Markdown, line breaks kept)
    doi, url, openreview
    abstract    as stored, LaTeX and Markdown included: it is data, and a reader of the
                cell can still tell `$x_1$` from x1
    added       when the paper entered the library, ISO 8601 (2025-07-01T12:30:00)

The file is UTF-8 (with a byte-order mark if asked, so that Excel detects UTF-8),
quoted by the csv module so that commas, quotes and line breaks inside cells survive.
The stream must be opened with `newline=""`, as the csv module requires.

A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return would run as a
formula in Excel or LibreOffice (CSV injection), so it gets a leading apostrophe,
which spreadsheets hide and treat as "this is text" (the OWASP rule). Readers of this
file should drop an apostrophe that comes before one of those characters.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import TextIO

from paperdesk.core.citekeys import DEFAULT_PATTERN, assign_keys
from paperdesk.core.models import Paper
from paperdesk.text import to_plain

COLUMNS = (
    "key",
    "title",
    "authors",
    "venue",
    "year",
    "status",
    "rating",
    "tags",
    "shortlists",
    "note",
    "doi",
    "url",
    "openreview",
    "abstract",
    "added",
)
SEPARATOR = "; "
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(cell: str) -> str:
    """The cell with a leading apostrophe if a spreadsheet would run it as a formula."""
    return "'" + cell if cell.startswith(FORMULA_STARTS) else cell


def csv_row(paper: Paper, key: str) -> list[str]:
    """The cells of one paper in `COLUMNS` order, neutralised."""
    cells = (
        key,
        to_plain(paper.title),
        SEPARATOR.join(paper.authors),
        paper.venue or "",
        str(paper.year) if paper.year else "",
        paper.status.value,
        str(paper.rating) if paper.rating else "",
        SEPARATOR.join(paper.tags),
        SEPARATOR.join(paper.shortlists),
        paper.note,
        paper.ids.doi or "",
        paper.ids.url or "",
        paper.ids.openreview or "",
        paper.abstract,
        paper.added.isoformat(timespec="seconds"),
    )
    return [neutralise(cell) for cell in cells]


def write_csv(
    papers: Iterable[Paper],
    stream: TextIO,
    excel_bom: bool = False,
    key_pattern: str = DEFAULT_PATTERN,
) -> int:
    """Write a header and one row per paper, in order; return how many papers."""
    papers = list(papers)
    if excel_bom:
        stream.write("\ufeff")
    writer = csv.writer(stream)
    writer.writerow(COLUMNS)
    for paper, key in zip(papers, assign_keys(papers, key_pattern), strict=True):
        writer.writerow(csv_row(paper, key))
    return len(papers)
