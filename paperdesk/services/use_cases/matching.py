"""Recognising an imported record as a paper the library, or the file, already has.

Exact keys in order of trust: DOI, arXiv id, OpenReview id, normalised real title,
content fingerprint (the abstract); then, for a record they all miss, an abstract
similar enough (services/use_cases/near_duplicates.py). An identifier merges on its own. A
title, an abstract or a similar text merges only when nothing contradicts it
(core/evidence.py: years, authors, venues, entry types, volume and pages), and an
abstract match also needs the real titles, where both have one, to agree (scrapers
copy one abstract onto another paper). A weak match that something contradicts is
no match: the record becomes its own paper, and the report says why.

The library is looked up a chunk of records at a time with indexed queries, so
matching a file never loads the library's keys into memory; the file's own records
are remembered in dictionaries as they become new papers (a file may list one
paper twice).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from paperdesk.core.evidence import Evidence, contradictions, evidence_of
from paperdesk.core.models import PaperRecord
from paperdesk.core.text import fingerprint, title_key
from paperdesk.services.use_cases.near_duplicates import ImportNearDuplicates
from paperdesk.store.library import Library

KEY_KINDS = ("doi", "arxiv", "openreview", "title", "fingerprint")
IDENTIFIER_KINDS = frozenset({"doi", "arxiv", "openreview"})
KEY_REASONS = {
    "doi": "same DOI",
    "arxiv": "same arXiv id",
    "openreview": "same OpenReview id",
    "title": "same title",
    "fingerprint": "same abstract",
}

Keys = dict[str, str]
#: What matching knows of a paper or an earlier record: its evidence and real-title key.
Known = tuple[Evidence, str]


def record_keys(record: PaperRecord) -> Keys:
    keys = {
        "doi": (record.ids.doi or "").lower(),
        "arxiv": record.ids.arxiv or "",
        "openreview": record.ids.openreview or "",
        "title": title_key(record.title, record.title_is_derived),
        "fingerprint": fingerprint(record.title, record.abstract),
    }
    return {kind: value for kind, value in keys.items() if value}


def record_evidence(record: PaperRecord) -> Evidence:
    return evidence_of(
        record.year, record.authors, record.venue, record.entry_type, record.raw_fields
    )


@dataclass(frozen=True)
class Match:
    """The paper a record is (a library id, or -n for the file's n-th new paper), and why."""

    target: int
    evidence: str


@dataclass(frozen=True)
class Verdict:
    """What matching found for one record: a match, or none, and the weak matches that
    contrary evidence ruled out (each "same title as <target>, but years ...")."""

    match: Match | None
    kept_apart: tuple[tuple[int, str], ...] = ()


class Matcher:
    """Matches the records of one file, in order, against the library and each other.

    Call `prepare` with a chunk of records' keys before `find` on each of them; tell
    `add` about every record that became a new paper, with its temporary id (-1, -2...).
    """

    def __init__(
        self, library: Library, pending: Callable[[int], PaperRecord], library_empty: bool = False
    ) -> None:
        self._library = library
        # An import into an empty library (its plan's basis: a paper added meanwhile makes
        # the commit refuse the plan) has nothing to look up there.
        self._library_empty = library_empty
        self._pending = pending  # a temporary id -> the record that became that new paper
        self._library_holders: dict[tuple[str, str], list[int]] = {}
        self._file_holders: dict[tuple[str, str], list[int]] = {}
        self._known: dict[int, Known] = {}
        self._similar = ImportNearDuplicates(library.papers.match_texts)

    def prepare(self, chunk: Sequence[Keys]) -> None:
        """Look up a chunk's keys in the library at once (and what the holders say)."""
        self._library_holders.clear()
        self._known = {i: k for i, k in self._known.items() if i < 0}
        if self._library_empty:
            return
        for kind in KEY_KINDS:
            values = {keys[kind] for keys in chunk if kind in keys}
            if values:
                for value, ids in self._library.papers.holders(kind, values).items():
                    self._library_holders[(kind, value)] = ids
        weak = {
            paper_id
            for (kind, _value), ids in self._library_holders.items()
            if kind not in IDENTIFIER_KINDS
            for paper_id in ids
        }
        self._known.update(self._library.papers.evidence(weak))

    def find(self, keys: Keys, record: PaperRecord) -> Verdict:
        # Evidence is read only when a weak key or a similar text meets a paper: most
        # records of a large file meet none, and reading it was a fifth of planning.
        read: list[Evidence] = []

        def evidence() -> Evidence:
            if not read:
                read.append(record_evidence(record))
            return read[0]

        kept_apart: list[tuple[int, str]] = []
        for kind in KEY_KINDS:
            value = keys.get(kind)
            if not value:
                continue
            for target in self._holders(kind, value):
                if kind in IDENTIFIER_KINDS:
                    return Verdict(Match(target, KEY_REASONS[kind]), tuple(kept_apart))
                reasons = self._contrary(target, kind, keys, evidence)
                if not reasons:
                    return Verdict(Match(target, KEY_REASONS[kind]), tuple(kept_apart))
                if all(target != apart for apart, _ in kept_apart):
                    kept_apart.append((target, f"{KEY_REASONS[kind]}, but {', '.join(reasons)}"))
        similar = self._similar.find(record)
        if similar is not None:
            target, score = similar
            if target not in self._known:
                self._known.update(self._library.papers.evidence([target]))
            reasons = self._contrary(target, "similar", keys, evidence)
            why = f"similar text ({score:.2f})"
            if not reasons:
                return Verdict(Match(target, why), tuple(kept_apart))
            if all(target != apart for apart, _ in kept_apart):
                kept_apart.append((target, f"{why}, but {', '.join(reasons)}"))
        return Verdict(None, tuple(kept_apart))

    def add(self, temporary_id: int, keys: Keys) -> None:
        """A record became a new paper: later records of the file may match it."""
        for kind in KEY_KINDS:
            value = keys.get(kind)
            if value:
                self._file_holders.setdefault((kind, value), []).append(temporary_id)

    def _holders(self, kind: str, value: str) -> list[int]:
        return [
            *self._library_holders.get((kind, value), ()),
            *self._file_holders.get((kind, value), ()),
        ]

    def _contrary(
        self, target: int, kind: str, keys: Keys, evidence: Callable[[], Evidence]
    ) -> list[str]:
        theirs, their_title = self._known_of(target)
        reasons = list(contradictions(evidence(), theirs))
        our_title = keys.get("title", "")
        if kind != "title" and our_title and their_title and our_title != their_title:
            reasons.append("different titles")
        return reasons

    def _known_of(self, target: int) -> Known:
        known = self._known.get(target)
        if known is None:  # an earlier record of this file
            record = self._pending(target)
            keys = record_keys(record)
            known = self._known[target] = (record_evidence(record), keys.get("title", ""))
        return known
