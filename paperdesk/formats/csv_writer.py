"""Writing papers as CSV for a spreadsheet: one row per paper, fixed documented columns.

Columns, in this order (`COLUMNS`):

    citation_key   the paper's key, the same one the BibTeX export gives it
    title          the title as a reader sees it, on one line (LaTeX, Markdown and HTML
                   rendered: `$K^2$-means` -> `K²-means`; escaped only where it would
                   read as markup, see paperdesk.text.protect_markup)
    authors        "First Last; First Last"
    venue          as stored ("ICML")
    year           four digits, or empty
    status         new, skimmed, to-read, read or discarded
    rating         1-5, empty when unrated
    tags           "tag; other/tag"
    tag_colours    "tag=#rrggbb; other/tag=#rrggbb" for the tags that have a colour
    shortlists     "Reading group; Thesis"
    shortlist_places  "Reading group=3; Thesis=1": the paper's place in each shortlist
    note           the user's note, as written (Markdown, line breaks kept)
    title_is_derived  "yes" when the title was derived from the abstract
    doi, url, arxiv, openreview
    abstract       as stored, LaTeX and Markdown included: it is data, and a reader of
                   the cell can still tell `$x_1$` from x1
    added          when the paper entered the library, ISO 8601 (2025-07-01T12:30:00)

csv_reader reads every column back (`added` excepted: a paper's first import is when
it entered the library). The file is UTF-8 (with a byte-order mark if asked, so that
Excel detects UTF-8), quoted by the csv module so that commas, quotes and line breaks
inside cells survive. The stream must be opened with `newline=""`, as the csv module
requires. Cells a spreadsheet would run as formulas are neutralised (formats.csv_cells).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from typing import TextIO

from paperdesk.core.citekeys import DEFAULT_PATTERN, assign_keys
from paperdesk.core.models import Paper
from paperdesk.formats.csv_cells import neutralise
from paperdesk.formats.user_data import LIST_SEPARATOR, colour_pairs, place_pairs
from paperdesk.text import protect_markup

COLUMNS = (
    "citation_key",
    "title",
    "authors",
    "venue",
    "year",
    "status",
    "rating",
    "tags",
    "tag_colours",
    "shortlists",
    "shortlist_places",
    "note",
    "title_is_derived",
    "doi",
    "url",
    "arxiv",
    "openreview",
    "abstract",
    "added",
)


def csv_row(paper: Paper, key: str, tag_colours: Sequence[tuple[str, str]] = ()) -> list[str]:
    """The cells of one paper in `COLUMNS` order, neutralised."""
    cells = (
        key,
        protect_markup(paper.title),
        LIST_SEPARATOR.join(protect_markup(name) for name in paper.authors),
        protect_markup(paper.venue or ""),
        str(paper.year) if paper.year else "",
        paper.status.value,
        str(paper.rating) if paper.rating else "",
        LIST_SEPARATOR.join(paper.tags),
        LIST_SEPARATOR.join(colour_pairs(paper, tag_colours)),
        LIST_SEPARATOR.join(paper.shortlists),
        LIST_SEPARATOR.join(place_pairs(paper)),
        paper.note,
        "yes" if paper.title_is_derived else "",
        paper.ids.doi or "",
        paper.ids.url or "",
        paper.ids.arxiv or "",
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
    tag_colours: Sequence[tuple[str, str]] = (),
) -> int:
    """Write a header and one row per paper, in order; return how many papers."""
    papers = list(papers)
    if excel_bom:
        stream.write("\ufeff")
    writer = csv.writer(stream)
    writer.writerow(COLUMNS)
    for paper, key in zip(papers, assign_keys(papers, key_pattern), strict=True):
        writer.writerow(csv_row(paper, key, tag_colours))
    return len(papers)
