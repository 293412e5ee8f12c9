"""Recognising a record as a paper the library already has.

Exact keys in order of trust: DOI, arXiv id, OpenReview id, normalised real title,
content fingerprint (the abstract). Keys live in dictionaries built once per import,
so matching 100,000 records is a dictionary lookup each, never a scan.

The weak keys (title, abstract) are vetoed by contrary evidence: two known venues that
differ (an ICLR entry and an ICML entry sharing a title are two records), or, for an
abstract, two different real titles (scrapers sometimes copy one abstract onto another
paper). Identifiers are never vetoed: a DOI names one work.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from paperdesk.core.models import PaperRecord
from paperdesk.core.text import fingerprint, normalise_for_matching
from paperdesk.core.venues import find_venue
from paperdesk.store.papers import MatchKeys

KEY_KINDS = ("doi", "arxiv", "openreview", "title", "fingerprint")
WEAK_KINDS = ("title", "fingerprint")


def known_venue(venue: str | None) -> str:
    """The short name of a venue paperdesk knows ("ICML"), else "" (no evidence)."""
    found = find_venue(venue) if venue else None
    return found.short_name if found else ""


def record_keys(record: PaperRecord) -> dict[str, str]:
    keys = {
        "doi": (record.ids.doi or "").lower(),
        "arxiv": record.ids.arxiv or "",
        "openreview": record.ids.openreview or "",
        "title": "" if record.title_is_derived else normalise_for_matching(record.title),
        "fingerprint": fingerprint(record.title, record.abstract),
        "venue": known_venue(record.venue),
    }
    return {kind: value for kind, value in keys.items() if value}


class Matcher:
    """Maps each key kind to the paper ids that hold it (oldest first).

    Several papers may share a weak key (one title at two venues), so each value keeps
    a list and `find` takes the first paper the record does not contradict.
    """

    def __init__(self) -> None:
        self._by_kind: dict[str, dict[str, list[int]]] = {kind: {} for kind in KEY_KINDS}
        self._venues: dict[int, str] = {}
        self._titles: dict[int, str] = {}

    @classmethod
    def from_library_keys(
        cls,
        rows: Iterable[MatchKeys],
        venues: Mapping[int, str | None],
    ) -> Matcher:
        """A matcher over the library's papers (`venues`: paper id -> stored venue)."""
        matcher = cls()
        for paper_id, fp, doi, arxiv, openreview, title_key in rows:
            matcher.add(
                paper_id,
                {
                    "fingerprint": fp,
                    "doi": (doi or "").lower(),
                    "arxiv": arxiv or "",
                    "openreview": openreview or "",
                    "title": title_key or "",
                    "venue": known_venue(venues.get(paper_id)),
                },
            )
        return matcher

    def add(self, paper_id: int, keys: dict[str, str]) -> None:
        if keys.get("venue"):
            self._venues[paper_id] = keys["venue"]
        if keys.get("title"):
            self._titles[paper_id] = keys["title"]
        for kind in KEY_KINDS:
            value = keys.get(kind)
            if value:
                holders = self._by_kind[kind].setdefault(value, [])
                if paper_id not in holders:
                    holders.append(paper_id)

    def find(self, keys: dict[str, str]) -> tuple[int, str] | None:
        """The matching paper id and the kind of key that matched, most trusted first."""
        for kind in KEY_KINDS:
            value = keys.get(kind)
            for paper_id in self._by_kind[kind].get(value, ()) if value else ():
                if kind not in WEAK_KINDS or self.compatible(paper_id, keys):
                    return paper_id, kind
        return None

    def compatible(self, paper_id: int, keys: dict[str, str]) -> bool:
        """False when the record and the paper contradict each other (see module doc)."""
        theirs, ours = self._venues.get(paper_id), keys.get("venue")
        if theirs and ours and theirs != ours:
            return False
        their_title, our_title = self._titles.get(paper_id), keys.get("title")
        return not (their_title and our_title and their_title != our_title)
