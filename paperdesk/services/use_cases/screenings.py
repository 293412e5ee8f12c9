"""Screenings (issue 21): named triages a user owns, resumes, and counts.

`start` creates a screening or resumes the one of that name; `queue` reads what it goes
through: the scope's papers, the hits of its seed query first (a query seeds the order,
it does not fence the scope unless the screening is `confine`d to the hits), and which
of them it decided. Its figures (`stats`) and PRISMA-style counts (`prisma`) are read
from its own decisions, so two screenings never mix their progress.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from paperdesk.core.errors import InvalidValueError, NotFoundError
from paperdesk.core.scope import Kind, Scope
from paperdesk.core.screening import (
    DEFAULT_NAME,
    Screening,
    ScreeningQueue,
    ScreeningSummary,
)
from paperdesk.core.triage import Decision, LoggedDecision, TriageStats
from paperdesk.formats.atomic import atomic_open
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import searching, triage
from paperdesk.services.use_cases._sync import mutation

#: What a discard without a reason is counted as in the PRISMA counts.
NO_REASON = "no reason given"


@mutation
def start(
    desk: Desk,
    name: str = DEFAULT_NAME,
    *,
    scope: Scope | None = None,
    query: str | None = None,
    confine: bool | None = None,
    order: str | None = None,
    shortlist: str | None = None,
    reasons: tuple[str, ...] | None = None,
    blind: bool | None = None,
) -> Screening:
    """The screening of this name, created if new; the settings given change it (those
    left None keep what it had), and it becomes the one used last. `blind`: the members
    of a team library decide without seeing each other's decisions until they finish
    (services/use_cases/double_screening.py)."""
    if blind and desk._library.member is None:
        raise InvalidValueError(
            "a blind screening needs a team library (`paperdesk team init`): "
            "a personal library has one member"
        )
    found = desk._library.screenings.named(name)
    base = found if found is not None else Screening(name.strip())
    changed: dict[str, Any] = {
        key: value
        for key, value in (
            ("scope", scope),
            ("query", query.strip() if query is not None else None),
            ("confine", confine),
            ("order", order),
            ("shortlist", shortlist),
            ("reasons", tuple(r.strip() for r in reasons if r.strip()) if reasons else None),
            ("blind", blind),
        )
        if value is not None
    }
    screening = replace(base, **changed)
    if found is not None and screening == found:
        assert found.id is not None
        desk._library.screenings.touch(found.id)
    else:
        screening = desk._library.screenings.save(screening)
    return screening


def named(desk: Desk, name: str) -> Screening:
    found = desk._library.screenings.named(name)
    if found is None:
        raise NotFoundError(f"no screening named {name!r} (`paperdesk screenings` lists them)")
    return found


def exists(desk: Desk, name: str) -> bool:
    return desk._library.screenings.named(name) is not None


def decision_times(desk: Desk, screening: Screening) -> list[datetime]:
    """When each of the screening's decisions was made (its pace goes on from them)."""
    if screening.id is None:
        return []
    return [entry.at for entry in desk._library.screenings.log(screening.id, own=screening.blind)]


def decided_ids(desk: Desk, screening: Screening) -> set[int]:
    """The papers the screening decided (after an undo: which are pending again)."""
    return set(_decided(desk, screening))


def last_used(desk: Desk) -> Screening | None:
    """The screening resumed or changed last (None: there is none yet)."""
    screenings = desk._library.screenings.all()
    return screenings[0] if screenings else None


def queue(desk: Desk, screening: Screening) -> ScreeningQueue:
    """The screening's papers, its seed query's hits first, and those still pending.

    A paper it decided stays one of its papers even if it has left the scope since
    (a keep takes a paper out of "not yet decided"), so its progress never goes back.
    `earlier` counts its decided papers whose latest decision predates the screening:
    those migration 0006 gave "Triage" from before screenings had names.
    """
    # Blind, each member goes through every paper: an owner's role reads the others'
    # decisions too (docs/team.md), which must not take papers off their queue.
    latest = (
        desk._library.screenings.decided(screening.id, own=screening.blind)
        if screening.id is not None
        else {}
    )
    decided = {i: entry.decision for i, entry in latest.items()}
    created = screening.created
    earlier = sum(created is not None and entry.at < created for entry in latest.values())
    in_scope = searching.listing(desk, screening.scope).ids
    hits: list[int] = []
    terms: tuple[str, ...] = ()
    if screening.query:
        found = searching.listing(desk, screening.scope, screening.query)
        hits, terms = found.ids, found.terms
    hit_set = frozenset(hits)
    if screening.query and screening.confine:
        papers, left_out = list(hits), len(in_scope) - len(hits)
    else:
        papers = hits + [i for i in in_scope if i not in hit_set]
        left_out = 0
    listed = set(papers)
    members = papers + [i for i in decided if i not in listed]
    pending = tuple(i for i in papers if i not in decided)
    return ScreeningQueue(tuple(members), pending, terms, hit_set, left_out, earlier)


def stats(desk: Desk, screening: Screening) -> TriageStats:
    """The screening's own figures: progress, pace, time left and the stopping estimate."""
    found = queue(desk, screening)
    return triage.stats(desk, screening, len(found.ids), len(found.pending))


def figures(
    desk: Desk, name: str | None = None, library_wide: bool = False
) -> tuple[TriageStats, Prisma | None]:
    """What `paperdesk stats` and the statistics view report of triage: the screening
    named (the one used last by default) with its PRISMA counts, or the whole library's
    decision log when asked (`library_wide`) or before any screening."""
    screening = None
    if not library_wide:
        screening = named(desk, name) if name else last_used(desk)
    if screening is None:
        return triage.stats(desk), None
    return stats(desk, screening), prisma(desk, screening)


def summaries(desk: Desk) -> list[ScreeningSummary]:
    """Every screening with its progress, the one used last first."""
    lines = []
    for screening in desk._library.screenings.all():
        figures = stats(desk, screening)
        lines.append(
            ScreeningSummary(
                screening, figures.papers, figures.papers - figures.undecided, figures.found
            )
        )
    return lines


@mutation
def delete(desk: Desk, name: str) -> None:
    desk._library.screenings.delete(name)


def still_pending(desk: Desk, screening: Screening, ids: Sequence[int]) -> set[int]:
    """Which of these papers of the screening wait for its decision after a change: not
    decided in it, and (a screening of a status, as "not yet decided") still of that
    status; papers decided elsewhere leave such a screening, as they leave its scope."""
    decided = (
        desk._library.screenings.decided_among(screening.id, ids, own=screening.blind)
        if screening.id is not None
        else set()
    )
    waiting = [i for i in ids if i not in decided]
    if screening.scope.kind != Kind.STATUS:
        return set(waiting)
    statuses = desk._library.triage.statuses(waiting)
    return {i for i in waiting if i in statuses and statuses[i].value == screening.scope.value}


def _decided(desk: Desk, screening: Screening) -> dict[int, Decision]:
    """The papers the screening decided: in a blind one, those the member decided (each
    member goes through all of its papers)."""
    if screening.id is None:
        return {}
    decided = desk._library.screenings.decided(screening.id, own=screening.blind)
    return {i: e.decision for i, e in decided.items()}


# ---------------------------------------------------------------------- PRISMA counts


@dataclass(frozen=True)
class Prisma:
    """The counts of a PRISMA 2020 flow diagram's identification and screening boxes.

    `identified`: records read from files by the library's imports; `duplicates`: those
    that matched a paper already there (merged or unchanged), so never screened twice;
    `screened`: the screening's papers decided; `excluded` by reason; `included`: kept
    (or rated 4-5); `maybe`: decided "maybe"; `not_screened`: still pending.
    """

    screening: str
    identified: int
    duplicates: int
    papers: int
    screened: int
    excluded_by_reason: tuple[tuple[str, int], ...]
    included: int
    maybe: int
    not_screened: int

    @property
    def excluded(self) -> int:
        return sum(count for _, count in self.excluded_by_reason)

    def rows(self) -> list[tuple[str, int]]:
        """(stage, count) in the diagram's order: the CSV export and the text."""
        return [
            ("records identified", self.identified),
            ("duplicates removed", self.duplicates),
            ("records in the screening", self.papers),
            ("records screened", self.screened),
            ("records excluded", self.excluded),
            *((f"excluded: {reason}", count) for reason, count in self.excluded_by_reason),
            ("records marked maybe", self.maybe),
            ("records included", self.included),
            ("records not yet screened", self.not_screened),
        ]

    def lines(self) -> list[str]:
        return [f"{stage}: {count:,}" for stage, count in self.rows()]


def prisma(desk: Desk, screening: Screening) -> Prisma:
    found = queue(desk, screening)
    decided = _outcomes(desk, screening)
    latest = decided.values()
    rated = triage.rated_relevant(desk, list(latest))
    included = {e.paper_id for e in latest if e.decision == Decision.KEEP} | rated
    reasons = Counter(
        e.reason or NO_REASON
        for e in latest
        if e.decision == Decision.DISCARD and e.paper_id not in included
    )
    ordered = [(r, reasons[r]) for r in screening.reasons if reasons[r]]
    ordered += sorted((r, n) for r, n in reasons.items() if r not in screening.reasons)
    batches = desk._library.imports.batches()
    duplicates = sum(b.merged + b.unchanged for b in batches)
    return Prisma(
        screening=screening.name,
        identified=sum(b.added for b in batches) + duplicates,
        duplicates=duplicates,
        papers=len(found.ids),
        screened=len(decided),
        excluded_by_reason=tuple(ordered),
        included=len(included),
        maybe=sum(1 for e in latest if e.decision == Decision.MAYBE and e.paper_id not in included),
        not_screened=sum(1 for i in found.ids if i not in decided),
    )


def _outcomes(desk: Desk, screening: Screening) -> dict[int, LoggedDecision]:
    """Each paper's decision that the screening's report counts: its latest, or in a
    blind screening its resolution (the members' own decisions only lead to it)."""
    if screening.id is None:
        return {}
    store = desk._library.screenings
    return store.resolutions(screening.id) if screening.blind else store.decided(screening.id)


def prisma_csv(counts: Prisma) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["screening", "stage", "count"])
    for stage, count in counts.rows():
        writer.writerow([counts.screening, stage, count])
    return out.getvalue()


def export_prisma(desk: Desk, screening: Screening, path: Path) -> Prisma:
    """Write the screening's PRISMA counts to a CSV file (whole, or not at all)."""
    if path.suffix.lower() != ".csv":
        raise InvalidValueError(f"{path}: the PRISMA counts are written as CSV (a .csv file)")
    counts = prisma(desk, screening)
    with atomic_open(path, newline="") as stream:
        stream.write(prisma_csv(counts))
    return counts
