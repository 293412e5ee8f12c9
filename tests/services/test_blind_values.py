"""Nothing of another member's judgement leaks while one screens blind (issue 22): a
note or a rating bob writes on a paper he decided in a blind screening is hidden from
every member who has not finished it (alice, an owner, too), through paperdesk and
their own SQL, and the team average leaves it out; it shows once they finished, or the
screening stopped being blind (migration 0012). Each refusal of the server says why.

The server checks passwords (tests/postgres_server.py): alice owns the library, bob
and carol are members, rita reads.
"""

from __future__ import annotations

import psycopg
import pytest

from paperdesk.core.errors import PaperdeskError
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    double_screening,
    duplicates,
    editing,
    notes,
    screenings,
)
from paperdesk.store.team_server import refusal
from tests.postgres_server import PostgresServer
from tests.services import test_team_roles as team
from tests.services.conftest import Client
from tests.services.test_double_screening import ALICE, BOB, blind_screening, decide_all
from tests.services.test_team_roles import raw_sql

seeded = team.seeded


def values_seen(desk: Desk, paper_id: int) -> tuple[tuple[tuple[str, int], ...], list[str]]:
    """The ratings and the notes' writers of a paper's team values, as `desk` reads them."""
    found = desk._library.papers.get(paper_id).team
    assert found is not None
    return found.ratings, [note.member for note in found.notes]


def bobs_rows(server: PostgresServer, database: str, user: str) -> list[tuple[int, int, str]]:
    with raw_sql(server, database, user) as raw:
        return raw.execute(
            "select paper_id, rating, note from member_values "
            "where member = 'bob' order by paper_id"
        ).fetchall()


def test_a_note_and_rating_written_blind_show_only_to_those_who_finished(
    seeded: Desk, client: Client, postgres_server: PostgresServer, team_database: str
) -> None:
    alice, bob, carol = seeded, client("bob"), client("carol")
    by_alice, by_bob = blind_screening(alice, bob)
    decide_all(bob, by_bob, {2: BOB[2]})
    notes.set_note(bob, 2, "bob: a keeper")
    editing.set_rating(bob, [2], 5)
    editing.set_rating(alice, [2], 3)
    # Not through paperdesk (alice owns the library: her role is no exception), not
    # with raw SQL, not in the team average.
    for desk in (alice, carol):
        assert values_seen(desk, 2) == ((("alice", 3),), [])
    assert alice._library.papers.get(2).team.average == 3.0  # type: ignore[union-attr]
    for user in ("alice", "carol", "rita"):
        assert bobs_rows(postgres_server, team_database, user) == []
    # bob reads his own; a paper he did not decide shows his values to all.
    assert values_seen(bob, 2) == ((("alice", 3), ("bob", 5)), ["bob"])
    editing.set_rating(bob, [9], 4)
    assert values_seen(carol, 9) == ((("bob", 4),), [])
    # Once alice finished, she sees them all.
    decide_all(alice, by_alice, ALICE)
    double_screening.finish(alice, by_alice)
    assert values_seen(alice, 2) == ((("alice", 3), ("bob", 5)), ["bob"])
    assert alice._library.papers.get(2).team.average == 4.0  # type: ignore[union-attr]
    assert bobs_rows(postgres_server, team_database, "alice") == [
        (2, 5, "bob: a keeper"),
        (9, 4, ""),
    ]
    # carol, still not, now sees alice's rating of 2 neither: alice decided 2 too.
    assert values_seen(carol, 2) == ((), [])
    # A screening that stops being blind hides nothing.
    with raw_sql(postgres_server, team_database, "alice") as raw:
        raw.execute("update screenings set blind = false")
    assert values_seen(carol, 2) == ((("alice", 3), ("bob", 5)), ["bob"])


def test_a_merge_never_drops_the_values_a_blind_screening_hides_from_the_merger(
    seeded: Desk, client: Client, postgres_server: PostgresServer, team_database: str
) -> None:
    alice, bob, carol = seeded, client("bob"), client("carol")
    _, by_bob = blind_screening(alice, bob)
    decide_all(bob, by_bob, {2: BOB[2]})
    notes.set_note(bob, 2, "bob: a keeper")
    # alice's role may write anyone's values (an owner's merge folds them), but she
    # does not see bob's: her merge would have deleted them with paper 2.
    for merger, name in ((alice, "alice"), (carol, "carol")):
        with pytest.raises(
            PaperdeskError,
            match=rf"refused: papers 1, 2 carry notes or ratings that a blind screening hides "
            rf"from {name} \(a blind screening hides them from you until you finish it",
        ):
            duplicates.merge(merger, [1, 2], keep=1)
    # Kept or merged away: bob's hidden note of the kept paper 2 would collide with
    # the row alice folds from his visible note of 3.
    notes.set_note(bob, 3, "bob: seen")
    with pytest.raises(PaperdeskError, match=r"refused: papers 2, 3 carry notes or ratings"):
        duplicates.merge(alice, [2, 3], keep=2)
    assert bobs_rows(postgres_server, team_database, "bob") == [
        (2, 0, "bob: a keeper"),
        (3, 0, "bob: seen"),
    ]
    # bob sees them, and merges: his note follows the kept paper.
    duplicates.merge(bob, [1, 2], keep=1)
    assert bobs_rows(postgres_server, team_database, "bob") == [
        (1, 0, "bob: a keeper"),
        (3, 0, "bob: seen"),
    ]


def test_each_refusal_says_its_own_cause(
    seeded: Desk, client: Client, postgres_server: PostgresServer, team_database: str
) -> None:
    alice, bob = seeded, client("bob")
    by_alice, by_bob = blind_screening(alice, bob)
    decide_all(bob, by_bob, {3: BOB[3]})
    with pytest.raises(PaperdeskError, match=r"\(a member's screening decision is theirs: it"):
        editing.delete_papers(alice, [3])
    with pytest.raises(PaperdeskError, match=r"\(a blind screening keeps each member's decis"):
        screenings.delete(alice, "Pairs")
    with pytest.raises(PaperdeskError, match=r"\(a screening's blindness is its owners' to"):
        screenings.delete(bob, "Pairs")
    notes.set_note(alice, 5, "alice: later")
    with pytest.raises(PaperdeskError, match=r"\(each member's notes and ratings are their own"):
        editing.delete_papers(bob, [5])


@pytest.mark.parametrize(
    ("said", "why"),
    [
        ("only bob can undo, redo or withdraw what bob did", "undo or redo only their own"),
        ("the history of a team library is not rewritten", "keeps a team library's history"),
        (
            'new row violates row-level security policy for table "member_values"',
            "change only their own notes, ratings and decisions",
        ),
        ("must be owner of table papers", "an upgrade that only its owners may run"),
        ("permission denied for table papers", "team add-member NAME"),
        ("only a member of the library merges papers", "team add-member NAME"),
    ],
)
def test_a_refusal_without_a_paperdesk_cause_names_the_right_one(said: str, why: str) -> None:
    assert why in str(refusal(psycopg.errors.InsufficientPrivilege(said), "pg://h/lib"))
