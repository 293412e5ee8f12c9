"""What the server of a team library enforces (issue 22): who you are is the role it
authenticated, undo takes back only your own actions, a member's raw SQL cannot change
another member's note nor forge the history, a reader only reads.

The server checks passwords (tests/postgres_server.py): alice owns the library, bob
and carol are members, READER reads.
"""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from paperdesk.core.errors import PaperdeskError, ReadOnlyLibraryError
from paperdesk.core.team_url import TeamAddress
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, history, importing, notes, tagging
from paperdesk.services.use_cases.import_plan import plan_file
from tests.postgres_server import READER, PostgresServer
from tests.services.conftest import SEEDS, Client


@pytest.fixture
def seeded(client: Client) -> Desk:
    alice = client("alice")
    assert not importing.import_files(alice, SEEDS[:1]).failed
    return alice


def test_undo_takes_back_the_members_own_latest_action_never_anothers(
    seeded: Desk, client: Client
) -> None:
    alice, bob = seeded, client("bob")
    editing.set_rating(alice, [1], 4)
    notes.append_note(alice, 2, "alice: strong baseline")
    tagging.add_tags(bob, [3], ["bob-read-this"])
    assert history.labels(bob).undo == "Add tag bob-read-this"
    assert history.undo(bob) is not None  # bob's tag, not alice's newer note
    assert history.undo(bob) is None  # bob did nothing else: alice's actions are hers
    assert alice._library.papers.get(2).note == "alice: strong baseline"
    assert alice._library.papers.get(1).rating == 4
    assert tagging.list_tags(alice) == []
    (tag,) = [e for e in history.recent(alice, 10) if e.actor == "bob"]
    assert (tag.action, tag.undone, tag.undone_by) == ("Add tag bob-read-this", True, "bob")
    # alice's own undo and redo are untouched by bob's.
    notes.append_note(bob, 2, "bob: weak ablations")
    assert history.labels(alice).undo == "Append to note"
    assert history.undo(alice) is not None
    assert alice._library.papers.get(2).note == ""
    assert bob._library.papers.get(2).note == "bob: weak ablations"
    assert history.labels(alice).redo == "Append to note"
    assert history.labels(bob).redo is None  # bob's new action forgot only his own redo
    # History names who did and who undid each action.
    entries = {(e.action, e.actor): e for e in history.recent(alice, 10)}
    assert entries["Append to note", "alice"].undone_by == "alice"
    assert not entries["Rate 4 stars", "alice"].undone


def test_cancelling_an_import_never_withdraws_another_members_action(
    seeded: Desk, client: Client
) -> None:
    alice, bob = seeded, client("bob")
    before = alice._library.papers.count()
    _report, changes = importing.commit(alice, plan_file(alice, SEEDS[1]), index=False)
    tagging.add_tags(bob, [1], ["after-the-import"])
    bobs = history.recent(bob, 1)[0]
    assert changes.history_id is not None and changes.history_id != bobs.id
    assert history.recent(alice, 2)[1].id == changes.history_id  # its own row, read inside
    assert alice._library.imports.withdraw(bobs.id) is None  # not alice's to withdraw
    assert importing.withdraw(alice, changes) is not None  # her own import, though not newest
    assert alice._library.papers.count() == before
    assert [t.name for t in tagging.list_tags(alice)] == ["after-the-import"]


def raw_sql(server: PostgresServer, database: str, user: str) -> psycopg.Connection:
    """What a member could do with psql: their own login, any SQL."""
    return psycopg.connect(server.url(database, user), autocommit=True)


def test_a_members_raw_sql_cannot_change_another_members_note_nor_forge_history(
    seeded: Desk, client: Client, postgres_server: PostgresServer, team_database: str
) -> None:
    alice = seeded
    notes.set_note(alice, 1, "alice: read it")
    editing.set_rating(alice, [1], 5)
    with raw_sql(postgres_server, team_database, "bob") as bob:
        changed = bob.execute("update member_values set note='forged' where member='alice'")
        assert changed.rowcount == 0  # row-level security: not bob's row
        bob.execute("update member_values set rating=1 where member='alice'")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            bob.execute(
                "insert into member_values (paper_id, member, rating, note) "
                "values (2, 'alice', 1, 'forged')"
            )
        # A history row is stamped with the role that wrote it, whatever it says.
        bob.execute(
            "insert into history (action, actor, at, undone, payload) "
            "values ('Delete everything', 'alice', now(), false, '[]')"
        )
        forged = bob.execute("select actor from history order by id desc limit 1").fetchone()
        assert forged == ("bob",)
        for statement in (
            "update history set actor='bob' where actor='alice'",
            "update history set undone=true where actor='alice'",
            "update history set action='nothing' where actor='alice'",
            "delete from history where actor='alice'",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                bob.execute(statement)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            bob.execute("truncate history")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            bob.execute("update alembic_version set version_num='0001'")
    assert alice._library.papers.get(1).note == "alice: read it"
    assert alice._library.papers.get(1).rating == 5
    assert [e.actor for e in history.recent(alice, 10)].count("alice") >= 3
    # bob's own values are his to change, with paperdesk or without.
    with raw_sql(postgres_server, team_database, "bob") as bob:
        bob.execute(
            "insert into member_values (paper_id, member, rating, note) values (1, 'bob', 2, '')"
        )
    assert alice._library.members.of(1).ratings == (("alice", 5), ("bob", 2))


def test_a_reader_reads_and_the_server_refuses_their_writes(
    seeded: Desk, client: Client, postgres_server: PostgresServer, team_database: str
) -> None:
    editing.set_rating(seeded, [1], 5)
    reader = client(READER)
    assert reader.read_only
    assert reader._library.papers.get(1).team is not None
    with pytest.raises(ReadOnlyLibraryError):
        tagging.add_tags(reader, [1], ["mine"])
    with raw_sql(postgres_server, team_database, READER) as raw:
        for statement in (
            "update papers set title='x'",
            "insert into member_values (paper_id, member, rating, note) values (1, 'rita', 1, '')",
            "insert into history (action, actor, at, undone, payload) "
            "values ('x', 'rita', now(), false, '[]')",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                raw.execute(statement)


def test_a_member_added_later_reads_and_writes_their_own(
    seeded: Desk, postgres_server: PostgresServer, team_database: str, tmp_path: Path
) -> None:
    from paperdesk.services.use_cases import team_admin

    with raw_sql(postgres_server, "postgres", "postgres") as admin:
        admin.execute("drop role if exists frank")
    assert team_admin.add_member(seeded, "frank", "member", password="fr@nk/s3cret")
    address = TeamAddress.parse(postgres_server.url(team_database, "frank"))
    with Desk.open_team(address.with_password("fr@nk/s3cret")) as frank:
        editing.set_rating(frank, [1], 3)
        assert frank._library.members.of(1).ratings == (("frank", 3),)
        assert history.recent(frank, 1)[0].actor == "frank"


def test_role_management_needs_an_owner_and_says_what_to_grant(
    seeded: Desk, client: Client
) -> None:
    from paperdesk.services.use_cases import team_admin

    with pytest.raises(PaperdeskError) as refused:
        team_admin.add_member(client("bob"), "mallory", "owner")
    assert "CREATEROLE" in str(refused.value)


def test_a_member_deletes_and_undeletes_only_papers_without_others_values(
    seeded: Desk, client: Client
) -> None:
    alice, bob = seeded, client("bob")
    editing.set_rating(alice, [1], 4)
    editing.set_rating(bob, [2], 3)
    with pytest.raises(PaperdeskError, match="only an owner deletes it"):
        editing.delete_papers(bob, [1])
    assert alice._library.members.of(1).ratings == (("alice", 4),)
    editing.delete_papers(bob, [2])  # only bob's own rating goes with it
    assert history.undo(bob) is not None
    assert bob._library.members.of(2).ratings == (("bob", 3),)
    # An owner may; undoing it brings everyone's values back.
    editing.set_rating(bob, [1], 2)
    editing.delete_papers(alice, [1])
    assert history.undo(alice) is not None
    assert alice._library.members.of(1).ratings == (("alice", 4), ("bob", 2))
