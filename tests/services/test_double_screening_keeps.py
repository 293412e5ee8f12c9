"""Nothing another member decided is lost (issue 22): a merge moves every member's
decisions, also those a blind screening hides from the merging member; nobody deletes
a paper carrying another's decision; forgetting a screening keeps every member's
decisions in the library-wide log, and a blind one waits until the others finished.
Reading the conflicts costs the same few statements however many there are.

The server checks passwords (tests/postgres_server.py): alice owns the library (and
reads every decision: her role is in the tables' owner group), bob and carol are
members, rita reads.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from sqlalchemy import event

from paperdesk.core.errors import PaperdeskError
from paperdesk.core.scope import Kind, Scope
from paperdesk.core.triage import Decision
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    double_screening,
    duplicates,
    editing,
    history,
    importing,
    screenings,
    tagging,
    triage,
)
from tests.postgres_server import PostgresServer
from tests.services import test_team_roles as team
from tests.services.conftest import SEEDS, Client
from tests.services.test_double_screening import ALICE, BOB, blind_screening, decide_all
from tests.services.test_team_roles import raw_sql

seeded = team.seeded


def bobs_decisions(server: PostgresServer, database: str) -> list[tuple[int, str, int | None]]:
    """(paper, decision, screening) of each of bob's decisions, as bob reads them."""
    with raw_sql(server, database, "bob") as raw:
        return raw.execute(
            "select paper_id, decision, screening_id from decisions "
            "where member = 'bob' order by id"
        ).fetchall()


def test_a_merge_moves_the_decisions_others_made_blind_to_the_kept_paper(
    seeded: Desk, client: Client, postgres_server: PostgresServer, team_database: str
) -> None:
    alice, bob, carol = seeded, client("bob"), client("carol")
    by_alice, by_bob = blind_screening(alice, bob)
    triage.decide(bob, 2, Decision.KEEP, screening=by_bob)
    triage.decide(alice, 2, Decision.DISCARD, screening=by_alice)
    # carol sees neither decision on 2; merging 2 into 1 keeps both all the same.
    duplicates.merge(carol, [1, 2], keep=1)
    assert [p.id for p in carol._library.papers.get_many([1, 2])] == [1]
    assert bobs_decisions(postgres_server, team_database) == [(1, "keep", by_bob.id)]
    assert [(e.paper_id, e.decision) for e in alice._library.screenings.log(by_alice.id)] == [
        (1, Decision.KEEP),
        (1, Decision.DISCARD),
    ]
    # Undoing the merge brings paper 2 back; the decisions carol never saw stay on
    # the kept paper: moved, never lost.
    assert history.undo(carol) is not None
    assert [p.id for p in carol._library.papers.get_many([1, 2])] == [1, 2]
    assert bobs_decisions(postgres_server, team_database) == [(1, "keep", by_bob.id)]
    # The server's merge is the only way to move another's decision, and a reader's
    # SQL may not call it.
    with raw_sql(postgres_server, team_database, "rita") as raw:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            raw.execute("select paperdesk_merge_away(1, array[3])")


def test_nobody_deletes_a_paper_carrying_another_members_decision(
    seeded: Desk, client: Client, postgres_server: PostgresServer, team_database: str
) -> None:
    alice, bob = seeded, client("bob")
    _, by_bob = blind_screening(alice, bob)
    triage.decide(bob, 3, Decision.DISCARD, screening=by_bob)
    # Not through paperdesk, not with the owner's own SQL (which cannot see it).
    with pytest.raises(PaperdeskError, match="paper 3 carries another member's screening"):
        editing.delete_papers(alice, [3])
    with raw_sql(postgres_server, team_database, "alice") as raw:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            raw.execute("delete from papers where id = 3")
    assert bobs_decisions(postgres_server, team_database) == [(3, "discard", by_bob.id)]
    # A paper carrying only one's own decision is one's own to delete, and undelete.
    editing.delete_papers(bob, [3])
    assert bobs_decisions(postgres_server, team_database) == []
    assert history.undo(bob) is not None
    assert bobs_decisions(postgres_server, team_database) == [(3, "discard", by_bob.id)]


def test_a_blind_screening_is_forgotten_once_the_others_finished_keeping_every_decision(
    seeded: Desk, client: Client, postgres_server: PostgresServer, team_database: str
) -> None:
    alice, bob = seeded, client("bob")
    by_alice, by_bob = blind_screening(alice, bob)
    decide_all(alice, by_alice, ALICE)
    decide_all(bob, by_bob, BOB)
    double_screening.finish(alice, by_alice)
    with pytest.raises(PaperdeskError, match="only an owner forgets the blind screening"):
        screenings.delete(bob, "Pairs")
    # bob is still deciding: forgetting now would show his decisions to everyone.
    with pytest.raises(PaperdeskError, match="forgotten only once bob finished it"):
        screenings.delete(alice, "Pairs")
    double_screening.finish(bob, by_bob)
    screenings.delete(alice, "Pairs")
    assert bob._library.screenings.named("Pairs") is None
    # Every member's decisions stay, in the library-wide log.
    with raw_sql(postgres_server, team_database, "bob") as raw:
        kept = raw.execute(
            "select member, paper_id, decision, screening_id from decisions order by member, id"
        ).fetchall()
    expected = [("alice", i, d.value, None) for i, d in ALICE.items()]
    assert kept == expected + [("bob", i, d.value, None) for i, d in BOB.items()]


def test_forgetting_an_open_screening_detaches_every_members_decisions(
    seeded: Desk, client: Client, postgres_server: PostgresServer, team_database: str
) -> None:
    alice, bob = seeded, client("bob")
    tagging.add_tags(alice, [1, 2], ["open"])
    started = screenings.start(alice, "Open", scope=Scope(Kind.TAG, "open"))
    triage.decide(alice, 1, Decision.KEEP, screening=started)
    triage.decide(bob, 2, Decision.MAYBE, screening=screenings.named(bob, "Open"))
    screenings.delete(bob, "Open")
    with raw_sql(postgres_server, team_database, "alice") as raw:
        left = raw.execute("select member, screening_id from decisions order by id").fetchall()
    assert left == [("alice", None), ("bob", None)]


@contextmanager
def counted_statements(desk: Desk) -> Iterator[list[str]]:
    statements: list[str] = []
    engine = desk._library._db.engine

    def record(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", record)


def test_reading_the_conflicts_costs_the_same_statements_for_1_or_20(
    seeded: Desk, client: Client
) -> None:
    alice, bob = seeded, client("bob")
    assert not importing.import_files(alice, SEEDS[1:2]).failed
    papers = list(range(1, 22))
    tagging.add_tags(alice, papers, ["pool"])
    started = screenings.start(alice, "Open", scope=Scope(Kind.TAG, "pool"))
    by_bob = screenings.named(bob, "Open")
    triage.decide(alice, papers[0], Decision.KEEP, screening=started)
    triage.decide(bob, papers[0], Decision.DISCARD, screening=by_bob)
    with counted_statements(alice) as one:
        assert len(double_screening.conflicts(alice, started)) == 1
    alice_says = dict.fromkeys(papers[1:20], Decision.KEEP)
    decide_all(alice, started, alice_says)
    decide_all(bob, by_bob, dict.fromkeys(papers[1:20], Decision.MAYBE))
    with counted_statements(alice) as twenty:
        found = double_screening.conflicts(alice, started)
    assert [c.paper_id for c in found] == papers[:20]
    assert len(twenty) == len(one), twenty
