"""Screening in pairs (issue 22): members of a team library screen the same papers,
blind if they choose, then resolve their disagreements.

In a blind screening a member's decisions are logged but change nothing the others see
(the paper's status and shortlists wait), and the server hides them from the other
members (migration 0009) until those finish too. A member `finish`es once every paper
of the screening has their decision; then they see the others' decisions: `conflicts`
lists the papers finished members decided differently, with each one's reason and
note, and `resolve` records the decision that settles one (a decision of its own, which
sets the paper's status and shortlist as a plain triage decision would);
`settle_agreed` does so at once for every paper all finished members decided alike.
`figures` gives each member's progress (counted by the server, decisions unseen) and
Cohen's kappa of each pair of members.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from paperdesk.core.changes import Changes
from paperdesk.core.double_screening import (
    Conflict,
    MemberProgress,
    PairFigures,
    Vote,
    agreement,
)
from paperdesk.core.errors import InvalidValueError
from paperdesk.core.screening import Screening
from paperdesk.core.triage import Decision, LoggedDecision, TriageStats
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import screenings
from paperdesk.services.use_cases._sync import mutation

Votes = dict[str, dict[int, LoggedDecision]]


@mutation
def finish(desk: Desk, screening: Screening) -> Changes:
    """The member has decided every paper of the screening and says so: their decisions
    are final, and (blind) they now see the others'."""
    _needs_team(desk)
    assert screening.id is not None
    if desk._library.member in desk._library.screenings.finished(screening.id):
        raise InvalidValueError(f"you already finished the screening {screening.name!r}")
    pending = len(screenings.queue(desk, screening).pending)
    if pending:
        raise InvalidValueError(
            f"{pending:,} papers of {screening.name!r} still wait for your decision"
        )
    desk._library.screenings.finish(screening.id)
    return Changes(f"Finish screening {screening.name}")


def figures(desk: Desk, screening: Screening) -> PairFigures | None:
    """Each member's progress, each pair's agreement and the conflicts left (None: the
    personal library, whose screenings have one member)."""
    if desk._library.member is None or screening.id is None:
        return None
    store = desk._library.screenings
    papers = len(screenings.queue(desk, screening).ids)
    finished = store.finished(screening.id)
    counts = store.progress(screening.id)
    members = tuple(
        MemberProgress(member, counts.get(member, 0), papers, member in finished)
        for member in sorted({*counts, *finished})
    )
    votes = _final_votes(desk, screening)
    agreements = tuple(
        agreement(first, second, list(_pairs(votes[first], votes[second])))
        for first, second in combinations(sorted(votes), 2)
    )
    return PairFigures(
        blind=screening.blind,
        members=members,
        agreements=agreements,
        conflicts=len(_conflicting(desk, screening, votes)),
        hidden=not _sees_others(desk, screening),
    )


def figures_of(desk: Desk, triage: TriageStats) -> PairFigures | None:
    """The per-member figures beside a screening's triage figures (`paperdesk stats`,
    the statistics view); None for the library-wide log."""
    return figures(desk, screenings.named(desk, triage.screening)) if triage.screening else None


def conflicts(desk: Desk, screening: Screening) -> list[Conflict]:
    """The papers the members decided differently and nobody resolved yet, each with
    every member's decision, exclusion reason and note, in paper order."""
    if not _sees_others(desk, screening):
        raise InvalidValueError(
            f"the screening {screening.name!r} is blind: finish it to see the conflicts "
            "(`paperdesk screenings finish NAME`)"
        )
    votes = _final_votes(desk, screening)
    found = []
    # One read of the papers, everyone's notes with them, however many conflicts.
    for paper in desk._library.papers.get_many(_conflicting(desk, screening, votes)):
        notes = {n.member: n.body for n in (paper.team.notes if paper.team else ())}
        ballots = tuple(
            Vote(member, entry.decision, entry.reason, notes.get(member, ""))
            for member, decided in sorted(votes.items())
            if (entry := decided.get(paper.id)) is not None
        )
        found.append(Conflict(paper.id, paper.title, ballots))
    return found


@mutation
def resolve(
    desk: Desk,
    screening: Screening,
    paper_id: int,
    decision: Decision,
    reason: str | None = None,
) -> Changes:
    """Settle the members' disagreement on a paper: a decision of its own, by the member
    resolving, that sets the paper's status (and a keep's shortlist). One undo step."""
    _needs_team(desk)
    if not _sees_others(desk, screening):
        raise InvalidValueError(
            f"finish the blind screening {screening.name!r} before resolving its conflicts"
        )
    if not any(paper_id in decided for decided in _final_votes(desk, screening).values()):
        raise InvalidValueError(f"no member decided paper {paper_id} in {screening.name!r}")
    return desk._library.triage.decide(
        paper_id, decision, screening.shortlist, screening.id, reason, resolves=True
    )


@mutation
def settle_agreed(desk: Desk, screening: Screening) -> Changes:
    """Record, in one undo step, the decision of every paper all finished members
    decided alike and nobody resolved: its status and shortlist follow."""
    _needs_team(desk)
    if not _sees_others(desk, screening):
        raise InvalidValueError(
            f"finish the blind screening {screening.name!r} before settling what you agree on"
        )
    assert screening.id is not None
    votes = _final_votes(desk, screening)
    resolved = desk._library.screenings.resolutions(screening.id)
    settled = []
    for paper_id in sorted({i for decided in votes.values() for i in decided} - set(resolved)):
        entries = [decided[paper_id] for decided in votes.values() if paper_id in decided]
        if len(entries) == len(votes) >= 2 and len({e.decision for e in entries}) == 1:
            reason = next((e.reason for e in entries if e.reason), None)
            settled.append((paper_id, entries[0].decision, reason))
    if not settled:
        return Changes("Settle agreed papers")
    label = f"Settle {len(settled):,} agreed papers of {screening.name}"
    return desk._library.triage.decide_many(
        label, settled, screening.shortlist, screening.id, resolves=True
    )


def _needs_team(desk: Desk) -> None:
    if desk._library.member is None:
        raise InvalidValueError(
            "screening in pairs needs a team library (`paperdesk team init`): "
            "a personal library has one member"
        )


def _sees_others(desk: Desk, screening: Screening) -> bool:
    """Whether the member may see the others' decisions: the screening is not blind, or
    they finished it (what the server's row-level security lets them read)."""
    if not screening.blind:
        return True
    assert screening.id is not None
    return desk._library.member in desk._library.screenings.finished(screening.id)


def _final_votes(desk: Desk, screening: Screening) -> Votes:
    """Each member's decisions that count for agreement: in a blind screening those of
    the members who finished (the others may still change theirs)."""
    assert screening.id is not None
    votes = desk._library.screenings.votes(screening.id)
    if not screening.blind:
        return votes
    finished = desk._library.screenings.finished(screening.id)
    return {member: decided for member, decided in votes.items() if member in finished}


def _conflicting(desk: Desk, screening: Screening, votes: Votes) -> list[int]:
    assert screening.id is not None
    resolved = desk._library.screenings.resolutions(screening.id)
    decisions: dict[int, set[Decision]] = {}
    for decided in votes.values():
        for paper_id, entry in decided.items():
            decisions.setdefault(paper_id, set()).add(entry.decision)
    return sorted(i for i, made in decisions.items() if len(made) > 1 and i not in resolved)


def _pairs(
    first: dict[int, LoggedDecision], second: dict[int, LoggedDecision]
) -> Iterator[tuple[Decision, Decision]]:
    for paper_id in sorted(first.keys() & second.keys()):
        yield first[paper_id].decision, second[paper_id].decision
