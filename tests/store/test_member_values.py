"""Notes and ratings per member of a team library (PostgreSQL), with the team average;
and migration 0005 giving a 0004 team library's shared note and rating to their writer."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest
from alembic import command
from sqlalchemy import text

from paperdesk.core.models import PaperRecord, Status, UserData
from paperdesk.core.team_values import MemberNote, TeamValues
from paperdesk.store.db import make_engine
from paperdesk.store.library import Library
from paperdesk.store.merges import PaperMerge
from paperdesk.store.migrate import alembic_config
from tests.postgres_server import PostgresServer


@pytest.fixture
def team(postgres_server: PostgresServer, team_database: str) -> Iterator[dict[str, Library]]:
    opened = {
        user: Library.open(postgres_server.url(team_database, user), actor=user)
        for user in ("alice", "bob")
    }
    yield opened
    for library in opened.values():
        library.close()


def add_papers(library: Library, count: int) -> list[int]:
    return library.imports.commit(
        "Import test", [PaperRecord(title=f"Paper number {i}") for i in range(count)]
    ).new_ids


def test_each_member_sees_their_own_rating_and_both_the_average(
    team: dict[str, Library],
) -> None:
    alice, bob = team["alice"], team["bob"]
    (paper, other) = add_papers(alice, 2)
    alice.papers.set_rating([paper], 4)
    bob.papers.set_rating([paper], 2)
    assert alice.papers.get(paper).rating == 4
    assert bob.papers.get(paper).rating == 2
    for library in (alice, bob):
        values = library.members.of(paper)
        assert values.average == 3.0 and values.count == 2
        assert values.ratings == (("alice", 4), ("bob", 2))
        assert values.summary() == "★ 3.0 average of 2 · alice 4, bob 2"
        assert library.members.of(other).average is None
    # Sorting by rating is by the reader's own.
    bob.papers.set_rating([other], 5)
    assert alice.papers.sorted_ids("rating", descending=True) == [paper, other]
    assert bob.papers.sorted_ids("rating", descending=True) == [other, paper]
    # Taking a rating back (0) leaves the average to the others.
    alice.papers.set_rating([paper], 0)
    assert bob.members.of(paper).ratings == (("bob", 2),)


def test_notes_are_each_members_own_and_everyones_are_shown(team: dict[str, Library]) -> None:
    alice, bob = team["alice"], team["bob"]
    (paper,) = add_papers(alice, 1)
    alice.notes.set(paper, "Alice: strong baseline.")
    bob.notes.append(paper, "Bob: weak evaluation.")
    bob.notes.append(paper, "Bob: rerun it.")
    assert alice.papers.get(paper).note == "Alice: strong baseline."
    assert bob.papers.get(paper).note == "Bob: weak evaluation.\n\nBob: rerun it."
    notes = alice.members.of(paper).notes
    assert [(n.member, n.body) for n in notes] == [
        ("alice", "Alice: strong baseline."),
        ("bob", "Bob: weak evaluation.\n\nBob: rerun it."),
    ]
    assert all(isinstance(n.when, datetime) for n in notes)
    alice.notes.set(paper, "  ")  # a blank note removes alice's, not bob's
    assert [n.member for n in bob.members.of(paper).notes] == ["bob"]


def test_history_names_who_and_undo_puts_back_only_the_own_value(
    team: dict[str, Library],
) -> None:
    alice, bob = team["alice"], team["bob"]
    (paper,) = add_papers(alice, 1)
    alice.papers.set_rating([paper], 5)
    bob.papers.set_rating([paper], 1)
    bob.notes.set(paper, "mine")
    recent = [(e.action, e.actor) for e in alice.history.recent()][:3]
    assert recent == [("Edit note", "bob"), ("Rate 1 star", "bob"), ("Rate 5 stars", "alice")]
    assert bob.history.undo() is not None  # bob's note
    assert bob.history.undo() is not None  # bob's rating
    assert alice.members.of(paper).ratings == (("alice", 5),)
    assert alice.members.of(paper).notes == ()


def test_others_own_values_reindex_only_for_them(team: dict[str, Library]) -> None:
    alice, bob = team["alice"], team["bob"]
    (paper, tagged) = add_papers(alice, 2)
    start = alice.generation()
    bob.papers.set_rating([paper], 3)
    bob.notes.set(paper, "bob's")
    alice.tags.add([tagged], ["shared"])
    end = alice.generation()
    # alice's index shows her own note and rating: bob's do not change it, the tag does.
    assert alice.changes.papers_since(start, end, "alice") == {tagged}
    assert bob.changes.papers_since(start, end, "bob") == {paper, tagged}
    assert alice.changes.papers_since(start, end) == {paper, tagged}


def test_0005_gives_a_team_librarys_shared_values_to_their_last_writer(
    postgres_server: PostgresServer,
) -> None:
    team_database = postgres_server.create_database()
    url = postgres_server.url(team_database)  # alice, the database's owner
    engine = make_engine(url)
    with engine.begin() as connection:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
        connection.execute(
            text(
                "INSERT INTO papers (id, title, title_is_derived, abstract, added, fingerprint,"
                " raw_fields, alternatives) VALUES"
                " (1, 'One', false, '', '2026-01-01', 'f1', '[]', '{}'),"
                " (2, 'Two', false, '', '2026-01-01', 'f2', '[]', '{}')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO paper_state (paper_id, status, rating, updated) VALUES"
                " (1, 'read', 4, '2026-01-02'), (2, 'new', 2, '2026-01-02')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO notes (paper_id, body, created, updated) VALUES"
                " (1, 'shared note', '2026-01-02', '2026-01-03')"
            )
        )
        # carol rated paper 1 (3 then 4: the groups a bulk rating journals); bob wrote
        # its note; paper 2's rating came with an import: no history names its writer.
        rating = (
            '[{"table": "paper_state", "columns": [], "before": [], "after": [],'
            ' "groups": {"key": "paper_id", "columns": ["rating", "updated"],'
            ' "before": [[[%s, {"$datetime": "2026-01-01T00:00:00"}], [1]]],'
            ' "after": [[[%s, {"$datetime": "2026-01-02T00:00:00"}], [1]]]}}]'
        )
        note = (
            '[{"table": "notes", "columns": ["paper_id", "body", "created", "updated"],'
            ' "before": [], "after": [[1, "shared note", {"$datetime": "2026-01-02T00:00:00"},'
            ' {"$datetime": "2026-01-03T00:00:00"}]]}]'
        )
        history = [
            ("Import", "alice", '{"undoable": false}'),
            ("Rate 3 stars", "carol", rating % (0, 3)),
            ("Edit note", "bob", note),
            ("Rate 4 stars", "carol", rating % (3, 4)),
        ]
        for action, actor, payload in history:
            connection.execute(
                text(
                    "INSERT INTO history (action, actor, at, undone, payload)"
                    " VALUES (:action, :actor, '2026-01-02', false, :payload)"
                ),
                {"action": action, "actor": actor, "payload": payload},
            )
        connection.execute(text("UPDATE meta SET value = '4' WHERE key = 'generation'"))
    engine.dispose()

    # The owner upgrades the schema (PostgreSQL lets only a table's owner alter it).
    postgres_server.set_up_team(team_database)
    carol = Library.open(postgres_server.url(team_database, "carol"), actor="carol")
    try:
        assert carol.papers.get(1).rating == 4 and carol.papers.get(1).note == ""
        one, two = carol.members.of(1), carol.members.of(2)
        assert one.ratings == (("carol", 4),)
        assert [(n.member, n.body, n.when) for n in one.notes] == [
            ("bob", "shared note", datetime(2026, 1, 3))
        ]
        assert two.ratings == (("alice", 2),)  # the owner's
    finally:
        carol.close()
    bob = Library.open(postgres_server.url(team_database, "bob"), actor="bob")
    try:
        assert (bob.papers.get(1).rating, bob.papers.get(1).note) == (0, "shared note")
        assert bob.papers.get(1).status.value == "read"  # shared fields stay shared
    finally:
        bob.close()


def test_merging_duplicates_keeps_each_members_own_values(team: dict[str, Library]) -> None:
    alice, bob = team["alice"], team["bob"]
    (kept, folded) = add_papers(alice, 2)
    alice.papers.set_rating([kept], 3)
    bob.papers.set_rating([folded], 5)
    bob.notes.set(kept, "first look")
    bob.notes.set(folded, "second look")
    alice.merges.merge([PaperMerge(kept, (folded,), {}, "")], "Merge duplicates")
    values = bob.members.of(kept)
    assert values.ratings == (("alice", 3), ("bob", 5))
    assert [(n.member, n.body) for n in values.notes] == [("bob", "first look\n\nsecond look")]
    stats = bob.stats.library_stats()
    assert (stats.rated, stats.with_notes) == (1, 1)
    assert alice.history.undo() is not None
    assert bob.papers.get(folded).rating == 5 and bob.papers.get(folded).note == "second look"
    assert bob.papers.get(kept).note == "first look"


def test_the_ranking_learns_from_the_members_own_ratings(team: dict[str, Library]) -> None:
    alice, bob = team["alice"], team["bob"]
    (paper, other) = add_papers(alice, 2)
    bob.papers.set_rating([paper], 5)
    assert list(bob.triage.judged()) == [(paper, Status.NEW, 5)]
    assert list(alice.triage.judged()) == []
    assert list(alice.triage.judged([paper, other])) == [
        (paper, Status.NEW, 0),
        (other, Status.NEW, 0),
    ]


def test_an_import_gives_the_importer_or_each_member_their_own_values(
    team: dict[str, Library],
) -> None:
    alice, bob = team["alice"], team["bob"]
    given = UserData(rating=4, note="bob's")  # -1: the first new paper, as import plans say
    (mine,) = bob.imports.commit("Import", [PaperRecord(title="Rated")], user={-1: given}).new_ids
    assert (bob.papers.get(mine).rating, bob.papers.get(mine).note) == (4, "bob's")
    assert (alice.papers.get(mine).rating, alice.papers.get(mine).note) == (0, "")
    # A team export's values: every member's, filled only where they had none.
    alice.notes.set(mine, "alice's own")
    exported = TeamValues(
        ratings=(("alice", 2), ("carol", 5)),
        notes=(MemberNote("alice", "from the file", None), MemberNote("carol", "c", None)),
    )
    # A member's import keeps their own: the server lets only owners write others'.
    bob.imports.commit("Import", [], user={mine: UserData(team=exported)})
    assert alice.members.of(mine).ratings == (("bob", 4),)
    alice.imports.commit("Import", [], user={mine: UserData(team=exported)})
    values = alice.members.of(mine)
    assert values.ratings == (("alice", 2), ("bob", 4), ("carol", 5))
    assert [(n.member, n.body) for n in values.notes] == [
        ("alice", "alice's own"),
        ("bob", "bob's"),
        ("carol", "c"),
    ]
    assert alice.history.undo() is not None  # the owner's import, every member's values
    assert alice.members.of(mine).ratings == (("bob", 4),)
