"""Triage (issue 10): deciding paper by paper, and how far the deciding has come.

A decision is one service call and one undo step: status, target shortlist and the
decision log (with its screening and exclusion reason) change together. What a triage
goes through is a screening's (services/use_cases/screenings.py); the order ("most promising
first") comes from `desk.promise`.
"""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.core.changes import Changes
from paperdesk.core.models import Status
from paperdesk.core.screening import Screening
from paperdesk.core.triage import (
    Decision,
    LoggedDecision,
    TriageStats,
    decisions_per_day,
    discards_since_keep,
    estimate_left,
    found_curve,
    pace_per_hour,
)
from paperdesk.ranking.decisions import POSITIVE_RATING
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases._sync import following, mutation


@mutation
def decide(
    desk: Desk,
    paper_id: int,
    decision: Decision,
    shortlist: str | None = None,
    index_later: bool = False,
    screening: Screening | None = None,
    reason: str | None = None,
) -> Changes:
    """Keep (onto `shortlist`, created if new), maybe or discard one paper, in a
    `screening` (its decisions are its own); a discard may carry an exclusion `reason`.

    `index_later`: the search index follows after the call (Desk.catch_up_deferred), as
    the triage view asks: a whoosh commit is most of a decision's time (40-140 ms of
    CPU at 13,000 papers), and the next paper need only wait for the database.
    """
    screening_id = screening.id if screening is not None else None
    blind = screening is not None and screening.blind
    with following(desk, index_later=index_later):
        return desk._library.triage.decide(
            paper_id, decision, shortlist, screening_id, reason, blind=blind
        )


def stats(
    desk: Desk,
    screening: Screening | None = None,
    members: int | None = None,
    pending: int | None = None,
) -> TriageStats:
    """Decisions over time, relevant found against abstracts read, counts by status and
    tag, the pace of the last sitting and the stopping estimate: of one `screening`
    (whose `members` papers, `pending` of them undecided, the caller read with
    `screenings.queue`), or of the whole library's log when None."""
    overview = desk._library.stats.overview()
    if screening is not None and screening.id is not None:
        log = desk._library.screenings.log(screening.id, own=screening.blind)
        papers = members if members is not None else len({e.paper_id for e in log})
        left = pending if pending is not None else 0
    else:
        log = desk._library.triage.log()
        papers = overview.papers
        left = dict(overview.by_status).get(Status.NEW.value, 0)
    curve = found_curve(log, rated_relevant(desk, log))
    tags = sorted(overview.tags, key=lambda t: (-t.count, t.name.casefold()))
    return TriageStats(
        papers=papers,
        undecided=left,
        decisions=len(log),
        per_day=tuple(decisions_per_day(log)),
        found_curve=tuple(curve),
        by_status=overview.by_status,
        by_tag=tuple((t.name, t.count) for t in tags),
        pace_per_hour=pace_per_hour([entry.at for entry in log]),
        discards_since_keep=discards_since_keep(log),
        estimate=estimate_left(curve, left),
        screening=screening.name if screening is not None else "",
    )


def rated_relevant(desk: Desk, log: Sequence[LoggedDecision]) -> set[int]:
    """The decided papers whose rating makes them relevant for the model (4 or 5)."""
    ids = sorted({entry.paper_id for entry in log})
    return {
        i for i, _status, rating in desk._library.triage.judged(ids) if rating >= POSITIVE_RATING
    }


def highlight_words(desk: Desk) -> list[str]:
    """The words this library always highlights in abstracts."""
    return desk._library.triage.highlight_words()


@mutation
def set_highlight_words(desk: Desk, words: Sequence[str]) -> Changes:
    return desk._library.triage.set_highlight_words(words)
