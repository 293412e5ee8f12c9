"""A column set on many papers is journaled as groups of ids and undone exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from paperdesk.core.errors import NotFoundError
from paperdesk.core.models import PaperRecord, Status
from paperdesk.store.library import Library
from paperdesk.store.tables import history_t


@pytest.fixture
def library(tmp_path: Path) -> Library:
    db = tmp_path / "library.sqlite3"
    lib = Library.open(f"sqlite:///{db}", db, tmp_path / "backups")
    lib.imports.commit("Import", [PaperRecord(title=f"Paper {i}") for i in range(6)])
    yield lib
    lib.close()


def states(library: Library) -> dict[int, tuple[Status, int, object]]:
    return {p.id: (p.status, p.rating, p.updated) for p in library.papers.get_many(range(1, 7))}


def test_a_status_on_many_papers_undoes_to_each_ones_own_state(library: Library) -> None:
    library.papers.set_status([1, 2], Status.READ)
    library.papers.set_rating([3], 4)
    library.papers.set_status([5], Status.DISCARDED)
    before = states(library)
    changes = library.papers.set_status(range(1, 7), Status.SKIMMED)
    # Papers already skimmed would not change; all six did, and say so.
    assert changes.paper_ids == frozenset(range(1, 7))
    assert {s for s, _, _ in states(library).values()} == {Status.SKIMMED}
    with library._db.read() as connection:
        payload = connection.scalar(select(history_t.c.payload).order_by(history_t.c.id.desc()))
    (step,) = json.loads(payload)
    # Grouped by old value (status and time): read [1, 2], new [3, 4, 6], discarded [5]
    # (paper 3 apart if its rating landed in another second), not one row each.
    before_groups = step["groups"]["before"]
    assert 3 <= len(before_groups) <= 4
    assert sorted(i for _, ids in before_groups for i in ids) == [1, 2, 3, 4, 5, 6]
    ((_, after_ids),) = step["groups"]["after"]
    assert sorted(after_ids) == [1, 2, 3, 4, 5, 6]
    library.history.undo()
    assert states(library) == before
    library.history.redo()
    assert {s for s, _, _ in states(library).values()} == {Status.SKIMMED}


def test_papers_that_already_have_the_value_are_left_alone(library: Library) -> None:
    library.papers.set_status([2], Status.READ)
    changes = library.papers.set_status([1, 2, 3], Status.READ)
    assert changes.paper_ids == frozenset({1, 3})
    assert library.papers.set_status([1, 2], Status.READ).paper_ids == frozenset()


def test_unknown_ids_are_named_and_nothing_is_written(library: Library) -> None:
    before = states(library)
    with pytest.raises(NotFoundError, match="no paper with id 40, 41"):
        library.papers.set_status([1, 41, 40], Status.READ)
    assert states(library) == before
    assert library.history.labels().undo == "Import"
