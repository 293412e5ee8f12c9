"""JSON arrays and JSON Lines with the keys of the shared corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperdesk.core.errors import FormatError
from paperdesk.core.models import Identifiers
from paperdesk.formats.json_reader import read_json
from paperdesk.text import to_plain
from tests.conftest import lines_of

CORPUS_LINE = {
    "venue": "ICLR",
    "year": 2018,
    "title": "Spectral  Normalization for\nGANs",
    "authors": ["Takeru Miyato", "Toshiki Kataoka"],
    "abstract": "One of the challenges in the study of <em>GANs</em> is $K^2$.",
    "status": "Oral",
    "track": "main",
    "url": "https://openreview.net/forum?id=B1QRgziT-",
    "openreview_id": None,
    "has_bibtex": False,
    "source": "papercopilot/paperlists:iclr/iclr2018.json@33f9884",
}


def test_a_corpus_line() -> None:
    result = read_json(json.dumps(CORPUS_LINE) + "\n", "corpus.jsonl")
    assert result.format == "json"
    (record,) = result.records
    assert record.title == "Spectral Normalization for GANs"
    assert record.authors == ("Takeru Miyato", "Toshiki Kataoka")
    assert record.abstract == CORPUS_LINE["abstract"]
    assert (record.venue, record.year, record.line) == ("ICLR", 2018, 1)
    assert record.ids == Identifiers(
        openreview="B1QRgziT-", url="https://openreview.net/forum?id=B1QRgziT-"
    )
    raw = dict(record.raw_fields)
    assert raw["status"] == "Oral"  # the venue's decision, kept only as source data
    assert raw["authors"] == '["Takeru Miyato", "Toshiki Kataoka"]'
    assert raw["has_bibtex"] == "false"
    assert "openreview_id" not in raw


def test_latex_in_titles_is_shown_readable_and_kept_raw() -> None:
    line = {"title": "$K^2$-GNN: Graph Networks", "authors": ['Tim Rockt{\\"a}schel']}
    (record,) = read_json(json.dumps(line), "x.jsonl").records
    assert record.title == "K²-GNN: Graph Networks"
    assert record.authors == ("Tim Rocktäschel",)
    assert dict(record.raw_fields)["title"] == "$K^2$-GNN: Graph Networks"


def test_array_records_carry_the_line_they_start_on() -> None:
    text = json.dumps(
        [{"title": "First", "year": "2019-05"}, {"title": "Second", "journal": "JMLR"}], indent=2
    )
    result = read_json(text, "list.json")
    assert [(r.title, r.line, r.year, r.venue) for r in result.records] == [
        ("First", 2, 2019, None),
        ("Second", 6, None, "JMLR"),
    ]


def test_alternative_keys_and_author_shapes() -> None:
    lines = [
        {
            "title": "A",
            "author": "Smith, Alice and Bob Jones",
            "booktitle": "ICML",
            "doi": "10.1000/X",
        },
        {
            "title": "B",
            "authors": [{"authorId": "1", "name": "Ada Lovelace"}],
            "arxiv_id": "2401.01",
        },
        {"title": "C", "authors": None, "date": "2024-01-01", "openreview": "abcDEF123"},
    ]
    result = read_json("\n".join(json.dumps(line) for line in lines), "api.jsonl")
    a, b, c = result.records
    assert (a.authors, a.venue, a.ids.doi) == (("Alice Smith", "Bob Jones"), "ICML", "10.1000/x")
    assert (b.authors, b.ids.arxiv) == (("Ada Lovelace",), None)  # 2401.01 is no arXiv id
    assert (c.authors, c.year, c.ids.openreview) == ((), 2024, "abcDEF123")


def test_bad_lines_are_problems_and_the_others_import() -> None:
    text = "\n".join(
        [
            json.dumps({"title": "Good"}),
            '{"title": "Broken", ',
            "",
            json.dumps(["not", "an", "object"]),
            json.dumps({"abstract": "no title here"}),
            json.dumps({"title": 42}),
            json.dumps({"title": "Also good"}),
        ]
    )
    result = read_json(text, "x.jsonl")
    assert [(r.title, r.line) for r in result.records] == [("Good", 1), ("Also good", 7)]
    problems = [(p.line, p.reason) for p in result.problems]
    assert problems[0][0] == 2 and problems[0][1].startswith("not valid JSON")
    assert problems[1:] == [(4, "not a JSON object"), (5, "no title"), (6, "no title")]


def test_one_pretty_printed_object_is_one_record() -> None:
    (record,) = read_json(json.dumps({"title": "Alone", "year": 2020}, indent=2), "x.json").records
    assert (record.title, record.year, record.line) == ("Alone", 2020, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no entries found: the file holds no JSON objects"),
        ("[]", "no entries found: the file holds no JSON objects"),
        ('[\n  {"title": "a"},\n  {"title": }\n]', r"x.json:3: not valid JSON"),
        ('[{"title": "a"} {"title": "b"}]', "expected ',' or ']'"),
        ('[{"title": "a"}] trailing', "text after the closing"),
        ('{"title": "a"\n', "1 skipped: line 1: not valid JSON"),
    ],
)
def test_unreadable_files_are_format_errors(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        read_json(text, "x.json")


def test_the_shared_corpus_reads_completely(corpus_file: Path) -> None:
    text = corpus_file.read_text(encoding="utf-8")
    result = read_json(text, "corpus.jsonl")
    assert len(result.records) == lines_of(corpus_file)
    assert result.problems == ()
    assert all(record.title and record.year for record in result.records)
    with_openreview = sum(1 for record in result.records if record.ids.openreview)
    # mostly taken from openreview.net/forum?id= URLs
    assert with_openreview > 0.25 * len(result.records)


@pytest.mark.parametrize(
    "plain",
    ["Ngo Anh Vien", "Viet-Hung Dang", "ICML", "Deep Learning for 3D Point Clouds", "R2-D2"],
)
def test_plain_words_read_as_the_renderer_reads_them(plain: str) -> None:
    item = {"title": plain, "authors": [plain], "venue": plain}
    (record,) = read_json(json.dumps(item), "list.jsonl").records
    assert (record.title, record.authors, record.venue) == (plain, (plain,), plain)
    assert to_plain(plain) == plain
