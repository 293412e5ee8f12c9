"""The ids duplicate matching keys on: every spelling of one id normalises the same."""

from __future__ import annotations

import pytest

from paperdesk.core.identifiers import (
    identifiers_from,
    normalise_arxiv,
    normalise_doi,
    normalise_openreview,
    normalise_url,
)
from paperdesk.core.models import Identifiers


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("10.1023/A:1017379030770", "10.1023/a:1017379030770"),
        ("https://doi.org/10.1145/3292500.3330701", "10.1145/3292500.3330701"),
        ("http://dx.doi.org/10.1023/A:1017379030770", "10.1023/a:1017379030770"),
        ("doi:10.1000/XYZ123", "10.1000/xyz123"),
        ("  DOI: 10.1000/xyz123. ", "10.1000/xyz123"),
        ("https://doi.org/10.1000%2Fabc", "10.1000/abc"),
        ("not a doi", None),
        ("", None),
    ],
)
def test_normalise_doi(given: str, expected: str | None) -> None:
    assert normalise_doi(given) == expected


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("2401.01234", "2401.01234"),
        ("2401.01234v2", "2401.01234"),
        ("arXiv:1706.03762v5", "1706.03762"),
        ("https://arxiv.org/abs/2401.01234v2", "2401.01234"),
        ("http://arxiv.org/pdf/1412.6980v9.pdf", "1412.6980"),
        ("hep-th/9901001", "hep-th/9901001"),
        ("math.GT/0309136v1", "math.gt/0309136"),
        ("arXiv preprint arXiv:1810.04805", "1810.04805"),
        ("12345", None),
    ],
)
def test_normalise_arxiv(given: str, expected: str | None) -> None:
    assert normalise_arxiv(given) == expected


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("B12Js_yRb", "B12Js_yRb"),
        ("https://openreview.net/forum?id=0FvarE8SMs", "0FvarE8SMs"),
        ("https://openreview.net/pdf?id=rJXMpikCZ", "rJXMpikCZ"),
        ("https://openreview.net/forum?noteId=x&id=Hk-abc_12", "Hk-abc_12"),
        ("see the forum", None),
    ],
)
def test_normalise_openreview(given: str, expected: str | None) -> None:
    assert normalise_openreview(given) == expected


def test_normalise_url_unwraps_latex_url_and_drops_blanks() -> None:
    assert normalise_url(r" \url{https://example.org/a_b} ") == "https://example.org/a_b"
    assert normalise_url("   ") is None


def test_explicit_fields_win_over_mentions() -> None:
    ids = identifiers_from(
        arxiv="2401.00001",
        url="https://arxiv.org/abs/2401.99999",
        mentions=["arXiv:2301.00002"],
    )
    assert ids.arxiv == "2401.00001"
    assert ids.url == "https://arxiv.org/abs/2401.99999"


def test_ids_are_mined_from_url_and_mentions() -> None:
    ids = identifiers_from(
        url="https://openreview.net/forum?id=0FvarE8SMs",
        mentions=["arXiv preprint arXiv:1706.03762", "https://doi.org/10.5555/ABC"],
    )
    assert ids == Identifiers(
        doi="10.5555/abc",
        arxiv="1706.03762",
        openreview="0FvarE8SMs",
        url="https://openreview.net/forum?id=0FvarE8SMs",
    )


def test_arxiv_doi_gives_the_arxiv_id() -> None:
    ids = identifiers_from(doi="https://doi.org/10.48550/arXiv.2401.01234")
    assert ids.doi == "10.48550/arxiv.2401.01234"
    assert ids.arxiv == "2401.01234"


def test_a_bare_doi_in_free_text_is_not_taken_as_the_papers_own() -> None:
    assert identifiers_from(mentions=["extends 10.1000/other-paper"]).doi is None
