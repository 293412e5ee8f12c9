"""CSV export: rows read back exactly, formulas never run, columns as documented."""

from __future__ import annotations

import csv
import io

from hypothesis import given, settings
from hypothesis import strategies as st

from paperdesk.core.models import Identifiers, Status
from paperdesk.formats.csv_reader import read_csv
from paperdesk.formats.csv_writer import COLUMNS, write_csv
from tests.factories import make_paper


def export(papers, excel_bom=False, tag_colours=()) -> str:
    stream = io.StringIO(newline="")
    assert write_csv(papers, stream, excel_bom=excel_bom, tag_colours=tag_colours) == len(papers)
    return stream.getvalue()


def read_rows(text: str) -> list[dict[str, str]]:
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline="")))
    assert rows[0] == list(COLUMNS)
    assert all(len(row) == len(COLUMNS) for row in rows)
    return [dict(zip(COLUMNS, row, strict=True)) for row in rows[1:]]


def test_every_column_of_a_paper():
    paper = make_paper(
        title="On the $K^2$-means Problem",
        authors=("Yi Sun", "Tim Rocktäschel"),
        status=Status.TO_READ,
        rating=4,
        tags=("graphs", "rl/offline"),
        shortlists=("Reading group", "Thesis"),
        shortlist_places=(3, 1),
        note='Line one, with "quotes"\nline two; and a comma, too',
        abstract="Raw $x_1$ and \\emph{markup}\n\nsecond paragraph",
        ids=Identifiers(doi="10.1/x", url="https://example.org/a,b", openreview="AbC"),
        citation_key="sun2025k2means",
        title_is_derived=True,
    )
    (row,) = read_rows(export([paper], tag_colours=(("graphs", "#3366ff"),)))
    assert row == {
        "citation_key": "sun2025k2means",
        # a stored title that reads as markup is escaped, so that it reads back as stored
        "title": "On the \\$K^2\\$-means Problem",
        "authors": "Yi Sun; Tim Rocktäschel",
        "venue": "ICML",
        "year": "2025",
        "status": "to-read",
        "rating": "4",
        "tags": "graphs; rl/offline",
        "tag_colours": "graphs=#3366ff",
        "shortlists": "Reading group; Thesis",
        "shortlist_places": "Reading group=3; Thesis=1",
        "note": 'Line one, with "quotes"\nline two; and a comma, too',
        "title_is_derived": "yes",
        "doi": "10.1/x",
        "url": "https://example.org/a,b",
        "arxiv": "",
        "openreview": "AbC",
        "abstract": "Raw $x_1$ and \\emph{markup}\n\nsecond paragraph",
        "added": "2025-07-01T12:30:00",
    }


def test_empty_values_are_empty_cells():
    (row,) = read_rows(export([make_paper(venue=None, year=None, authors=())]))
    assert row["venue"] == row["year"] == row["rating"] == row["authors"] == row["tags"] == ""
    assert row["citation_key"] == "anonlearning"


def test_formula_cells_are_neutralised():
    paper = make_paper(
        title='=HYPERLINK("http://evil","click")',
        authors=("+1 Author",),
        note="\r-2+3",
        abstract="@SUM(A1:A2)",
        tags=("\tindented",),
        venue="-whatever",
    )
    (row,) = read_rows(export([paper]))
    assert row["title"] == '\'=HYPERLINK("http://evil","click")'
    assert row["authors"] == "'+1 Author"
    assert row["note"] == "'\r-2+3"
    assert row["abstract"] == "'@SUM(A1:A2)"
    assert row["tags"] == "'\tindented"
    assert row["venue"] == "'-whatever"
    assert row["status"] == "new"  # ordinary cells are untouched


def test_excel_bom_and_crlf_rows():
    text = export([make_paper()], excel_bom=True)
    assert text.startswith("\ufeffcitation_key,title,authors,")
    assert text.endswith("\r\n")
    assert export([make_paper()]).startswith("citation_key,")


def test_keys_match_the_bibtex_export_and_are_unique():
    papers = [make_paper(id=1), make_paper(id=2), make_paper(id=3, citation_key="mine")]
    keys = [row["citation_key"] for row in read_rows(export(papers))]
    assert keys == ["sun2025learning", "sun2025learninga", "mine"]


def test_the_csv_importer_reads_the_export_back():
    papers = [
        make_paper(
            title="Learning Sparse Graphs",
            authors=("Yi Sun", "Tim Rocktäschel"),
            abstract="An abstract, with commas\nand lines.",
            ids=Identifiers(doi="10.1234/x", openreview="AbC12"),
        ),
        make_paper(title="Another paper", venue="NeurIPS", year=2017, authors=("Ada Lovelace",)),
    ]
    result = read_csv(export(papers, excel_bom=True), "export.csv")
    assert result.problems == ()
    assert [r.title for r in result.records] == ["Learning Sparse Graphs", "Another paper"]
    assert result.records[0].authors == ("Yi Sun", "Tim Rocktäschel")
    assert result.records[0].abstract == "An abstract, with commas\nand lines."
    assert result.records[0].ids.doi == "10.1234/x"
    assert result.records[0].ids.openreview == "AbC12"
    assert (result.records[1].venue, result.records[1].year) == ("NeurIPS", 2017)


texts = st.text(alphabet=st.sampled_from(list("=+-@\t\r\n\",; 'a中")) | st.characters())


@settings(max_examples=200, deadline=None)
@given(
    notes=st.lists(texts, min_size=1, max_size=5),
    tags=st.lists(texts, max_size=3),
    abstract=texts,
)
def test_any_text_reads_back_as_written_or_neutralised(notes, tags, abstract):
    papers = [
        make_paper(id=number, note=note, tags=tuple(tags), abstract=abstract)
        for number, note in enumerate(notes)
    ]
    rows = read_rows(export(papers))
    assert len(rows) == len(papers)
    for paper, row in zip(papers, rows, strict=True):
        for cell, value in ((row["note"], paper.note), (row["abstract"], paper.abstract)):
            if value.startswith(("=", "+", "-", "@", "\t", "\r")):
                assert cell == "'" + value
            else:
                assert cell == value
