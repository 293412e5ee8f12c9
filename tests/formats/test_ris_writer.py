"""RIS export: what Zotero and friends (and our own reader) get back from a paper."""

from __future__ import annotations

import io

import pytest
import rispy

from paperdesk.core.fields import pages
from paperdesk.core.models import Identifiers, PaperRecord
from paperdesk.formats.bibtex_writer import write_bibtex
from paperdesk.formats.ris_reader import read_ris
from paperdesk.formats.ris_writer import write_ris
from tests.factories import make_paper


def export(papers) -> str:
    stream = io.StringIO()
    assert write_ris(papers, stream) == len(papers)
    return stream.getvalue()


def test_a_paper_as_rispy_reads_it() -> None:
    paper = make_paper(
        title="On the K²-means Problem",
        authors=("Tim Rocktäschel", "Ludwig van Beethoven"),
        abstract="Raw $x_1$ and \\emph{markup}",
        ids=Identifiers(
            doi="10.1234/abc.5",
            arxiv="2401.01234",
            openreview="Abc-123_x",
            url="https://proceedings.mlr.press/v267/sun25a.html",
        ),
        citation_key="sun2025learning",
        tags=("graphs", "rl/offline"),
        note="my own note\n  comes along",
    )
    text = export([paper])
    assert text.startswith("TY  - CPAPER\n")  # no `1.` line before the record
    (entry,) = rispy.loads(text)
    assert entry == {
        "type_of_reference": "CPAPER",
        "id": "sun2025learning",
        "title": "On the K²-means Problem",
        "authors": ["Rocktäschel, Tim", "van Beethoven, Ludwig"],
        "secondary_title": "ICML",
        "year": "2025",
        "abstract": "Raw $x_1$ and \\emph{markup}",
        "doi": "10.1234/abc.5",
        "urls": ["https://proceedings.mlr.press/v267/sun25a.html"],
        "notes": ["arXiv:2401.01234", "https://openreview.net/forum?id=Abc-123_x"],
        "keywords": ["graphs", "rl/offline"],
        # one RN line per line of the note (our reader joins them); rispy keeps the first
        "research_notes": "my own note",
        "custom8": "paperdesk-status: new",
    }
    assert "RN  - my own note\nRN  -   comes along\n" in text


def test_ids_without_a_ris_tag_come_back_through_our_reader() -> None:
    ids = Identifiers(doi="10.1234/abc.5", arxiv="2401.01234", openreview="Abc-123_x")
    (record,) = read_ris(export([make_paper(ids=ids)]), "out.ris").records
    assert record.ids == ids


@pytest.mark.parametrize(
    ("entry_type", "venue", "ris_type"),
    [
        ("JOUR", "ICML", "JOUR"),  # a RIS import keeps its own type
        ("inproceedings", None, "CPAPER"),  # a BibTeX import
        ("article", None, "JOUR"),
        ("phdthesis", None, "THES"),
        ("conferencePaper", None, "CPAPER"),  # a Zotero CSV's item type
        (None, "NeurIPS 2024", "CPAPER"),  # a known conference
        (None, "JMLR", "JOUR"),  # a known journal
        (None, "Some Workshop", "GEN"),
        (None, None, "GEN"),
    ],
)
def test_reference_type(entry_type: str | None, venue: str | None, ris_type: str) -> None:
    text = export([make_paper(entry_type=entry_type, venue=venue)])
    assert text.startswith(f"TY  - {ris_type}\n")


@pytest.mark.parametrize(
    ("display", "written"),
    [
        ("Yi Sun", "Sun, Yi"),
        ("María José García Pérez", "Pérez, María José García"),
        ("Jean-Pierre de la Fontaine", "de la Fontaine, Jean-Pierre"),
        ("danah boyd", "boyd, danah"),
        ("Plato", "Plato"),
        ("李小龍", "李小龍"),
    ],
)
def test_authors_are_last_name_first_and_read_back(display: str, written: str) -> None:
    text = export([make_paper(authors=(display,))])
    assert f"AU  - {written}\n" in text
    assert read_ris(text, "out.ris").records[0].authors == (display,)


def test_multi_line_abstract_is_one_line_and_cannot_fake_tags() -> None:
    abstract = "First paragraph.\n\nER  - not the end\nTY  - JOUR\r\nlast\u2028line"
    papers = [make_paper(abstract=abstract), make_paper(title="Second")]
    text = export(papers)
    assert "AB  - First paragraph. ER  - not the end TY  - JOUR last line\n" in text
    result = read_ris(text, "out.ris")
    assert result.problems == ()
    assert [r.title for r in result.records] == ["Learning Sparse Graphs", "Second"]


def test_a_semicolon_in_a_url_does_not_split_it() -> None:
    url = "https://example.org/paper;jsessionid=42?a=1;b=2"
    (record,) = read_ris(export([make_paper(ids=Identifiers(url=url))]), "out.ris").records
    assert record.ids.url == url.replace(";", "%3B")


def test_titles_that_would_read_as_markup_are_escaped() -> None:
    title = r"Reconstruction for strings {and *arbitrary* deletion \ 2--3"
    text = export([make_paper(title=title)])
    assert read_ris(text, "out.ris").records[0].title == title
    # a title that reads as itself is written as it is
    assert "TI  - Learning Sparse Graphs\n" in export([make_paper()])


def test_records_from_a_file_can_be_written_too() -> None:
    record = PaperRecord(title="A Record", authors=("Ada Lovelace",), year=1843)
    text = export([record])
    assert rispy.loads(text)[0]["title"] == "A Record"
    assert "KW  -" not in text


def test_nothing_to_write_writes_nothing() -> None:
    assert export([]) == ""


@pytest.mark.parametrize(
    ("raw_fields", "start", "end"),
    [
        ((("pages", "12--34"),), "12", "34"),  # BibTeX's range
        ((("pages", "12 – 34"),), "12", "34"),  # an en dash, as typed
        ((("pages", "e1002"),), "e1002", None),  # an article number
        ((("SP", "5"), ("EP", "9")), "5", "9"),  # a RIS file's own pages
    ],
)
def test_pages_are_written_as_first_and_last_page(
    raw_fields: tuple[tuple[str, str], ...], start: str, end: str | None
) -> None:
    # RIS exports lost every paper's pages (a reference manager's citations need them).
    (entry,) = rispy.loads(export([make_paper(raw_fields=raw_fields)]))
    assert (entry.get("start_page"), entry.get("end_page")) == (start, end)


def test_a_ris_papers_pages_reach_a_bibtex_export() -> None:
    paper = make_paper(raw_fields=(("SP", "5"), ("EP", "9")))
    assert pages(paper) == "5--9"  # the detail pane's Pages field
    stream = io.StringIO()
    write_bibtex([paper], stream)
    assert "pages = {5--9}" in stream.getvalue()
