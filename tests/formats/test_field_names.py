"""One name per field (issue 23, item 5): `--json`, CSV, JSON exports and the backup
call a paper's data by the same names, and files written with the names of earlier
versions (`openreview_id`, `derived_title`) are read unchanged."""

from __future__ import annotations

import json

from paperdesk.cli.output import paper_json
from paperdesk.core.fields import FORMER_NAMES
from paperdesk.core.models import Identifiers
from paperdesk.formats.backup import PAPER_FIELDS
from paperdesk.formats.csv_reader import read_csv
from paperdesk.formats.csv_writer import COLUMNS
from paperdesk.formats.json_reader import read_json
from paperdesk.formats.json_writer import json_record
from tests.factories import make_paper

PAPER = make_paper(ids=Identifiers(openreview="B1QRgziT-"), title_is_derived=True)


def test_every_output_names_the_fields_it_shares_the_same_way() -> None:
    outputs = {
        "--json": set(paper_json(PAPER)),
        "CSV": set(COLUMNS),
        "JSON": set(json_record(PAPER)),
        "backup": set(PAPER_FIELDS),
    }
    for output, names in outputs.items():
        assert not names & set(FORMER_NAMES), output
        assert {"openreview", "title_is_derived", "doi", "arxiv", "url", "year"} <= names, output


def test_a_csv_written_by_the_previous_version_imports_unchanged() -> None:
    old = (
        "citation_key,title,authors,venue,year,status,rating,tags,tag_colours,shortlists,"
        "note,derived_title,doi,url,arxiv,openreview,abstract,added\n"
        "miyato2018spectral,Spectral Normalization for GANs,Takeru Miyato,ICLR,2018,read,4,"
        "gans,,Reading group,a note,yes,,,,B1QRgziT-,An abstract.,2025-07-01T12:30:00\n"
    )
    (record,) = read_csv(old, "old.csv").records
    assert record.title_is_derived is True
    assert record.ids.openreview == "B1QRgziT-"
    assert (record.user.rating, record.user.shortlists) == (4, ("Reading group",))


def test_a_json_export_of_the_previous_version_imports_unchanged() -> None:
    old = {
        "venue": "ICLR",
        "year": 2018,
        "title": "Spectral Normalization for GANs",
        "authors": ["Takeru Miyato"],
        "abstract": "An abstract.",
        "url": None,
        "openreview_id": "B1QRgziT-",
        "doi": None,
        "arxiv": None,
        "citation_key": "miyato2018spectral",
        "title_is_derived": True,
        "status": "read",
        "rating": 4,
        "tags": ["gans"],
        "tag_colours": {},
        "shortlists": ["Reading group"],
        "note": "a note",
    }
    (record,) = read_json(json.dumps(old) + "\n", "old.jsonl").records
    assert record.ids.openreview == "B1QRgziT-"
    assert record.title_is_derived is True
    assert (record.citation_key, record.user.shortlists) == (
        "miyato2018spectral",
        ("Reading group",),
    )
