"""Test data builders shared by the format tests: one place to say what a plain paper is."""

from __future__ import annotations

from datetime import datetime

from paperdesk.core.models import Identifiers, Paper, PaperRecord, Status

NOW = datetime(2025, 7, 1, 12, 30)


def make_paper(**fields: object) -> Paper:
    """A stored paper with plain defaults; keyword arguments override any field."""
    defaults: dict[str, object] = dict(
        id=1,
        title="Learning Sparse Graphs",
        title_is_derived=False,
        authors=("Yi Sun",),
        venue="ICML",
        year=2025,
        abstract="",
        ids=Identifiers(),
        status=Status.NEW,
        rating=0,
        added=NOW,
        updated=NOW,
        fingerprint="0" * 40,
    )
    return Paper(**(defaults | fields))  # type: ignore[arg-type]


def as_papers(records: list[PaperRecord]) -> list[Paper]:
    """Imported records as a library stores them (ids from 1), without user data."""
    return [
        make_paper(
            id=number,
            title=r.title,
            title_is_derived=r.title_is_derived,
            authors=r.authors,
            venue=r.venue,
            year=r.year,
            abstract=r.abstract,
            ids=r.ids,
            entry_type=r.entry_type,
            raw_fields=r.raw_fields,
            citation_key=r.citation_key,
        )
        for number, r in enumerate(records, start=1)
    ]
