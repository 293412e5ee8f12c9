"""A team library on a real PostgreSQL server: opened from an address, shared by several
clients, each with its own local search index (tests/postgres_server.py starts it)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

from paperdesk.core.errors import PaperdeskError
from paperdesk.core.models import Status
from paperdesk.core.scope import Scope
from paperdesk.core.team_url import TeamAddress
from paperdesk.services.runtime import team_index
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    editing,
    exporting,
    history,
    importing,
    notes,
    searching,
    shortlists,
    tagging,
)
from paperdesk.services.use_cases.pending_changes import PendingChange
from tests.postgres_server import PostgresServer
from tests.services.conftest import SEEDS, Client


@pytest.fixture
def seeded(client: Client) -> Desk:
    alice = client("alice")
    report = importing.import_files(alice, SEEDS)
    assert not report.failed, report.summary()
    return alice


def test_a_new_team_library_is_created_and_its_state_kept_in_the_user_data_folder(
    client: Client, tmp_path: Path
) -> None:
    alice = client("alice")
    assert alice._library.shared
    assert alice.folder.is_relative_to(tmp_path / "share" / "paperdesk" / "teams")
    assert (alice.folder / "index").is_dir()
    assert "alice@localhost" in alice.location


def test_every_change_records_its_user(seeded: Desk, client: Client) -> None:
    bob = client("bob")
    tagging.add_tags(bob, [1], ["bob-read-this"])
    editing.set_rating(seeded, [2], 5)
    entries = history.recent(bob, 3)
    assert [(e.actor, e.action) for e in entries[:2]] == [
        ("alice", "Rate 5 stars"),
        ("bob", "Add tag bob-read-this"),
    ]


def test_tags_added_by_two_people_both_stay_once_each(seeded: Desk, client: Client) -> None:
    bob = client("bob")
    # Both add "Ml/Theory" (one spelling each: names are case-insensitive) to paper 3.
    tagging.add_tags(seeded, [3, 4], ["ml/theory"])
    tagging.add_tags(bob, [3, 5], ["ML/Theory", "fav"])
    tags = {t.name.lower(): t.count for t in tagging.list_tags(seeded)}
    assert tags == {"ml/theory": 3, "fav": 2}
    assert sorted(searching.find_ids(bob, "tag:ml/theory").ids) == [3, 4, 5]


def test_two_edits_of_one_field_the_last_wins_and_the_first_stays_in_history(
    seeded: Desk, client: Client
) -> None:
    bob = client("bob")
    editing.set_status(seeded, [7], Status.READ)
    editing.set_status(bob, [7], Status.DISCARDED)
    assert seeded._library.papers.get(7).status is Status.DISCARDED
    entries = history.recent(seeded, 2)
    assert [(e.actor, e.action) for e in entries] == [
        ("bob", "Set status discarded"),
        ("alice", "Set status read"),
    ]


def test_notes_are_each_members_own_and_nobodys_paragraph_is_lost(
    seeded: Desk, client: Client
) -> None:
    bob = client("bob")
    notes.append_note(seeded, 9, "alice: strong baseline")
    notes.append_note(bob, 9, "bob: weak ablations")
    notes.append_note(client("bob"), 9, "bob: from his other laptop")
    assert seeded._library.papers.get(9).note == "alice: strong baseline"
    assert bob._library.papers.get(9).note == ("bob: weak ablations\n\nbob: from his other laptop")
    team = seeded._library.papers.get(9).team
    assert team is not None
    assert [(n.member, n.body.splitlines()[0]) for n in team.notes] == [
        ("alice", "alice: strong baseline"),
        ("bob", "bob: weak ablations"),
    ]


def test_each_member_searches_their_own_ratings_and_notes(seeded: Desk, client: Client) -> None:
    bob = client("bob")
    editing.set_rating(seeded, [4], 4)
    editing.set_rating(bob, [4], 2)
    notes.set_note(bob, 5, "wombat")
    assert searching.find_ids(seeded, "rating:>=4").ids == [4]
    assert searching.find_ids(bob, "rating:>=4").ids == []
    assert searching.find_ids(bob, "rating:2").ids == [4]
    assert searching.find_ids(bob, "note:wombat").ids == [5]
    assert searching.find_ids(seeded, "note:wombat").ids == []
    for desk in (seeded, bob):
        team = desk._library.papers.get(4).team
        assert team is not None and (team.average, team.count) == (3.0, 2)


def test_a_client_catches_up_with_the_others_changes_and_finds_them(
    seeded: Desk, client: Client
) -> None:
    bob = client("bob")  # opened, indexed, then away while alice works
    tagging.add_tags(seeded, [11, 12], ["to-discuss"])
    shortlists.create(seeded, "Reading group", [12, 13])
    notes.set_note(seeded, 14, "the quokka trick again")
    editing.delete_papers(seeded, [15])
    assert bob._index.search("tag:to-discuss").ids == []  # its index has not caught up yet

    reindexed = bob.catch_up_with_others()

    # 11, 12, 13 and the deleted 15: alice's own note of 14 is not in bob's index.
    assert reindexed == 4
    assert sorted(searching.find_ids(bob, "tag:to-discuss").ids) == [11, 12]
    assert sorted(searching.find_ids(bob, 'in:"Reading group"').ids) == [12, 13]
    assert searching.find_ids(bob, "quokka").ids == []
    assert searching.find_ids(seeded, "quokka").ids == [14]
    assert 15 not in bob._index.indexed_ids()


def test_a_search_catches_up_first(seeded: Desk, client: Client) -> None:
    bob = client("bob")
    tagging.add_tags(seeded, [21], ["just-now"])
    assert searching.find_ids(bob, "tag:just-now").ids == [21]
    assert team_index.caught_up_to(bob._index) == seeded._library.generation()


def test_a_search_with_nothing_new_does_not_wait_for_this_machines_other_programs(
    seeded: Desk,
) -> None:
    # Another paperdesk on this machine holds the lock (a long import, say): a search
    # whose index is current neither waits for it nor pays for taking the lock.
    assert searching.find_ids(seeded, "graph").ids
    found = searching.find_ids(seeded, "graph").ids

    def waited(message: str) -> None:
        raise AssertionError(f"the search waited: {message}")

    seeded.on_wait = waited
    with FileLock(seeded.lock.path):
        assert searching.find_ids(seeded, "graph").ids == found


def test_a_client_that_reopens_finds_what_others_did_while_it_was_closed(
    seeded: Desk, client: Client
) -> None:
    bob = client("bob")
    bob.close()
    tagging.add_tags(seeded, [16], ["while-bob-was-away"])
    bob_again = client("bob")  # the same local state folder as before
    assert searching.find_ids(bob_again, "tag:while-bob-was-away").ids == [16]


def test_a_client_too_far_behind_rebuilds_its_index(
    seeded: Desk, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    bob = client("bob")
    tagging.add_tags(seeded, [1, 2, 3], ["many"])
    monkeypatch.setattr(team_index, "REBUILD_AFTER", 2)
    assert bob.catch_up_with_others() == bob._library.papers.count()
    assert sorted(searching.find_ids(bob, "tag:many").ids) == [1, 2, 3]


def test_an_unreachable_server_is_one_line_without_the_password(
    client: Client, postgres_server: PostgresServer
) -> None:
    address = TeamAddress.parse("postgresql://alice:s3cret@localhost:1/nothing")
    with pytest.raises(PaperdeskError) as caught:
        Desk.open_team(address)
    message = str(caught.value)
    assert "cannot be reached" in message and "alice:***@localhost:1/nothing" in message
    assert "s3cret" not in message and "\n" not in message


def test_a_json_lines_export_carries_every_members_values_back(
    seeded: Desk,
    client: Client,
    postgres_server: PostgresServer,
    tmp_path: Path,
) -> None:
    bob = client("bob")
    editing.set_rating(seeded, [2], 4)
    editing.set_rating(bob, [2], 2)
    notes.set_note(seeded, 3, "alice: read it")
    notes.set_note(bob, 3, "bob: skip it")
    exported = tmp_path / "team.jsonl"
    exporting.export(seeded, Scope(), exported, "jsonl")
    items = [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()]
    (item,) = [i for i in items if i["title"] == seeded._library.papers.get(2).title]
    assert (item["rating"], item["team"]["average"]) == (4, 3.0)

    # Into another team library, by its owner: every member's note and rating, as they
    # were (the server lets only an owner write others' values).
    database = postgres_server.create_team_database()
    with Desk.open_team(TeamAddress.parse(postgres_server.url(database, "alice"))) as owner:
        assert not importing.import_files(owner, [exported]).failed
    with Desk.open_team(TeamAddress.parse(postgres_server.url(database, "carol"))) as carol:
        (two, three) = carol._library.papers.get_many(ids_of_titles(carol, seeded, [2, 3]))
        assert two.team is not None and two.team.ratings == (("alice", 4), ("bob", 2))
        assert two.rating == 0  # carol has not rated it
        assert three.team is not None
        assert [(n.member, n.body) for n in three.team.notes] == [
            ("alice", "alice: read it"),
            ("bob", "bob: skip it"),
        ]
        alice_note = next(n for n in three.team.notes if n.member == "alice")
        assert alice_note.when == seeded._library.papers.get(3).team.notes[0].when  # type: ignore[union-attr]
    # Into a personal library: the exporting member's own.
    with Desk.open(tmp_path / "personal") as personal:
        assert not importing.import_files(personal, [exported]).failed
        (two, three) = personal._library.papers.get_many(ids_of_titles(personal, seeded, [2, 3]))
        assert (two.rating, three.note, two.team) == (4, "alice: read it", None)


def ids_of_titles(desk: Desk, source: Desk, ids: list[int]) -> list[int]:
    """The ids in `desk` of the papers `source` holds as `ids` (matched by title)."""
    by_title = {p.title: p.id for p in desk._library.papers.get_many(searching.find_ids(desk).ids)}
    return [by_title[p.title] for p in source._library.papers.get_many(ids)]


def test_the_importing_machine_does_not_index_its_import_a_second_time(client: Client) -> None:
    alice = client("alice")
    report = importing.import_files(alice, SEEDS)
    assert report.added > 10
    assert alice.catch_up_with_others() == 0  # was every imported paper again
    bob = client("bob")
    tagging.add_tags(bob, [1], ["after-the-import"])
    assert alice.catch_up_with_others() == 1  # bob's tag, not alice's import
    assert searching.find_ids(alice, "tag:after-the-import").ids == [1]
    assert len(searching.find_ids(alice).ids) == report.added


def test_a_rating_made_while_the_server_is_away_is_kept_and_applied_on_reconnect(
    seeded: Desk, client: Client
) -> None:
    from paperdesk.core.errors import ServerUnreachable
    from paperdesk.services.use_cases import pending_changes
    from paperdesk.services.use_cases.pending_changes import PendingChange

    bob = client("bob")
    bob.offline = True  # what the window's watch sets when the server stops answering
    rating = PendingChange("rating", (2,), 4)
    with pytest.raises(ServerUnreachable, match="cannot be reached"):
        pending_changes.apply(bob, rating)
    assert pending_changes.keep(bob, rating) == 1
    assert pending_changes.keep(bob, PendingChange("status", (2,), "read")) == 2
    editing.set_rating(seeded, [2], 2)  # alice's own rating: untouched by bob's
    still_away = pending_changes.apply_pending(bob)
    assert still_away is not None and still_away.is_empty  # nothing applied, both kept
    assert len(pending_changes.pending(bob)) == 2
    bob.offline = False  # the server answers again
    applied = pending_changes.apply_pending(bob)
    assert applied is not None and 2 in applied.paper_ids
    assert pending_changes.pending(bob) == []
    two = seeded._library.papers.get(2)
    assert two.team is not None and two.team.ratings == (("alice", 2), ("bob", 4))
    assert two.status is Status.READ
    assert [e.actor for e in history.recent(seeded, 2)] == ["bob", "bob"]


def test_a_screening_is_shared_and_each_decision_names_it(seeded: Desk, client: Client) -> None:
    from paperdesk.core.triage import Decision
    from paperdesk.services.use_cases import screenings, triage

    review = screenings.start(seeded, "Review", scope=Scope(), reasons=("off topic",))
    pending = screenings.queue(seeded, review).pending
    triage.decide(seeded, pending[0], Decision.KEEP, "Kept", screening=review)
    triage.decide(seeded, pending[1], Decision.DISCARD, screening=review, reason="off topic")
    bob = client("bob")
    shared = screenings.named(bob, "review")
    assert shared.reasons == ("off topic",) and shared.id == review.id
    found = screenings.queue(bob, shared)
    assert pending[0] not in found.pending and found.decided == 2
    counts = screenings.prisma(bob, shared)
    assert counts.excluded_by_reason == (("off topic", 1),) and counts.included == 1
    assert [(s.screening.name, s.decided) for s in screenings.summaries(bob)] == [("Review", 2)]


def _tags(desk: Desk, paper_id: int) -> set[str]:
    return set(desk._library.papers.get(paper_id).tags)


def _shortlisted(desk: Desk, name: str) -> list[int]:
    return searching.listing(desk, Scope.of_shortlist(name)).ids


#: Each kind of change kept while the server is away: (what alice did before, bob's
#: change, what alice does while bob is away, what holds once bob's change is applied).
OfflineCase = tuple[
    Callable[[Desk], object], PendingChange, Callable[[Desk], object], Callable[[Desk], bool]
]
OFFLINE_CASES: dict[str, OfflineCase] = {
    "add tags": (  # added by both: both stay, once each
        lambda alice: None,
        PendingChange("add tags", (2,), ("shared", "mine")),
        lambda alice: tagging.add_tags(alice, [2], ["shared"]),
        lambda bob: _tags(bob, 2) == {"shared", "mine"},
    ),
    "remove tags": (
        lambda alice: tagging.add_tags(alice, [2], ["old"]),
        PendingChange("remove tags", (2,), ("old",)),
        lambda alice: tagging.add_tags(alice, [2], ["new"]),
        lambda bob: _tags(bob, 2) == {"new"},
    ),
    "toggle tag": (  # toggled as the papers are on reconnect: paper 3 still lacks it
        lambda alice: None,
        PendingChange("toggle tag", (2, 3), "hot"),
        lambda alice: tagging.add_tags(alice, [2], ["hot"]),
        lambda bob: _tags(bob, 2) == _tags(bob, 3) == {"hot"},
    ),
    "title": (  # one field set by both: bob's, written later, wins
        lambda alice: None,
        PendingChange("title", (2,), "Bob's title"),
        lambda alice: editing.set_title(alice, 2, "Alice's title"),
        lambda bob: bob._library.papers.get(2).title == "Bob's title",
    ),
    "add to shortlist": (  # alice created it meanwhile: bob's paper joins hers
        lambda alice: None,
        PendingChange("add to shortlist", (2,), "Reading"),
        lambda alice: shortlists.add(alice, "Reading", [4], create_missing=True),
        lambda bob: _shortlisted(bob, "Reading") == [4, 2],
    ),
    "remove from shortlist": (
        lambda alice: shortlists.create(alice, "Reading", [2, 3]),
        PendingChange("remove from shortlist", (2,), "Reading"),
        lambda alice: shortlists.add(alice, "Reading", [5]),
        lambda bob: _shortlisted(bob, "Reading") == [3, 5],
    ),
}


@pytest.mark.parametrize("kind", OFFLINE_CASES)
def test_a_change_of_each_kind_made_while_the_server_is_away_is_applied_on_reconnect(
    seeded: Desk, client: Client, kind: str
) -> None:
    from paperdesk.core.errors import ServerUnreachable
    from paperdesk.services.use_cases import pending_changes

    before, change, meanwhile, holds = OFFLINE_CASES[kind]
    before(seeded)
    bob = client("bob")
    bob.offline = True
    with pytest.raises(ServerUnreachable):
        pending_changes.apply(bob, change)
    assert pending_changes.keep(bob, change) == 1
    assert pending_changes.pending(bob) == [change]  # as kept on disk, tag names and all
    meanwhile(seeded)
    bob.offline = False
    applied = pending_changes.apply_pending(bob)
    # The papers the change reached (a toggle reaches paper 3 only: alice tagged 2).
    assert applied is not None and applied.paper_ids and applied.paper_ids <= set(change.ids)
    assert pending_changes.pending(bob) == []
    assert holds(bob)
    assert history.recent(seeded, 1)[0].actor == "bob"


def test_a_note_typed_offline_over_one_changed_elsewhere_keeps_both_texts(
    seeded: Desk, client: Client
) -> None:
    laptop, desktop = client("bob"), client("bob")
    notes.set_note(laptop, 2, "first thoughts")
    # The laptop, offline, edits the note it read; bob's desktop changes it meanwhile.
    notes.set_note(desktop, 2, "first thoughts; read the appendix", based_on="first thoughts")
    notes.set_note(laptop, 2, "first thoughts, revised", based_on="first thoughts")
    assert laptop._library.papers.get(2).note == (
        "first thoughts; read the appendix\n\nfirst thoughts, revised"
    )
    # Typed over the note as it is: the text replaces it.
    notes.set_note(laptop, 2, "one version", based_on=laptop._library.papers.get(2).note)
    assert desktop._library.papers.get(2).note == "one version"
