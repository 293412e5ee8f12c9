"""RIS as databases and reference managers export it, loose separators included."""

from __future__ import annotations

import pytest

from paperdesk.core.errors import FormatError
from paperdesk.core.models import Identifiers
from paperdesk.formats.ris_reader import read_ris

ZOTERO_RECORD = """TY  - CONF
TI  - Attention Is All
  You Need
AU  - Vaswani, Ashish
AU  - Shazeer, Noam
A1  - Ignored, Because AU Exists
T2  - Advances in Neural Information Processing Systems
PY  - 2017/12/04/
DO  - https://doi.org/10.5555/3295222.3295349
UR  - https://arxiv.org/abs/1706.03762v5
AB  - The dominant sequence transduction models
  are based on recurrent networks.
ID  - vaswani2017
ER  -
"""


def test_a_full_record() -> None:
    result = read_ris(ZOTERO_RECORD, "zotero.ris")
    assert result.format == "ris"
    assert result.problems == ()
    (record,) = result.records
    assert record.title == "Attention Is All You Need"
    assert record.authors == ("Ashish Vaswani", "Noam Shazeer")
    assert record.venue == "Advances in Neural Information Processing Systems"
    assert record.year == 2017
    assert record.ids == Identifiers(
        doi="10.5555/3295222.3295349",
        arxiv="1706.03762",
        url="https://arxiv.org/abs/1706.03762v5",
    )
    assert record.abstract.startswith("The dominant sequence transduction models")
    assert record.entry_type == "CONF"
    assert record.citation_key == "vaswani2017"
    assert record.line == 1
    raw = dict(record.raw_fields)
    assert raw["TI"] == "Attention Is All\nYou Need"
    assert raw["PY"] == "2017/12/04/"


@pytest.mark.parametrize(
    "text",
    [
        "TY  - JOUR\nTI  - Spec separators\nER  - \n",
        "TY - JOUR\nTI - One space on each side\nER - \n",
        "TY\t-\tJOUR\nTI\t-\tTabs around the dash\nER\t-\n",
        "\ufeffTY  - JOUR\nTI  - Byte-order mark\nER  - \n",
        "TY  - JOUR\r\nTI  - Windows lines\r\nER  - \r\n".replace("\r\n", "\n"),
        "TY  - JOUR\nTI  - No ER at the end of the file\n",
        "   \n\nTY  - JOUR\nTI  - Leading blank lines\nER  -",
    ],
)
def test_loose_separators_and_framing_are_read(text: str) -> None:
    (record,) = read_ris(text, "loose.ris").records
    assert record.title
    assert record.entry_type == "JOUR"


def test_continuation_line_that_looks_like_a_tag_without_blank_stays_text() -> None:
    text = "TY  - JOUR\nTI  - T\nAB  - We ran an\nAB-testing campaign.\nER  - \n"
    (record,) = read_ris(text, "x.ris").records
    assert record.abstract == "We ran an AB-testing campaign."


def test_markup_in_titles_is_shown_readable_and_kept_raw() -> None:
    title = r"<i>E. coli</i> and the $\alpha$-helix"
    text = f'TY  - JOUR\nTI  - {title}\nAU  - M{{\\"u}}ller, J.\nER  -\n'
    (record,) = read_ris(text, "x.ris").records
    assert record.title == "E. coli and the α-helix"
    assert record.authors == ("J. Müller",)
    assert dict(record.raw_fields)["TI"] == title


def test_missing_er_between_records_starts_a_new_record() -> None:
    text = "TY  - JOUR\nTI  - First\nTY  - BOOK\nTI  - Second\nER  - \n"
    result = read_ris(text, "x.ris")
    assert [(r.title, r.entry_type, r.line) for r in result.records] == [
        ("First", "JOUR", 1),
        ("Second", "BOOK", 3),
    ]


def test_title_falls_back_to_t1_and_venue_to_journal_tags() -> None:
    text = "TY  - JOUR\nT1  - Primary\nJF  - Journal of Things\nY1  - 1999///\nER  - \n"
    (record,) = read_ris(text, "x.ris").records
    assert (record.title, record.venue, record.year) == ("Primary", "Journal of Things", 1999)


def test_names_without_commas_are_kept_and_suffixes_placed_last() -> None:
    text = "TY  - JOUR\nTI  - T\nAU  - Plato\nAU  - King, Martin Luther, Jr.\nER  - \n"
    (record,) = read_ris(text, "x.ris").records
    assert record.authors == ("Plato", "Martin Luther King Jr.")


def test_record_without_title_is_a_problem_and_others_import() -> None:
    text = (
        "TY  - JOUR\nTI  - Good\nER  - \n\n"
        "TY  - JOUR\nAU  - Nobody, Named\nER  - \n\n"
        "TY  - JOUR\nTI  - Also good\nER  - \n"
    )
    result = read_ris(text, "x.ris")
    assert [r.title for r in result.records] == ["Good", "Also good"]
    assert [(p.line, p.reason) for p in result.problems] == [(5, "no title (no TI or T1 line)")]


def test_fields_outside_a_record_are_reported_once_per_run() -> None:
    text = "TI  - Orphan\nAU  - Lost, A.\n\nTY  - JOUR\nTI  - Kept\nER  - \n"
    result = read_ris(text, "x.ris")
    assert [r.title for r in result.records] == ["Kept"]
    assert len(result.problems) == 1
    assert result.problems[0].line == 1
    assert "must start with a 'TY  - ' line" in result.problems[0].reason


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no entries found: the file holds no RIS records"),
        ("just some words\n", "no entries found: the file holds no RIS records"),
        ("JF  - A journal\nT1  - A title\nER  -\n", "line 1: fields outside any record"),
    ],
)
def test_file_with_no_usable_record_is_a_format_error(text: str, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        read_ris(text, "broken.ris")
    assert str(caught.value).startswith("broken.ris: ")
    assert message in str(caught.value)
