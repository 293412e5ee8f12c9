"""Formatted citations in CSL styles (issue 24, item 3), as a reader expects them."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

import pytest

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import Identifiers, Paper, Status
from paperdesk.formats.bibtex_reader import read_bibtex
from paperdesk.formats.citations import STYLES, bibliography, write_bibliography

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


def _missing(**changes: object) -> Paper:
    return replace(TRANSFORMER, **changes)  # type: ignore[arg-type]


# Papers as libraries hold them: fields missing, marks of their own at the ends.
INCOMPLETE = {
    "complete": TRANSFORMER,
    "no year": _missing(year=None),
    "no venue": _missing(venue=None),
    "no authors": _missing(authors=()),
    "no entry type": _missing(entry_type=None),
    "only a title": _missing(authors=(), venue=None, year=None, entry_type=None),
    "a question": _missing(title="Is attention all you need?"),
    "venue ending in a period": _missing(venue="Proc. of NeurIPS."),
    "a DOI": _missing(ids=Identifiers(doi="10.5555/3295222")),
}
_BAD_PUNCTUATION = re.compile(r"[.,;:?!]\s*\.|,\s*,|\(\s*\)|\[\s*\]|[,;:]\s*$|\s$")


@pytest.mark.parametrize("output", ["text", "html", "markdown"])
@pytest.mark.parametrize("style", list(STYLES))
def test_no_style_doubles_or_leaves_dangling_punctuation_for_missing_fields(
    style: str, output: str
) -> None:
    for name, paper in INCOMPLETE.items():
        (entry,) = bibliography([paper], style, output)
        shown = re.sub(r"<[^<>]+>|[*”’]", "", entry)
        assert not _BAD_PUNCTUATION.search(shown), f"{name}: {entry}"


def test_acm_ends_a_proceedings_paper_once() -> None:
    (entry,) = bibliography([TRANSFORMER], "acm")
    assert entry.endswith("Attention is all you need. In NeurIPS, 2017.")


def test_an_ieee_xplore_title_is_cited_without_its_tex_tags() -> None:
    bib = (
        "@InProceedings{Gandola2019, author = {Gandola, M.}, booktitle = {ICECS}, year = 2019,\n"
        "  title = {Mixed-Signal ASICs for X- and <tex>$\\gamma$</tex>-Ray Spectroscopy}}\n"
    )
    (record,) = read_bibtex(bib, "ieee.bib").records
    paper = _missing(title=record.title, authors=record.authors)
    for style in STYLES:
        (entry,) = bibliography([paper], style)
        assert "γ-Ray Spectroscopy" in entry.replace("γ-ray spectroscopy", "γ-Ray Spectroscopy")
        assert "tex" not in entry.lower()


def test_a_title_stored_with_markup_is_cited_as_it_reads() -> None:
    paper = _missing(title=r"Faster $O(n^2)$ attention for \emph{BERT} and <tex>$\gamma$</tex>")
    (entry,) = bibliography([paper], "ieee")
    assert "“Faster O(n²) attention for BERT and γ”" in entry
