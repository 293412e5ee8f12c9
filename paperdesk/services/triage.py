"""Triage (issue 10): deciding paper by paper, and how far the deciding has come.

A decision is one service call and one undo step: status, target shortlist and the
decision log change together. What a triage goes through is a scope (a query, a
shortlist, a tag, or the papers not yet decided), narrowed to the undecided papers
unless asked otherwise. The order ("most promising first") comes from `desk.promise`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paperdesk.core.changes import Changes
from paperdesk.core.models import Status
from paperdesk.core.scope import Kind, Scope
from paperdesk.core.triage import (
    Decision,
    TriageStats,
    decisions_per_day,
    discards_since_keep,
    found_curve,
    pace_per_hour,
    relevant_left,
)
from paperdesk.services import searching
from paperdesk.services._sync import mutation, synced
from paperdesk.services.desk import Desk

#: What "not yet decided" triages: the papers whose status is still new.
UNDECIDED = Scope(Kind.STATUS, Status.NEW.value)


@dataclass(frozen=True)
class Queue:
    """A triage's papers in file order, and those still to decide among them."""

    ids: tuple[int, ...]
    pending: tuple[int, ...]
    terms: tuple[str, ...] = ()


@mutation
def decide(
    desk: Desk,
    paper_id: int,
    decision: Decision,
    shortlist: str | None = None,
    index_later: bool = False,
) -> Changes:
    """Keep (onto `shortlist`, created if new), maybe or discard one paper.

    `index_later`: the search index follows after the call (indexing.catch_up), as
    the triage view asks: a whoosh commit is most of a decision's time (40-140 ms of
    CPU at 13,000 papers), and the next paper need only wait for the database.
    """
    changes = desk.library.triage.decide(paper_id, decision, shortlist)
    return synced(desk, changes, index_later=index_later)


def queue(desk: Desk, scope: Scope, text: str = "", only_undecided: bool = True) -> Queue:
    """The papers a triage of `scope` (narrowed by a search `text`) goes through."""
    listing = searching.listing(desk, scope, text)
    if not only_undecided:
        return Queue(tuple(listing.ids), tuple(listing.ids), listing.terms)
    statuses = desk.library.triage.statuses(listing.ids)
    pending = tuple(i for i in listing.ids if statuses.get(i) == Status.NEW)
    return Queue(tuple(listing.ids), pending, listing.terms)


def undecided(desk: Desk, ids: Sequence[int]) -> set[int]:
    """Which of these papers are still new (a triage's pending papers after a change)."""
    return {i for i, status in desk.library.triage.statuses(ids).items() if status == Status.NEW}


def stats(desk: Desk) -> TriageStats:
    """Decisions over time, relevant found against abstracts read, counts by status and
    tag, the pace of the last sitting and the stopping hint's figures."""
    log = desk.library.triage.log()
    overview = desk.library.stats.overview()
    curve = found_curve(log)
    counts = dict(overview.by_status)
    undecided_count = counts.get(Status.NEW.value, 0)
    tags = sorted(overview.tags, key=lambda t: (-t.count, t.name.casefold()))
    return TriageStats(
        papers=overview.papers,
        undecided=undecided_count,
        decisions=len(log),
        per_day=tuple(decisions_per_day(log)),
        found_curve=tuple(curve),
        by_status=overview.by_status,
        by_tag=tuple((t.name, t.count) for t in tags),
        pace_per_hour=pace_per_hour([entry.at for entry in log]),
        discards_since_keep=discards_since_keep(log),
        relevant_left=relevant_left(curve, undecided_count),
    )


def highlight_words(desk: Desk) -> list[str]:
    """The words this library always highlights in abstracts."""
    return desk.library.triage.highlight_words()


@mutation
def set_highlight_words(desk: Desk, words: Sequence[str]) -> Changes:
    return synced(desk, desk.library.triage.set_highlight_words(words))
