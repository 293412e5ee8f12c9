"""The index follows every write a service commits, its undo and its redo, with no sync
call in the service (services/use_cases/_sync.py `mutation`, `following`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from paperdesk.core.models import Status
from paperdesk.core.triage import Decision
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    duplicates,
    editing,
    history,
    importing,
    notes,
    searching,
    shortlists,
    tagging,
    triage,
)


def _import(desk: Desk) -> None:
    path = desk.folder.parent / "quokka.bib"
    path.write_text("@article{q, title={Quokka dynamics}, year={2020}}\n", encoding="utf-8")
    importing.import_files(desk, [path])


#: An action, and a query whose hits it changes.
ACTIONS: dict[str, tuple[Callable[[Desk], object], str]] = {
    "tag": (lambda desk: tagging.add_tags(desk, [3], ["fresh"]), "tag:fresh"),
    "rate": (lambda desk: editing.set_rating(desk, [3, 5], 5), "rating:5"),
    "status": (lambda desk: editing.set_status(desk, [3], Status.READ), "status:read"),
    "note": (lambda desk: notes.set_note(desk, 3, "zebrafish"), "note:zebrafish"),
    "edit field": (lambda desk: editing.edit_field(desk, 3, "venue", "Zebraconf"), "zebraconf"),
    "import": (_import, "quokka"),
    "delete": (lambda desk: editing.delete_papers(desk, [3]), "tag:marked"),
    "merge": (lambda desk: duplicates.merge(desk, [3, 4], keep=3), "tag:marked"),
    "shortlist": (lambda desk: shortlists.create(desk, "Zoo", [3]), "in:Zoo"),
    "decision": (lambda desk: triage.decide(desk, 3, Decision.KEEP, "Kept"), "in:Kept"),
}


def found(desk: Desk, query: str) -> list[int]:
    return sorted(searching.find_ids(desk, query).ids)


@pytest.mark.parametrize("kind", ACTIONS)
def test_search_finds_what_each_action_its_undo_and_its_redo_left(desk: Desk, kind: str) -> None:
    action, query = ACTIONS[kind]
    tagging.add_tags(desk, [3, 4], ["marked"])
    before = found(desk, query)
    action(desk)
    after = found(desk, query)
    assert after != before
    history.undo(desk)
    assert found(desk, query) == before
    history.redo(desk)
    assert found(desk, query) == after


def test_a_store_write_outside_a_mutation_fails_loudly(desk: Desk) -> None:
    """A service that forgot @mutation would write past the lock and the index."""
    with pytest.raises(RuntimeError, match="must be marked @mutation"):
        desk._library.tags.add([3], ["unfollowed"])


def test_a_triage_decision_may_leave_its_indexing_for_later(desk: Desk) -> None:
    triage.decide(desk, 3, Decision.KEEP, "Kept", index_later=True)
    assert found(desk, "in:Kept") == [] and desk._follower.waiting() == 1
    desk.catch_up_deferred()
    assert found(desk, "in:Kept") == [3]


def test_each_write_of_a_service_is_followed_once(
    desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    followed = []
    monkeypatch.setattr(desk._follower, "follow", lambda changes, later: followed.append(changes))
    changes = tagging.add_tags(desk, [3], ["fresh"])
    undone = history.undo(desk)
    assert followed == [changes, undone]
