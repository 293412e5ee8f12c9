"""Formatted citations in CSL styles (issue 24, item 3), as a reader expects them."""

from __future__ import annotations

from datetime import datetime

import pytest

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import Identifiers, Paper, Status
from paperdesk.formats.citations import bibliography, write_bibliography

STAMP = datetime(2024, 1, 1)
TRANSFORMER = Paper(
    id=1,
    title="Attention is all you need",
    title_is_derived=False,
    authors=("Ashish Vaswani", "Noam Shazeer"),
    venue="NeurIPS",
    year=2017,
    abstract="",
    ids=Identifiers(),
    status=Status.NEW,
    rating=0,
    added=STAMP,
    updated=STAMP,
    fingerprint="x",
    entry_type="inproceedings",
)


@pytest.mark.parametrize(
    ("style", "expected"),
    [
        ("apa", "Vaswani, A., & Shazeer, N. (2017). Attention is all you need. NeurIPS."),
        ("ieee", "[1] A. Vaswani and N. Shazeer, “Attention is all you need”, in NeurIPS, 2017."),
        ("chicago", "Vaswani, A., and N. Shazeer. 2017. “Attention Is All You Need”. NeurIPS."),
    ],
)
def test_a_citation_reads_as_the_style_writes_it(style: str, expected: str) -> None:
    assert bibliography([TRANSFORMER], style) == [expected]


def test_acm_names_the_authors_in_full() -> None:
    (entry,) = bibliography([TRANSFORMER], "acm")
    assert entry.startswith("[1] Ashish Vaswani and Noam Shazeer. 2017. Attention is all you need.")


def test_a_bibliography_in_markdown_and_html() -> None:
    expected = "- Vaswani, A., & Shazeer, N. (2017). Attention is all you need. *NeurIPS*.\n"
    assert write_bibliography([TRANSFORMER], "apa", "markdown") == expected
    page = write_bibliography([TRANSFORMER], "apa", "html")
    entry = "Vaswani, A., &amp; Shazeer, N. (2017). Attention is all you need. <i>NeurIPS</i>."
    assert f"<li>{entry}</li>" in page


def test_an_unknown_style_names_the_choices() -> None:
    with pytest.raises(InvalidValueError, match="choose one of: apa, ieee, acm, chicago"):
        bibliography([TRANSFORMER], "mla")
