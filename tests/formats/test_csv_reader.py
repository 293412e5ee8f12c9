"""CSV and TSV as spreadsheets and reference managers write them."""

from __future__ import annotations

import pytest

from paperdesk.core.errors import FormatError
from paperdesk.core.models import Identifiers
from paperdesk.formats.csv_reader import looks_like_csv, read_csv, split_authors

ZOTERO = (
    '"Key","Item Type","Publication Year","Author","Title","Publication Title","DOI",'
    '"Url","Abstract Note","Date"\n'
    '"ABCD1234","conferencePaper","2017","Vaswani, Ashish; Shazeer, Noam",'
    '"Attention is all you need","Advances in Neural Information Processing Systems",'
    '"10.5555/3295222.3295349","https://arxiv.org/abs/1706.03762",'
    '"The dominant sequence transduction models, based on ""recurrent"" networks,\n'
    'are replaced.","2017-12-04"\n'
)


def test_zotero_export() -> None:
    result = read_csv(ZOTERO, "zotero.csv")
    assert result.format == "csv"
    (record,) = result.records
    assert record.title == "Attention is all you need"
    assert record.authors == ("Ashish Vaswani", "Noam Shazeer")
    assert record.year == 2017
    assert record.venue == "Advances in Neural Information Processing Systems"
    assert record.abstract == (
        'The dominant sequence transduction models, based on "recurrent" networks,\nare replaced.'
    )
    assert record.ids == Identifiers(
        doi="10.5555/3295222.3295349", arxiv="1706.03762", url="https://arxiv.org/abs/1706.03762"
    )
    assert record.entry_type == "conferencePaper"
    assert record.line == 2
    assert dict(record.raw_fields)["Key"] == "ABCD1234"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("title,authors,year\nA paper,Alice Smith,2020\n", ("A paper", 2020)),
        ("title\tauthors\tyear\nA paper, with comma\tA B\t2020\n", ("A paper, with comma", 2020)),
        ("Title;Author;Date\nA paper;Smith, A.;2020-01-02\n", ("A paper", 2020)),
        ("primary_title,Publication Year\nA paper,2021\n", ("A paper", 2021)),
        ("\ufeffTITLE,YEAR\nA paper,1999\n", ("A paper", 1999)),
        ("\n\nPaper Title,pub-year\nA paper,2001\n", ("A paper", 2001)),
    ],
)
def test_delimiters_and_header_aliases(text: str, expected: tuple[str, int]) -> None:
    (record,) = read_csv(text, "list.csv").records
    assert (record.title, record.year) == expected


def test_markup_in_display_columns_is_shown_readable() -> None:
    text = (
        'title,venue,authors\n"Learning in $O(d \\log n)$ time",\\textit{NeurIPS},Caf{\\\'e} A.\n'
    )
    (record,) = read_csv(text, "x.csv").records
    assert (record.title, record.venue) == ("Learning in O(d log n) time", "NeurIPS")
    assert record.authors == ("Café A.",)


def test_venue_and_id_columns() -> None:
    text = (
        "title,booktitle,openreview_id,arxiv,url\n"
        "T,ICLR 2018,B12Js_yRb,arXiv:1706.03762v2,https://iclr.cc/virtual/2018/poster/307\n"
    )
    (record,) = read_csv(text, "x.csv").records
    assert record.venue == "ICLR 2018"
    assert record.ids.openreview == "B12Js_yRb"
    assert record.ids.arxiv == "1706.03762"


@pytest.mark.parametrize(
    ("cell", "names"),
    [
        ("Vaswani, Ashish; Shazeer, Noam", ("Ashish Vaswani", "Noam Shazeer")),
        ("Alice Smith and Bob Jones", ("Alice Smith", "Bob Jones")),
        ("Alice Smith, Bob Jones and Carol White", ("Alice Smith", "Bob Jones", "Carol White")),
        ("Alice Smith, Bob Jones, Carol White", ("Alice Smith", "Bob Jones", "Carol White")),
        ("Smith, Alice", ("Alice Smith",)),
        ("van der Walt, Stéfan", ("Stéfan van der Walt",)),
        ("Smith, Alice and Jones, Bob", ("Alice Smith", "Bob Jones")),
        ("Smith, J., Jones, K.", ("J. Smith", "K. Jones")),
        ("Alice Smith & Bob Jones", ("Alice Smith", "Bob Jones")),
        ("Plato", ("Plato",)),
        ("", ()),
        ("  ;  ", ()),
    ],
)
def test_author_separators(cell: str, names: tuple[str, ...]) -> None:
    assert split_authors(cell) == names


def test_rows_without_title_are_problems_with_their_line() -> None:
    text = 'title,abstract\nFirst,"two\nlines"\n,orphan abstract\n\nThird,x\n   ,   \nFourth,y\n'
    result = read_csv(text, "x.csv")
    lines = [(r.title, r.line) for r in result.records]
    assert lines == [("First", 2), ("Third", 6), ("Fourth", 8)]
    assert [(p.line, p.reason) for p in result.problems] == [(4, "no title")]


def test_short_and_long_rows_are_read() -> None:
    result = read_csv("title,year,venue\nShort\nLong,2020,V,extra,cells\n", "x.csv")
    assert [(r.title, r.year, r.venue) for r in result.records] == [
        ("Short", None, None),
        ("Long", 2020, "V"),
    ]


def test_no_title_column_lists_what_was_recognised() -> None:
    with pytest.raises(FormatError) as caught:
        read_csv("Name,Abstract Note,Year,Colour\nx,y,2020,red\n", "sheet.csv")
    message = str(caught.value)
    assert message.startswith("sheet.csv:1: no title column")
    assert "Abstract Note (abstract)" in message
    assert "Year (year)" in message
    assert "Colour" not in message.split("name the title column")[0]
    assert "primary title" in message


def test_a_header_cell_with_a_line_break_keeps_the_message_on_one_line() -> None:
    # The slow fuzz test found it: a quoted header "abstract\n" broke the message in two.
    with pytest.raises(FormatError) as caught:
        read_csv('"Abstract\nNote",Year\ny,2020\n', "sheet.csv")
    assert "\n" not in str(caught.value)
    assert "Abstract Note (abstract)" in str(caught.value)


def test_unclosed_quote_is_reported_and_the_text_it_swallowed_skipped() -> None:
    text = 'title,abstract\nGood,fine\nBad,"never closed\n' + "x" * 200_000 + "\n"
    result = read_csv(text, "x.csv")
    assert [r.title for r in result.records] == ["Good"]
    (problem,) = result.problems
    assert problem.line == 3
    assert "a quote" in problem.reason and "lines 3-4 are not imported" in problem.reason


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no entries found: the file is empty"),
        ("title,year\n", "no entries found: the file holds no rows"),
        ("title,year\n,2020\n", "1 skipped: line 2: no title"),
    ],
)
def test_nothing_to_import_is_a_format_error(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        read_csv(text, "x.csv")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Title,Year\nx,1\n", True),
        ("a\tprimary_title\n", True),
        ("name,colour\n", False),
        ("@article{k, title = {T}}\n", False),
        ("", False),
    ],
)
def test_looks_like_csv(text: str, expected: bool) -> None:
    assert looks_like_csv(text) is expected
