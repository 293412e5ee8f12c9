"""Paper metadata as the public services answer it, read into PaperRecords.

- CSL-JSON, what doi.org gives for `Accept: application/vnd.citationstyles.csl+json`
  (Crossref, DataCite and mEDRA all answer it);
- the arXiv API's Atom feed (one `<entry>` per paper);
- an OpenReview note, API 2 (`{"title": {"value": ...}}`) or API 1 (plain values);
- the `citation_*` meta tags of a paper's landing page (Google Scholar's; PMLR and the
  ACL Anthology both write them), which also name its PDF.

No network here: services/use_cases/identifier_lookup.py fetches, these only read.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from html.parser import HTMLParser
from typing import Any

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.identifiers import identifiers_from
from paperdesk.core.models import PaperRecord
from paperdesk.core.text import collapse_whitespace

_ATOM = {"atom": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom"}
_CSL_TYPES = {
    "journal-article": "article",
    "paper-conference": "inproceedings",
    "proceedings-article": "inproceedings",
    "chapter": "incollection",
    "book": "book",
    "report": "techreport",
    "thesis": "phdthesis",
}
_JATS_TAG = re.compile(r"<[^<>]+>")
_YEAR = re.compile(r"\b(\d{4})\b")


def _first(value: Any) -> str:
    """CSL puts some strings in lists (`"container-title": ["NeurIPS"]`)."""
    if isinstance(value, list):
        value = value[0] if value else ""
    return collapse_whitespace(str(value or ""))


def _record(title: str, source: str, **values: Any) -> PaperRecord:
    if not title:
        raise InvalidValueError(f"{source} gave no title")
    return PaperRecord(title=title, **values)


def from_csl_json(text: str) -> PaperRecord:
    item = json.loads(text)
    if isinstance(item, list):
        item = item[0]
    names = []
    for person in item.get("author", []):
        name = " ".join(p for p in (person.get("given"), person.get("family")) if p)
        names.append(collapse_whitespace(name or person.get("literal", "")))
    parts = (item.get("issued") or item.get("published") or {}).get("date-parts") or [[None]]
    year = parts[0][0] if parts and parts[0] else None
    raw = (("pages", str(item["page"])),) if item.get("page") else ()
    return _record(
        _first(item.get("title")),
        "doi.org",
        abstract=collapse_whitespace(_JATS_TAG.sub(" ", item.get("abstract", ""))),
        authors=tuple(n for n in names if n),
        venue=_first(item.get("container-title")) or None,
        year=int(year) if year else None,
        ids=identifiers_from(doi=item.get("DOI"), url=item.get("URL")),
        entry_type=_CSL_TYPES.get(item.get("type", ""), "misc"),
        raw_fields=raw,
    )


def from_arxiv_atom(text: str) -> PaperRecord | None:
    """The feed's first paper; None when it has none (an unknown id)."""
    entry = ET.fromstring(text).find("atom:entry", _ATOM)
    if entry is None or entry.find("atom:id", _ATOM) is None:
        return None

    def field(name: str) -> str:
        return collapse_whitespace(entry.findtext(name, "", _ATOM))

    if field("atom:title") == "Error":  # the API's way of refusing an id
        return None
    published = field("atom:published")
    authors = tuple(collapse_whitespace(a.findtext("atom:name", "", _ATOM))
                    for a in entry.findall("atom:author", _ATOM))  # fmt: skip
    return _record(
        field("atom:title"),
        "arXiv",
        abstract=field("atom:summary"),
        authors=authors,
        venue=field("arxiv:journal_ref") or "arXiv",
        year=int(published[:4]) if published[:4].isdigit() else None,
        ids=identifiers_from(doi=field("arxiv:doi") or None, arxiv=field("atom:id")),
        entry_type="misc",
    )


def from_openreview_note(text: str) -> PaperRecord | None:
    """The answer's first note; None when it has none."""
    notes = json.loads(text).get("notes") or []
    if not notes:
        return None
    note = notes[0]
    content = note.get("content", {})

    def value(name: str) -> Any:
        held = content.get(name)
        return held.get("value") if isinstance(held, dict) else held

    stamp = note.get("pdate") or note.get("cdate")
    venue = value("venue") or None
    year_in_venue = _YEAR.search(venue or "")
    year = (
        int(year_in_venue.group(1))
        if year_in_venue
        else datetime.fromtimestamp(stamp / 1000, UTC).year
        if stamp
        else None
    )
    return _record(
        collapse_whitespace(value("title") or ""),
        "OpenReview",
        abstract=collapse_whitespace(value("abstract") or ""),
        authors=tuple(value("authors") or ()),
        venue=venue,
        year=year,
        ids=identifiers_from(openreview=note.get("forum") or note.get("id")),
        entry_type="inproceedings",
    )


class _MetaTags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "meta":
            found = dict(attrs)
            name, content = found.get("name") or "", found.get("content")
            if name.startswith("citation_") and content is not None:
                self.tags.append((name, collapse_whitespace(content)))


def citation_meta_tags(html_text: str) -> list[tuple[str, str]]:
    parser = _MetaTags()
    parser.feed(html_text)
    return parser.tags


def from_landing_page(html_text: str, url: str) -> PaperRecord | None:
    """A paper page's `citation_*` meta tags; None when it has no `citation_title`."""
    tags = citation_meta_tags(html_text)
    one = dict(reversed(tags))  # the first of each name
    if not one.get("citation_title"):
        return None
    date = one.get("citation_publication_date") or one.get("citation_date", "")
    year = _YEAR.search(date)
    first, last = one.get("citation_firstpage"), one.get("citation_lastpage")
    pages = f"{first}--{last}" if first and last else first
    venue = one.get("citation_conference_title") or one.get("citation_journal_title")
    authors = tuple(_person(value) for name, value in tags if name == "citation_author")
    return PaperRecord(
        title=one["citation_title"],
        abstract=one.get("citation_abstract", ""),
        authors=authors,
        venue=venue,
        year=int(year.group(1)) if year else None,
        ids=identifiers_from(
            doi=one.get("citation_doi"), arxiv=one.get("citation_arxiv_id"), url=url
        ),
        entry_type="inproceedings" if one.get("citation_conference_title") else None,
        raw_fields=(("pages", pages),) if pages else (),
    )


def _person(name: str) -> str:
    """`Vaswani, Ashish` (PMLR writes names so) -> `Ashish Vaswani`."""
    last, comma, first = name.partition(",")
    return collapse_whitespace(f"{first} {last}") if comma else name
