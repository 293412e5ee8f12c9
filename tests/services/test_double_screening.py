"""Screening in pairs on a team server (issue 22, "What must hold" 7): two members
screen blind, the server hides each one's decisions from the other until they finish,
then they resolve their conflicts; agreement and progress per member; the ranking
learns from each member's own decisions while blind.

The server checks passwords (tests/postgres_server.py): alice owns the library, bob
and carol are members.
"""

from __future__ import annotations

import psycopg
import pytest

from paperdesk.core.errors import PaperdeskError
from paperdesk.core.models import Status
from paperdesk.core.scope import Kind, Scope
from paperdesk.core.screening import Screening
from paperdesk.core.triage import Decision
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    double_screening,
    history,
    notes,
    screenings,
    tagging,
    triage,
)
from tests.postgres_server import PostgresServer
from tests.services import test_team_roles as team
from tests.services.conftest import Client
from tests.services.test_team_roles import raw_sql

# alice's client with the seeds imported, as the server tests open it.
seeded = team.seeded

PAPERS = [1, 2, 3, 4]
#: What alice and bob decide, blind: they agree on 1 and 4, not on 2 and 3.
ALICE = {1: Decision.KEEP, 2: Decision.DISCARD, 3: Decision.KEEP, 4: Decision.MAYBE}
BOB = {1: Decision.KEEP, 2: Decision.KEEP, 3: Decision.DISCARD, 4: Decision.MAYBE}


def blind_screening(alice: Desk, bob: Desk) -> tuple[Screening, Screening]:
    tagging.add_tags(alice, PAPERS, ["pairs"])
    started = screenings.start(
        alice, "Pairs", scope=Scope(Kind.TAG, "pairs"), reasons=("off topic",), blind=True
    )
    return started, screenings.named(bob, "Pairs")


def decide_all(desk: Desk, screening: Screening, decisions: dict[int, Decision]) -> None:
    for paper_id, decision in decisions.items():
        reason = "off topic" if decision == Decision.DISCARD else None
        triage.decide(
            desk, paper_id, decision, screening.shortlist, screening=screening, reason=reason
        )


def test_two_members_screen_blind_then_resolve_their_conflicts(
    seeded: Desk, client: Client
) -> None:
    alice, bob = seeded, client("bob")
    by_alice, by_bob = blind_screening(alice, bob)
    assert by_bob.blind
    decide_all(alice, by_alice, ALICE)
    # Blind: bob goes through every paper, sees none of alice's decisions, and the
    # papers' shared status and shortlists say nothing of them either.
    assert screenings.queue(bob, by_bob).pending == tuple(PAPERS)
    assert bob._library.screenings.votes(by_bob.id) == {}
    assert {bob._library.papers.get(i).status for i in PAPERS} == {Status.NEW}
    assert screenings.queue(alice, by_alice).pending == ()
    figures = double_screening.figures(bob, by_bob)
    assert figures is not None and figures.hidden
    assert [(m.member, m.decided, m.finished) for m in figures.members] == [("alice", 4, False)]
    with pytest.raises(PaperdeskError, match="finish it to see the conflicts"):
        double_screening.conflicts(bob, by_bob)
    with pytest.raises(PaperdeskError, match="4 papers .* still wait for your decision"):
        double_screening.finish(bob, by_bob)
    notes.set_note(bob, 2, "bob: the only method that scales")
    decide_all(bob, by_bob, BOB)
    double_screening.finish(alice, by_alice)
    # alice finished, bob not yet: she sees his progress, not his decisions' agreement.
    figures = double_screening.figures(alice, by_alice)
    assert figures is not None and not figures.hidden
    assert [(m.member, m.decided, m.finished) for m in figures.members] == [
        ("alice", 4, True),
        ("bob", 4, False),
    ]
    assert double_screening.conflicts(alice, by_alice) == []
    double_screening.finish(bob, by_bob)
    with pytest.raises(PaperdeskError, match="already finished"):
        double_screening.finish(bob, by_bob)
    # Both finished: the conflicts, each with both members' decisions, reasons, notes.
    found = double_screening.conflicts(alice, by_alice)
    assert [c.paper_id for c in found] == [2, 3]
    assert [(v.member, v.decision, v.reason, v.note) for v in found[0].votes] == [
        ("alice", Decision.DISCARD, "off topic", ""),
        ("bob", Decision.KEEP, None, "bob: the only method that scales"),
    ]
    figures = double_screening.figures(bob, by_bob)
    assert figures is not None
    (pair,) = figures.agreements
    assert (pair.first, pair.second, pair.papers, pair.agreed) == ("alice", "bob", 4, 2)
    assert pair.kappa == pytest.approx(0.2)  # (2/4 - 6/16) / (1 - 6/16)
    assert figures.conflicts == 2
    # A resolution is a decision of its own: it sets the status and the shortlist.
    double_screening.resolve(alice, by_alice, 2, Decision.KEEP)
    assert [c.paper_id for c in double_screening.conflicts(bob, by_bob)] == [3]
    assert bob._library.papers.get(2).status == Status.TO_READ
    assert history.labels(alice).undo == "Resolve: Keep to Kept"
    double_screening.resolve(bob, by_bob, 3, Decision.DISCARD, "off topic")
    assert bob._library.papers.get(3).status == Status.DISCARDED
    assert double_screening.conflicts(alice, by_alice) == []
    # The papers both decided alike are settled in one step.
    double_screening.settle_agreed(alice, by_alice)
    assert [alice._library.papers.get(i).status for i in PAPERS] == [
        Status.TO_READ,
        Status.TO_READ,
        Status.DISCARDED,
        Status.SKIMMED,
    ]
    # Finished, a member's blind decisions are final; undo takes back their own step.
    with pytest.raises(PaperdeskError):
        triage.decide(bob, 1, Decision.DISCARD, screening=by_bob)
    assert history.undo(bob) is not None  # bob's resolution of paper 3
    assert [c.paper_id for c in double_screening.conflicts(alice, by_alice)] == [3]


def test_a_members_raw_sql_cannot_read_nor_change_anothers_blind_decisions(
    seeded: Desk, client: Client, postgres_server: PostgresServer, team_database: str
) -> None:
    alice, bob = seeded, client("bob")
    by_alice, _ = blind_screening(alice, bob)
    decide_all(alice, by_alice, ALICE)
    sid = by_alice.id
    with raw_sql(postgres_server, team_database, "bob") as raw:
        assert raw.execute("select count(*) from decisions").fetchone() == (0,)
        assert raw.execute("update decisions set decision='keep'").rowcount == 0
        assert raw.execute("delete from decisions").rowcount == 0
        # A decision is the server's member's, whatever the SQL says.
        raw.execute(
            "insert into decisions (paper_id, decision, at, screening_id, member) "
            f"values (1, 'discard', now(), {sid}, 'alice')"
        )
        assert raw.execute("select member from decisions").fetchall() == [("bob",)]
        raw.execute("update decisions set member='alice'")
        assert raw.execute("select member from decisions").fetchall() == [("bob",)]
        # Counts are everyone's to see, decisions are not.
        progress = raw.execute(
            f"select member, decided from paperdesk_screening_progress({sid}) order by member"
        ).fetchall()
        assert progress == [("alice", 4), ("bob", 1)]
        # Lifting the blindness, or forgetting the screening, is for an owner.
        for statement in (
            f"update screenings set blind=false where id={sid}",
            f"delete from screenings where id={sid}",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                raw.execute(statement)
        # A finish, once recorded, is not taken back (peeking, then changing).
        raw.execute(f"insert into screening_finishes values ({sid}, 'bob', now())")
        assert raw.execute("delete from screening_finishes").rowcount == 0
        assert raw.execute("select count(*) from decisions").fetchone() == (5,)  # alice's too
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            raw.execute(
                "insert into decisions (paper_id, decision, at, screening_id) "
                f"values (2, 'keep', now(), {sid})"
            )
        assert raw.execute("update decisions set decision='keep'").rowcount == 0
    # carol, who has not finished, still sees nothing of alice's or bob's.
    with raw_sql(postgres_server, team_database, "carol") as raw:
        assert raw.execute("select count(*) from decisions").fetchone() == (0,)
    assert [e.decision for e in alice._library.screenings.log(sid, own=True)] == list(
        ALICE.values()
    )


def test_the_ranking_learns_each_members_own_blind_decisions(seeded: Desk, client: Client) -> None:
    alice, bob = seeded, client("bob")
    by_alice, by_bob = blind_screening(alice, bob)
    decide_all(alice, by_alice, ALICE)
    triage.decide(bob, 3, Decision.DISCARD, screening=by_bob)
    assert alice.promise.labels() == {1: True, 2: False, 3: True}
    assert bob.promise.labels() == {3: False}
    # Once resolved, the paper's status teaches everyone the same.
    decide_all(bob, by_bob, {i: d for i, d in BOB.items() if i != 3})
    double_screening.finish(alice, by_alice)
    double_screening.finish(bob, by_bob)
    double_screening.resolve(alice, by_alice, 3, Decision.KEEP)
    assert bob.promise.labels()[3] is True


def test_a_personal_library_has_no_blind_screening(desk: Desk) -> None:
    with pytest.raises(PaperdeskError, match="needs a team library"):
        screenings.start(desk, "Pairs", blind=True)
    started = screenings.start(desk, "Alone")
    assert double_screening.figures(desk, started) is None
    triage.decide(desk, 1, Decision.KEEP, "Kept", screening=started)
    assert desk._library.papers.get(1).status == Status.TO_READ  # as before


def test_an_owner_screens_every_paper_blind_and_the_report_counts_the_resolutions(
    seeded: Desk, client: Client
) -> None:
    alice, bob = seeded, client("bob")
    by_alice, by_bob = blind_screening(alice, bob)
    decide_all(bob, by_bob, BOB)
    # alice owns the library (her role reads every decision), yet bob's decisions take
    # no paper off her queue: she decides each one herself before she may finish.
    assert screenings.queue(alice, by_alice).pending == tuple(PAPERS)
    with pytest.raises(PaperdeskError, match="4 papers .* still wait for your decision"):
        double_screening.finish(alice, by_alice)
    decide_all(alice, by_alice, ALICE)
    # The PRISMA counts are the team's outcome: no paper is screened until resolved.
    counts = screenings.prisma(alice, by_alice)
    assert (counts.screened, counts.not_screened) == (0, 4)
    double_screening.finish(alice, by_alice)
    double_screening.finish(bob, by_bob)
    double_screening.settle_agreed(alice, by_alice)  # 1 kept, 4 maybe
    double_screening.resolve(bob, by_bob, 2, Decision.DISCARD, "off topic")
    counts = screenings.prisma(bob, by_bob)
    assert (counts.screened, counts.included, counts.maybe, counts.not_screened) == (3, 1, 1, 1)
    assert counts.excluded_by_reason == (("off topic", 1),)
