"""Venue names as people write them, to the venue a bibliography prints."""

from __future__ import annotations

import pytest

from paperdesk.core.venues import find_venue


@pytest.mark.parametrize(
    ("written", "short_name", "entry_type"),
    [
        ("ICML", "ICML", "inproceedings"),
        ("icml 2025", "ICML", "inproceedings"),
        ("ICML-2025", "ICML", "inproceedings"),
        ("NeurIPS 2023", "NeurIPS", "inproceedings"),
        ("NIPS", "NeurIPS", "inproceedings"),
        ("ICLR'24", "ICLR", "inproceedings"),
        ("SIGKDD", "KDD", "inproceedings"),
        ("JMLR", "JMLR", "article"),
        ("PAMI", "TPAMI", "article"),
        ("Tmlr", "TMLR", "article"),
    ],
)
def test_known_venues_are_found_in_any_spelling(
    written: str, short_name: str, entry_type: str
) -> None:
    venue = find_venue(written)

    assert venue is not None
    assert venue.short_name == short_name
    assert venue.entry_type == entry_type


def test_a_venue_prints_its_full_name_without_an_edition() -> None:
    venue = find_venue("NeurIPS")

    assert venue is not None
    assert venue.full_name == "Advances in Neural Information Processing Systems"


@pytest.mark.parametrize(
    "written",
    [None, "", "ICML Workshop on Foundation Models", "Nature", "2025", "arXiv preprint"],
)
def test_workshops_and_unknown_venues_stay_unknown(written: str | None) -> None:
    assert find_venue(written) is None
