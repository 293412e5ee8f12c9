"""What a user types into one field of a paper, read and checked; and the stored value
written back as the user edits it.

Each `parse_*` returns the value the store keeps (None: the field is emptied) or raises
InvalidValueError naming the field, so the detail pane and `paperdesk edit` refuse the
same input with the same words.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from paperdesk.core.citekeys import is_valid_key
from paperdesk.core.errors import InvalidValueError
from paperdesk.core.identifiers import normalise_arxiv, normalise_doi, normalise_openreview
from paperdesk.core.text import collapse_whitespace

_YEAR = re.compile(r"-?\d{1,4}")
_ENTRY_TYPE = re.compile(r"[a-z]+")
# `12-34`, `12–34` and `12 -- 34` are one range; BibTeX writes it `12--34`.
_PAGE_RANGE = re.compile(r"^(\w+)\s*(?:-{1,2}|–|—)\s*(\w+)$")


def parse_authors(text: str) -> tuple[str, ...]:
    """`Last, First; Last, First` or one name per line -> ("First Last", ...).

    A name with one comma is `Last, First`; without one it is taken as written.
    """
    names = []
    for chunk in re.split(r"[;\n]", text):
        last, comma, first = chunk.partition(",")
        name = f"{first} {last}" if comma and first.strip() else chunk.replace(",", " ")
        if cleaned := collapse_whitespace(name):
            names.append(cleaned)
    return tuple(names)


def format_authors(authors: tuple[str, ...]) -> str:
    return "; ".join(authors)


def parse_optional_text(text: str) -> str | None:
    return collapse_whitespace(text) or None


def parse_year(text: str) -> int | None:
    cleaned = text.strip()
    if not cleaned:
        return None
    if not _YEAR.fullmatch(cleaned) or int(cleaned) == 0:
        raise InvalidValueError(f"year must be a year such as 2024, not {text!r}")
    return int(cleaned)


def parse_entry_type(text: str) -> str | None:
    cleaned = text.strip().lower().removeprefix("@")
    if not cleaned:
        return None
    if not _ENTRY_TYPE.fullmatch(cleaned):
        raise InvalidValueError(
            f"entry type must be one word such as article or inproceedings, not {text!r}"
        )
    return cleaned


def parse_doi(text: str) -> str | None:
    if not text.strip():
        return None
    doi = normalise_doi(text)
    if doi is None:
        raise InvalidValueError(f"DOI must look like 10.1234/abc or a doi.org link, not {text!r}")
    return doi


def parse_arxiv(text: str) -> str | None:
    if not text.strip():
        return None
    arxiv = normalise_arxiv(text)
    if arxiv is None:
        raise InvalidValueError(
            f"arXiv id must look like 1706.03762 or an arxiv.org link, not {text!r}"
        )
    return arxiv


def parse_openreview(text: str) -> str | None:
    if not text.strip():
        return None
    forum = normalise_openreview(text)
    if forum is None:
        raise InvalidValueError(
            f"OpenReview id must look like rJXMpikCZ or an openreview.net link, not {text!r}"
        )
    return forum


def parse_url(text: str) -> str | None:
    cleaned = text.strip()
    if not cleaned:
        return None
    parts = urlsplit(cleaned)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc or " " in cleaned:
        raise InvalidValueError(f"URL must be an http(s) address, not {text!r}")
    return cleaned


def parse_pages(text: str) -> str | None:
    cleaned = collapse_whitespace(text)
    if not cleaned:
        return None
    if "{" in cleaned or "}" in cleaned:
        raise InvalidValueError(f"pages must be a page or a range such as 12--34, not {text!r}")
    if page_range := _PAGE_RANGE.match(cleaned):
        return f"{page_range.group(1)}--{page_range.group(2)}"
    return cleaned


def parse_citation_key(text: str) -> str | None:
    cleaned = text.strip()
    if not cleaned:
        return None
    if not is_valid_key(cleaned):
        raise InvalidValueError(
            f"citation key {text!r} may hold only letters, digits and _ - : . + /"
        )
    return cleaned
