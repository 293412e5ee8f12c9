"""Weak keys (title, abstract) give way to contrary evidence; identifiers never do."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdesk.core.models import Identifiers, PaperRecord
from paperdesk.services.use_cases.matching import Matcher, Verdict, record_keys
from paperdesk.store.library import Library

ABSTRACT = "We study a problem at length and with care, and we report what we found. " * 3


@pytest.fixture
def library(tmp_path: Path) -> Library:
    db = tmp_path / "library.sqlite3"
    opened = Library.open(f"sqlite:///{db}", db, tmp_path / "backups")
    yield opened
    opened.close()


def find(library: Library, stored: PaperRecord, incoming: PaperRecord) -> Verdict:
    """What matching says of `incoming` against a library holding only `stored`."""
    library.imports.commit("Import", [stored])
    matcher = Matcher(library, pending=lambda _id: stored)
    keys = record_keys(incoming)
    matcher.prepare([keys])
    return matcher.find(keys, incoming)


def test_same_title_at_two_known_venues_is_two_papers(library: Library) -> None:
    iclr = PaperRecord(title="Deep Sets", abstract=ABSTRACT, venue="ICLR", year=2018)
    icml = PaperRecord(title="Deep Sets", abstract="Another text entirely.", venue="ICML")
    verdict = find(library, iclr, icml)
    assert verdict.match is None
    assert verdict.kept_apart == ((1, "same title, but venues 'ICML' and 'ICLR'"),)


def test_an_unknown_venue_spelling_is_no_evidence(library: Library) -> None:
    seed = PaperRecord(title="Derived", title_is_derived=True, abstract=ABSTRACT, venue="ICML")
    pmlr = PaperRecord(
        title="The Real Title",
        abstract=ABSTRACT,
        venue="Proceedings of the 42nd International Conference on Machine Learning",
    )
    verdict = find(library, seed, pmlr)
    assert verdict.match is not None
    assert (verdict.match.target, verdict.match.evidence) == (1, "same abstract")


def test_one_abstract_under_two_real_titles_is_two_papers(library: Library) -> None:
    first = PaperRecord(title="First Paper", abstract=ABSTRACT)
    second = PaperRecord(title="Second Paper", abstract=ABSTRACT)
    verdict = find(library, first, second)
    assert verdict.match is None and "different titles" in verdict.kept_apart[0][1]


def test_identifiers_win_over_contradictions(library: Library) -> None:
    first = PaperRecord(title="A", venue="ICLR", year=2001, ids=Identifiers(doi="10.1/x"))
    second = PaperRecord(title="B", venue="ICML", year=2009, ids=Identifiers(doi="10.1/x"))
    verdict = find(library, first, second)
    assert verdict.match is not None
    assert (verdict.match.target, verdict.match.evidence) == (1, "same DOI")


def test_a_journal_version_is_not_its_technical_report(library: Library) -> None:
    report = PaperRecord(title="Fast Sorting", year=2001, entry_type="techreport")
    article = PaperRecord(title="Fast Sorting", year=2004, entry_type="article")
    verdict = find(library, report, article)
    assert verdict.match is None
    assert verdict.kept_apart[0][1] == (
        "same title, but years 2004 and 2001, an article and a report"
    )


def test_a_preprint_a_year_before_its_proceedings_is_the_same_paper(library: Library) -> None:
    preprint = PaperRecord(
        title="Deep Sets", authors=("Manzil Zaheer",), venue="arXiv preprint", year=2017
    )
    paper = PaperRecord(
        title="Deep Sets", authors=("M. Zaheer", "S. Kottur"), venue="NeurIPS", year=2018
    )
    verdict = find(library, preprint, paper)
    assert verdict.match is not None and verdict.match.evidence == "same title"
