"""Contrary evidence: what keeps two records with one title apart (a table of real cases)."""

from __future__ import annotations

import pytest

from paperdesk.core.evidence import PREPRINT_GAP, contradictions, evidence_of


def ev(
    year: int | None = None,
    authors: tuple[str, ...] = (),
    venue: str | None = None,
    entry_type: str | None = None,
    **raw: str,
):
    return evidence_of(year, authors, venue, entry_type, tuple(raw.items()))


@pytest.mark.parametrize(
    ("first", "second", "reasons"),
    [
        # A journal's regular column, one per issue: different years, pages, issues.
        (ev(1990, (), "TUGboat", "article"), ev(1991, (), "TUGboat", "article"), ()),
        (
            ev(1990, (), "TUGboat", "article", volume="11", number="1", pages="5--6"),
            ev(1990, (), "TUGboat", "article", volume="11", number="2", pages="120--121"),
            ("issues 1 and 2", "pages 5 and 120"),
        ),
        (ev(1990, ("Barbara Beeton",)), ev(1992, ("Barbara Beeton",)), ("years 1990 and 1992",)),
        (ev(authors=("Barbara Beeton",)), ev(authors=("Beeton, Barbara",)), ()),
        (
            ev(authors=("Barbara Beeton",)),
            ev(authors=("Donald E. Knuth",)),
            ("no author in common",),
        ),
        (ev(entry_type="techreport"), ev(entry_type="article"), ("a report and an article",)),
        (ev(entry_type="inproceedings"), ev(entry_type="CONF"), ()),  # BibTeX and RIS agree
        (ev(entry_type="misc"), ev(entry_type="article"), ()),  # misc says nothing
        (ev(venue="ICLR"), ev(venue="ICML 2019"), ("venues 'ICLR' and 'ICML'",)),
        (ev(venue="NeurIPS"), ev(venue="Advances in Neural Information Processing Systems"), ()),
        (ev(venue="ICML"), ev(venue="Proceedings of the 42nd ICML conference"), ()),
        (ev(venue="arXiv preprint arXiv:1703.06114"), ev(venue="Journal of Obscure Results"), ()),
        (ev(venue="Adv. in Obscure Systems 31"), ev(venue="Adv. in Obscure Systems"), ()),
        (
            ev(venue="Journal of Obscure Results"),
            ev(venue="Letters on Other Things"),
            ("venues 'journal obscure of results' and 'letters on other things'",),
        ),
    ],
)
def test_contradictions(first, second, reasons) -> None:
    assert contradictions(first, second) == reasons


def test_the_preprint_gap_is_one_year_either_way() -> None:
    assert PREPRINT_GAP == 1
    assert contradictions(ev(2017), ev(2018)) == contradictions(ev(2018), ev(2017)) == ()
    assert contradictions(ev(2001), ev(2004)) == ("years 2001 and 2004",)
