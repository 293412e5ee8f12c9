"""Merging an incoming record into a stored paper.

A merge fills what is missing (a real title replaces a derived one, authors, ids,
venue, year, abstract) and never touches what the user made (tags, notes, rating,
status, shortlists). Where both sides have different non-empty values, the stored value
stays and the incoming one is recorded under `alternatives` for the user to see.
"""

from __future__ import annotations

import json
from typing import Any

from paperdesk.core.models import PaperRecord
from paperdesk.core.text import collapse_whitespace, fingerprint, normalise_for_matching
from paperdesk.store.imports import raw_fields_json

_SIMPLE_FIELDS = ("venue", "year", "doi", "arxiv", "openreview", "url", "entry_type")


def _incoming_values(record: PaperRecord) -> dict[str, Any]:
    return {
        "venue": record.venue,
        "year": record.year,
        "doi": record.ids.doi,
        "arxiv": record.ids.arxiv,
        "openreview": record.ids.openreview,
        "url": record.ids.url,
        "entry_type": record.entry_type,
    }


def as_stored(record: PaperRecord) -> dict[str, Any]:
    """A record's values as a stored paper holds them, for merging another record in."""
    return {
        **_incoming_values(record),
        "title": record.title,
        "title_is_derived": record.title_is_derived,
        "authors": tuple(record.authors),
        "abstract": record.abstract,
        "raw_fields": raw_fields_json(record),
        "alternatives": "{}",
    }


def merge_updates(stored: dict[str, Any], record: PaperRecord) -> dict[str, Any]:
    """Column updates that bring `record`'s knowledge into the stored row (may be empty)."""
    updates: dict[str, Any] = {}
    alternatives: dict[str, Any] = json.loads(stored.get("alternatives") or "{}")
    conflicts_before = dict(alternatives)

    def consider(field: str, current: Any, incoming: Any, same: bool) -> None:
        if _empty(incoming):
            return
        if _empty(current):
            updates[field] = incoming
        elif not same:
            known = alternatives.setdefault(field, [])
            if incoming not in known:
                known.append(incoming)

    incoming = _incoming_values(record)
    for field in _SIMPLE_FIELDS:
        current = stored.get(field)
        value = incoming[field]
        same = str(current).lower() == str(value).lower()
        consider(field, current, value, same)

    if not record.title_is_derived and record.title:
        if stored.get("title_is_derived"):
            updates.update(
                title=record.title,
                title_is_derived=False,
                title_key=normalise_for_matching(record.title),
            )
        else:
            same = normalise_for_matching(stored["title"]) == normalise_for_matching(record.title)
            consider("title", stored["title"], record.title, same)

    if record.authors:
        # Lists, not tuples: alternatives round-trip through JSON and must compare equal.
        current_authors = list(stored.get("authors", ()))
        consider(
            "authors",
            current_authors,
            list(record.authors),
            current_authors == list(record.authors),
        )

    if record.abstract and not stored.get("abstract"):
        updates["abstract"] = record.abstract
        # The fingerprint follows the abstract so the next import of either source matches.
        updates["fingerprint"] = fingerprint(stored["title"], record.abstract)

    if record.raw_fields and stored.get("raw_fields") in (None, "", "[]"):
        abstract = updates.get("abstract", stored.get("abstract"))
        updates["raw_fields"] = raw_fields_json(record, abstract or "")

    if alternatives != conflicts_before:
        updates["alternatives"] = json.dumps(alternatives, ensure_ascii=False)
    return updates


def revision_updates(stored: dict[str, Any], record: PaperRecord) -> dict[str, Any]:
    """Updates from a newer version of the file that first brought the stored paper.

    Its abstract wins over the stored one (a typo fixed, a sentence reworded): users
    never edit abstracts, and a seed list says nothing else about a paper. A derived
    title follows its abstract. Everything else merges as usual, because a title may
    be the user's own edit and a conflicting venue may come from another source.
    """
    updates = merge_updates(stored, record)
    current = stored.get("abstract") or ""
    if record.abstract and collapse_whitespace(record.abstract) != collapse_whitespace(current):
        updates["abstract"] = record.abstract
        updates["fingerprint"] = fingerprint(stored["title"], record.abstract)
        if stored.get("title_is_derived") and record.title_is_derived:
            updates["title"] = record.title
    return updates


def _empty(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, list | tuple) and not value)
