"""JSON / JSON Lines export in the corpus's keys: other tools and our reader read it back."""

from __future__ import annotations

import io
import json
from pathlib import Path

from paperdesk.core.models import Identifiers, PaperRecord
from paperdesk.formats.json_reader import read_json
from paperdesk.formats.json_writer import write_json_records
from tests.conftest import lines_of
from tests.factories import make_paper

KEYS = [
    *("venue", "year", "title", "authors", "abstract", "url", "openreview", "doi", "arxiv"),
    *("citation_key", "title_is_derived", "status", "rating", "tags", "tag_colours"),
    *("shortlists", "shortlist_places", "note"),
]


def export(papers, lines: bool = False) -> str:
    stream = io.StringIO()
    assert write_json_records(papers, stream, lines=lines) == len(papers)
    return stream.getvalue()


def test_array_in_the_corpus_keys_with_nulls_for_missing_values() -> None:
    full = make_paper(
        title="Über $K$-Graphen",
        authors=("Tim Rocktäschel", "Yi Sun"),
        abstract='Raw $x_1$ and \\emph{markup}\n\nwith "quotes"',
        ids=Identifiers(
            doi="10.1234/abc.5", arxiv="2401.01234", openreview="Abc-123_x", url="https://x.org"
        ),
        tags=("graphs",),
        note="the user's note comes along",
        rating=5,
        citation_key="rocktaschel2025uber",
    )
    bare = make_paper(title="Bare", authors=(), venue=None, year=None)
    text = export([full, bare])
    assert "Rocktäschel" in text  # UTF-8, not \u escapes
    objects = json.loads(text)
    assert [list(o) for o in objects] == [KEYS, KEYS]
    assert objects[0] == {
        "venue": "ICML",
        "year": 2025,
        "title": "Über \\$K\\$-Graphen",  # a literal `$` in the display title, escaped
        "authors": ["Tim Rocktäschel", "Yi Sun"],
        "abstract": 'Raw $x_1$ and \\emph{markup}\n\nwith "quotes"',
        "url": "https://x.org",
        "openreview": "Abc-123_x",
        "doi": "10.1234/abc.5",
        "arxiv": "2401.01234",
        "citation_key": "rocktaschel2025uber",
        "title_is_derived": False,
        "status": "new",
        "rating": 5,
        "tags": ["graphs"],
        "tag_colours": {},
        "shortlists": [],
        "shortlist_places": {},
        "note": "the user's note comes along",
    }
    assert objects[1] == dict.fromkeys(KEYS) | {
        "title": "Bare",
        "authors": [],
        "abstract": "",
        "title_is_derived": False,
        "status": "new",
        "tags": [],
        "tag_colours": {},
        "shortlists": [],
        "shortlist_places": {},
    }


def test_json_lines_one_object_per_line() -> None:
    papers = [make_paper(title=f"Paper {n}", abstract="two\nlines\u2028and more") for n in range(3)]
    lines = export(papers, lines=True).splitlines()
    assert len(lines) == 3
    assert [json.loads(line)["title"] for line in lines] == ["Paper 0", "Paper 1", "Paper 2"]


def test_empty_exports_are_valid_json() -> None:
    assert json.loads(export([])) == []
    assert export([], lines=True) == ""


def test_written_papers_read_back_as_the_same_records() -> None:
    papers = [
        make_paper(
            # display text that looks like markup
            title=r"Strings {and *arbitrary* deletion \ 2--3",
            authors=("Ludwig van Beethoven", "Smith, John"),
            abstract="Kept $as$ \\textit{stored}\n",
            ids=Identifiers(doi="10.1234/abc.5", openreview="Abc-123_x"),
        ),
        make_paper(venue=None, year=None, authors=()),
    ]
    for lines in (False, True):
        records = read_json(export(papers, lines), "out.json").records
        assert [(r.title, r.authors, r.venue, r.year, r.abstract, r.ids) for r in records] == [
            (p.title, p.authors, p.venue, p.year, p.abstract.strip(), p.ids) for p in papers
        ]


def test_the_corpus_reads_back_identically(corpus_file: Path) -> None:
    """Real records (LaTeX and HTML in titles, stray `\\{`) survive a round trip."""
    text = corpus_file.read_text(encoding="utf-8")
    first = read_json(text, "corpus.jsonl").records
    stream = io.StringIO()
    write_json_records(first, stream, lines=True)
    again = read_json(stream.getvalue(), "again.jsonl").records
    assert len(again) == len(first) == lines_of(corpus_file)

    def fields(r: PaperRecord) -> tuple:
        return (r.title, r.authors, r.venue, r.year, r.abstract, r.ids)

    assert [fields(r) for r in again] == [fields(r) for r in first]
