"""Weak keys (title, abstract) give way to contrary evidence; identifiers never do."""

from __future__ import annotations

from paperdesk.core.models import Identifiers, PaperRecord
from paperdesk.services.matching import Matcher, record_keys

ABSTRACT = "We study a problem at length and with care, and we report what we found. " * 3


def matcher_with(*records: PaperRecord) -> Matcher:
    matcher = Matcher()
    for paper_id, record in enumerate(records, start=1):
        matcher.add(paper_id, record_keys(record))
    return matcher


def test_same_title_at_two_known_venues_is_two_papers() -> None:
    iclr = PaperRecord(title="Deep Sets", abstract=ABSTRACT, venue="ICLR", year=2018)
    icml = PaperRecord(title="Deep Sets", abstract="Another text entirely.", venue="ICML")
    matcher = matcher_with(iclr)
    assert matcher.find(record_keys(icml)) is None
    matcher.add(2, record_keys(icml))
    assert matcher.find(record_keys(icml)) == (2, "title")


def test_an_unknown_venue_spelling_is_no_evidence() -> None:
    seed = PaperRecord(title="Derived", title_is_derived=True, abstract=ABSTRACT, venue="ICML")
    pmlr = PaperRecord(
        title="The Real Title",
        abstract=ABSTRACT,
        venue="Proceedings of the 42nd International Conference on Machine Learning",
    )
    assert matcher_with(seed).find(record_keys(pmlr)) == (1, "fingerprint")


def test_one_abstract_under_two_real_titles_is_two_papers() -> None:
    first = PaperRecord(title="First Paper", abstract=ABSTRACT)
    second = PaperRecord(title="Second Paper", abstract=ABSTRACT)
    assert matcher_with(first).find(record_keys(second)) is None


def test_identifiers_win_over_contradictions() -> None:
    first = PaperRecord(title="A", venue="ICLR", ids=Identifiers(doi="10.1/x"))
    second = PaperRecord(title="B", venue="ICML", ids=Identifiers(doi="10.1/X"))
    assert matcher_with(first).find(record_keys(second)) == (1, "doi")
