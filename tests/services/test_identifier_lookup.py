"""Adding papers by identifier against a local HTTP server serving recorded answers of
doi.org, the arXiv API and the OpenReview API (issue 24, item 2): never the network."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from paperdesk.core.links import pdf_url
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import history
from paperdesk.services.use_cases.identifier_lookup import (
    Sources,
    add_records,
    fetch_records,
    split_identifiers,
)

RECORDED = Path(__file__).parent / "fixtures" / "lookup"
CSL_JSON = "application/vnd.citationstyles.csl+json"


def recorded(name: str) -> str:
    return (RECORDED / name).read_text(encoding="utf-8")


@pytest.fixture
def sources(httpserver: HTTPServer) -> Sources:
    httpserver.expect_request(
        "/doi/10.1162/neco.1997.9.8.1735", headers={"Accept": CSL_JSON}
    ).respond_with_data(recorded("doi-10.1162-neco.1997.9.8.1735.json"), content_type=CSL_JSON)
    httpserver.expect_request(
        "/arxiv", query_string={"id_list": "1706.03762", "max_results": "1"}
    ).respond_with_data(recorded("arxiv-1706.03762.xml"), content_type="application/atom+xml")
    httpserver.expect_request(
        "/arxiv", query_string={"id_list": "2999.99999", "max_results": "1"}
    ).respond_with_data(recorded("arxiv-unknown.xml"), content_type="application/atom+xml")
    httpserver.expect_request(
        "/openreview/notes", query_string={"id": "rJXMpikCZ"}
    ).respond_with_data(recorded("openreview-rJXMpikCZ.json"), content_type="application/json")
    httpserver.expect_request("/v202/gao23h.html").respond_with_data(
        recorded("pmlr-page.html"), content_type="text/html; charset=utf-8"
    )
    httpserver.expect_request("/doi/10.9999/nothing.here").respond_with_data(
        "DOI Not Found", status=404
    )
    return Sources(
        doi=httpserver.url_for("/doi"),
        arxiv=httpserver.url_for("/arxiv"),
        openreview=httpserver.url_for("/openreview"),
        timeout=5,
    )


def test_papers_are_added_by_doi_arxiv_and_openreview_id(
    empty_desk: Desk, sources: Sources
) -> None:
    pasted = "https://doi.org/10.1162/neco.1997.9.8.1735\narXiv:1706.03762v7, rJXMpikCZ"
    fetched = fetch_records(split_identifiers(pasted), sources)
    assert fetched.failures == []
    report, changes = add_records(empty_desk, fetched.records)
    assert report.added == 3
    papers = {p.title: p for p in empty_desk._library.papers.get_many(sorted(changes.paper_ids))}
    lstm = papers["Long Short-Term Memory"]
    assert lstm.authors == ("Sepp Hochreiter", "Jürgen Schmidhuber")
    assert (lstm.venue, lstm.year, lstm.ids.doi) == (
        "Neural Computation",
        1997,
        "10.1162/neco.1997.9.8.1735",
    )
    assert lstm.abstract.startswith("Learning to store information")
    transformer = papers["Attention Is All You Need"]
    assert transformer.ids.arxiv == "1706.03762" and transformer.year == 2017
    assert transformer.authors[0] == "Ashish Vaswani"
    assert pdf_url(transformer.ids) == "https://arxiv.org/pdf/1706.03762"
    gat = papers["Graph Attention Networks"]
    assert (gat.venue, gat.year, gat.authors[0]) == ("ICLR 2018 Poster", 2018, "Petar Veličković")
    assert pdf_url(gat.ids) == "https://openreview.net/pdf?id=rJXMpikCZ"
    history.undo(empty_desk)  # one undo step takes the whole addition back
    assert empty_desk._library.papers.count() == 0


def test_a_paper_added_again_is_merged_not_doubled(empty_desk: Desk, sources: Sources) -> None:
    add_records(empty_desk, fetch_records(["1706.03762"], sources).records)
    report, _ = add_records(
        empty_desk, fetch_records(["arxiv.org/abs/1706.03762"], sources).records
    )
    assert report.added == 0 and empty_desk._library.papers.count() == 1


def test_a_paper_page_gives_its_metadata_and_its_pdf(
    empty_desk: Desk, sources: Sources, httpserver: HTTPServer
) -> None:
    fetched = fetch_records([httpserver.url_for("/v202/gao23h.html")], sources)
    (record,) = fetched.records
    assert record.authors == ("Leo Gao", "John Schulman", "Jacob Hilton")
    assert (record.year, record.venue) == (2023, "International Conference on Machine Learning")
    assert dict(record.raw_fields)["pages"] == "10835--10866"


def test_each_failure_is_one_line_naming_its_identifier(sources: Sources) -> None:
    fetched = fetch_records(["2999.99999", "10.9999/nothing.here", "not-an-id!"], sources)
    assert fetched.records == [] and not fetched.offline
    assert fetched.failures == [
        "2999.99999: no arXiv paper 2999.99999",
        "10.9999/nothing.here: no DOI 10.9999/nothing.here at doi.org",
        "not-an-id!: not a DOI, an arXiv or OpenReview id, or an http(s) address",
    ]


def test_an_unreachable_server_says_offline() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    closed = f"http://127.0.0.1:{port}"
    sources = Sources(doi=closed, arxiv=closed, openreview=closed, timeout=2)
    fetched = fetch_records(["10.1162/neco.1997.9.8.1735"], sources)
    assert fetched.offline and fetched.records == []
    (line,) = fetched.failures
    assert line.startswith("10.1162/neco.1997.9.8.1735: cannot reach doi.org")
    assert "check the network connection" in line


@pytest.mark.parametrize(
    ("url", "pdf"),
    [
        ("https://proceedings.mlr.press/v202/gao23h.html",
         "https://proceedings.mlr.press/v202/gao23h/gao23h.pdf"),
        ("https://aclanthology.org/2020.acl-main.1/", "https://aclanthology.org/2020.acl-main.1.pdf"),
        ("https://example.org/paper.pdf", "https://example.org/paper.pdf"),
        ("file:///home/me/paper.pdf", None),
        ("javascript:alert(1)//.pdf", None),
    ],
)  # fmt: skip
def test_the_pdf_address_comes_from_the_identifiers_http_only(url: str, pdf: str | None) -> None:
    from paperdesk.core.models import Identifiers

    assert pdf_url(Identifiers(url=url)) == pdf
