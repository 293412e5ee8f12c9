"""Recognising a record as a paper the library already has.

Exact keys in order of trust: DOI, arXiv id, OpenReview id, normalised real title,
content fingerprint (the abstract). Keys live in dictionaries built once per import,
so matching 100,000 records is a dictionary lookup each, never a scan.
"""

from __future__ import annotations

from collections.abc import Iterable

from paperdesk.core.models import PaperRecord
from paperdesk.core.text import fingerprint, normalise_for_matching

KEY_KINDS = ("doi", "arxiv", "openreview", "title", "fingerprint")


def record_keys(record: PaperRecord) -> dict[str, str]:
    keys = {
        "doi": (record.ids.doi or "").lower(),
        "arxiv": record.ids.arxiv or "",
        "openreview": record.ids.openreview or "",
        "title": "" if record.title_is_derived else normalise_for_matching(record.title),
        "fingerprint": fingerprint(record.title, record.abstract),
    }
    return {kind: value for kind, value in keys.items() if value}


class Matcher:
    """Maps each key kind to the paper id that holds it."""

    def __init__(self) -> None:
        self._by_kind: dict[str, dict[str, int]] = {kind: {} for kind in KEY_KINDS}

    @classmethod
    def from_library_keys(
        cls, rows: Iterable[tuple[int, str, str | None, str | None, str | None, str | None]]
    ) -> Matcher:
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
                },
            )
        return matcher

    def add(self, paper_id: int, keys: dict[str, str]) -> None:
        for kind, value in keys.items():
            if value:
                self._by_kind[kind].setdefault(value, paper_id)

    def find(self, keys: dict[str, str]) -> tuple[int, str] | None:
        """The matching paper id and the kind of key that matched, most trusted first."""
        for kind in KEY_KINDS:
            value = keys.get(kind)
            if value and value in self._by_kind[kind]:
                return self._by_kind[kind][value], kind
        return None
