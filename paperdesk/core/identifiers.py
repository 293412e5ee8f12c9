"""Recognising DOIs, arXiv ids and OpenReview ids wherever a file puts them.

Every reader funnels its id-like fields through `identifiers_from`, so the same paper
read from BibTeX (`doi = {https://doi.org/10.X/Y}`), RIS (`DO  - 10.X/Y`) or a CSV
column ends up with the same normalised ids: that is what duplicate matching keys on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote

from paperdesk.core.models import Identifiers

# A DOI is "10.<registrant>/<suffix>"; the suffix may hold almost anything but blanks.
_DOI = re.compile(r"\b(10\.\d{4,9}/\S+)", re.IGNORECASE)
_DOI_URL = re.compile(r"(?:https?://)?(?:dx\.)?doi\.org/(10\.\d{4,9}/\S+)", re.IGNORECASE)
# Trailing punctuation that surrounds a DOI in prose or markup but never ends one.
_DOI_TRAILING = ".,;:)]}>\"'"

_ARXIV_NEW = r"\d{4}\.\d{4,5}"
_ARXIV_OLD = r"[a-z][a-z.\-]*/\d{7}"
_ARXIV_ID = re.compile(rf"^(?:arxiv:\s*)?({_ARXIV_NEW}|{_ARXIV_OLD})(?:v\d+)?$", re.IGNORECASE)
_ARXIV_MENTION = re.compile(
    rf"(?:arxiv\.org/(?:abs|pdf)/|arxiv:\s*|10\.48550/arxiv\.)({_ARXIV_NEW}|{_ARXIV_OLD})",
    re.IGNORECASE,
)

_OPENREVIEW_URL = re.compile(r"openreview\.net/(?:forum|pdf|attachment)\?(?:.*&)?id=([\w\-]+)")
_OPENREVIEW_ID = re.compile(r"^[\w\-]{5,}$")

_LATEX_URL = re.compile(r"^\\url\{(.*)\}$")


def normalise_doi(value: str) -> str | None:
    """`https://doi.org/10.1000/ABC`, `doi:10.1000/abc`, `10.1000/abc` -> `10.1000/abc`."""
    text = unquote(value.strip())
    match = _DOI_URL.search(text) or _DOI.search(text)
    if match is None:
        return None
    return match.group(1).rstrip(_DOI_TRAILING).lower()


def normalise_arxiv(value: str) -> str | None:
    """`arXiv:2401.01234v2`, `2401.01234`, an arxiv.org URL -> `2401.01234` (no version)."""
    text = value.strip()
    match = _ARXIV_ID.match(text) or _ARXIV_MENTION.search(text)
    return match.group(1).lower() if match else None


def normalise_openreview(value: str) -> str | None:
    """An OpenReview id as given, or taken from a `openreview.net/forum?id=...` URL."""
    text = value.strip()
    match = _OPENREVIEW_URL.search(text)
    if match:
        return match.group(1)
    return text if _OPENREVIEW_ID.match(text) else None


def normalise_url(value: str) -> str | None:
    """A URL without surrounding blanks or a LaTeX `\\url{}` wrapper; None when empty."""
    text = value.strip()
    wrapped = _LATEX_URL.match(text)
    if wrapped:
        text = wrapped.group(1).strip()
    return text or None


def identifiers_from(
    *,
    doi: str | None = None,
    arxiv: str | None = None,
    openreview: str | None = None,
    url: str | None = None,
    mentions: Iterable[str] = (),
) -> Identifiers:
    """Normalised ids from the fields that name them, then from URLs and free text.

    Explicit fields win; `url` and `mentions` (other URLs, `journal = {arXiv preprint
    arXiv:1706.03762}`, notes) only fill ids that are still missing. A DOI is not
    guessed from free text, where it may be a cited work's; only from doi.org links.
    """
    found_doi = normalise_doi(doi) if doi else None
    found_arxiv = normalise_arxiv(arxiv) if arxiv else None
    found_openreview = normalise_openreview(openreview) if openreview else None
    clean_url = normalise_url(url) if url else None

    for text in ([clean_url] if clean_url else []) + [m for m in mentions if m]:
        if found_doi is None and (doi_link := _DOI_URL.search(text)):
            found_doi = normalise_doi(doi_link.group(0))
        if found_arxiv is None and (arxiv_mention := _ARXIV_MENTION.search(text)):
            found_arxiv = arxiv_mention.group(1).lower()
        if found_openreview is None and (forum := _OPENREVIEW_URL.search(text)):
            found_openreview = forum.group(1)

    if found_arxiv is None and found_doi and (doi_arxiv := _ARXIV_MENTION.search(found_doi)):
        found_arxiv = doi_arxiv.group(1)
    return Identifiers(doi=found_doi, arxiv=found_arxiv, openreview=found_openreview, url=clean_url)
